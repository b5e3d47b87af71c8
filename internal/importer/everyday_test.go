package importer_test

import (
	"bytes"
	"context"
	"os"
	"slices"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/internal/importer"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportEveryday imports PostgreSQL and TiDB databases built from
// internal/gen/testdata/everyday.hcl, which uses the everyday column kinds
// (identity, enum, ...), each alone and merged: the import gives them back
// as the model's constructs, not as overrides, and the imported model
// generates byte-identical DDL.
func TestImportEveryday(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../gen/testdata/everyday.hcl")
	if err != nil {
		t.Fatal(err)
	}
	full := gen.CompileSource("everyday.hcl", src)
	if full.Failed() {
		t.Fatal(full.Diags)
	}
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, full.Outputs["postgres"].SQL)
	testproject.RunSQL(t, ti, full.Outputs["tidb"].SQL)
	// The tables of identity and enum; the fixture's other tables are
	// imported by TestImportEverydayKinds.
	patterns := []string{"accounts", "invoices"}
	s, diags := load.Source(gen.Options(), "everyday.hcl", src)
	s.Tables = slices.DeleteFunc(s.Tables, func(t *compiler.Table) bool { return !slices.Contains(patterns, t.Name) })
	want := gen.Lower(s, diags)
	if want.Failed() {
		t.Fatal(want.Diags)
	}
	for _, tc := range []struct {
		name    string
		urls    []string
		compare []string // the dialects whose DDL must come back the same
	}{
		{"postgres", []string{pg.URL}, []string{"postgres"}},
		{"tidb", []string{ti.URL}, []string{"tidb"}},
		{"merged", []string{pg.URL, ti.URL}, []string{"postgres", "tidb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := importer.Import(context.Background(), tc.urls, patterns)
			if err != nil {
				t.Fatal(err)
			}
			model := compiler.Write(r.Schema, r.Notes)
			out := gen.CompileSource("imported.hcl", model)
			if out.Failed() {
				t.Fatalf("the imported model does not compile: %v\n%s", out.Diags, model)
			}
			for _, tbl := range r.Schema.Tables {
				for _, c := range tbl.Columns {
					if len(c.Overrides) > 0 {
						t.Errorf("column %s.%s has overrides %v: the import kept a dialect's own SQL", tbl.Name, c.Name, c.Overrides)
					}
				}
			}
			for _, id := range []string{"accounts.id", "invoices.id"} {
				tbl, col, _ := bytes.Cut([]byte(id), []byte("."))
				if c := findColumn(r.Schema, string(tbl), string(col)); c == nil || c.Identity == nil {
					t.Errorf("column %s is no identity in the imported model", id)
				}
			}
			for _, d := range tc.compare {
				// The header names the schema file.
				got := bytes.Replace(out.Outputs[d].SQL, []byte("imported.hcl"), []byte("everyday.hcl"), -1)
				if !bytes.Equal(got, want.Outputs[d].SQL) {
					t.Errorf("%s: generate after import differs:\n--- imported\n%s\n--- original\n%s\nmodel:\n%s", d, got, want.Outputs[d].SQL, model)
				}
			}
		})
	}
}
