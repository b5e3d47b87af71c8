package importer_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestRoundTripRepository generates the repository's schema, applies it to
// fresh databases, imports from both, and generates again: the files are
// byte-identical.
func TestRoundTripRepository(t *testing.T) {
	src, err := os.ReadFile("../../schema.hcl")
	if err != nil {
		t.Fatal(err)
	}
	first := gen.CompileSource("schema.hcl", src)
	if first.Failed() {
		t.Fatal(first.Diags)
	}
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, first.Outputs["postgres"].SQL)
	testproject.RunSQL(t, ti, first.Outputs["tidb"].SQL)
	r, err := importer.Import(context.Background(), []string{pg.URL, ti.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	imported := compiler.Write(r.Schema, r.Notes)
	second := gen.CompileSource("schema.hcl", imported) // the name of the first: the header names the file
	if second.Failed() {
		t.Fatalf("the imported model does not compile: %v\n%s", second.Diags, imported)
	}
	for _, d := range []string{"postgres", "tidb"} {
		want, got := string(first.Outputs[d].SQL), string(second.Outputs[d].SQL)
		if got != want {
			t.Errorf("%s: generated again from the imported model differs at %s", d, testproject.FirstDiff(want, got))
		}
	}
	if t.Failed() {
		t.Logf("summary:\n%s\nimported:\n%s", strings.Join(r.Summary, "\n"), imported)
	}
}
