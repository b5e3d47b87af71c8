package importer_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportEverydayKinds imports databases built from the everyday model
// (generated columns, time, float, datetime, uuid(), on_update) and gets
// the constructs back, not overrides: generating from the merged import is
// byte-identical on both, and from each database alone its own dialect's
// statements are (the comments differ where one database cannot tell: a
// PostgreSQL column stored = false is STORED there, a TiDB DATETIME(6) may be
// timestamp(6) or datetime).
func TestImportEverydayKinds(t *testing.T) {
	src, err := os.ReadFile("../gen/testdata/everyday.hcl")
	if err != nil {
		t.Fatal(err)
	}
	first, pg, ti := applyBoth(t, src)
	_, imported := regenerate(t, first, pg.URL, ti.URL)
	text := string(imported)
	for _, want := range []string{`as   = "price * qty"`, `stored = false`, `on_update = now()`, `default = uuid()`, `= float`, `= time`, `= time(0)`, `= datetime`, `= datetime(3)`, `= "09:00:00"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the merged import lacks %s", want)
		}
	}
	for _, unwanted := range []string{"postgres {", "tidb {", "_time_ck"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("the merged import holds %q:\n%s", unwanted, text)
		}
	}
	for _, db := range []struct{ dialect, url string }{{"postgres", pg.URL}, {"tidb", ti.URL}} {
		r, err := importer.Import(context.Background(), []string{db.url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		one := compiler.Write(r.Schema, r.Notes)
		second := gen.CompileSource("schema.hcl", one)
		if second.Failed() {
			t.Fatalf("%s: the imported model does not compile: %v\n%s", db.dialect, second.Diags, one)
		}
		if want, got := statements(first.Outputs[db.dialect].SQL), statements(second.Outputs[db.dialect].SQL); want != got {
			t.Errorf("%s alone: generated again differs at %s\n%s", db.dialect, testproject.FirstDiff(want, got), one)
		}
		if strings.Contains(string(one), db.dialect+" {") {
			t.Errorf("%s alone: the import keeps overrides:\n%s", db.dialect, one)
		}
	}
}

// statements is generated DDL without its comment lines.
func statements(sql []byte) string {
	var keep []string
	for _, line := range strings.Split(string(sql), "\n") {
		if !strings.HasPrefix(line, "--") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}
