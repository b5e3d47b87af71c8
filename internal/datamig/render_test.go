package datamig_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/gen"
)

// TestRenderBatched: a batched data migration renders without a
// transaction, with the line migrate apply walks it by, and is current
// for generate and check as any other rendered file; a batched statement
// beside another is refused.
func TestRenderBatched(t *testing.T) {
	r := gen.CompileSource("schema.hcl", []byte(backfillModel))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	src := []byte("UPDATE customers SET first_name = split_part(contact_name, ' ', 1) WHERE first_name IS NULL BATCH = 500;\n")
	stmts, diags := datamig.Compile("p.sql", src, r.Schema)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for name, d := range map[string]dialects.DataRenderer{"postgres": postgres.Dialect{}, "tidb": tidb.Dialect{}} {
		out := datamig.Render(d, "migrations/portable/1_p.sql", src, stmts, datamig.Catalog(r.Schema), r.Outputs[name].Exprs)
		b, ok := dialects.ParseBatch(out)
		if !strings.HasPrefix(string(out), "-- atlas:txmode none\n") || !ok || b != (dialects.Batch{Table: "customers", Key: "id", Kind: b.Kind, Rows: 500}) || b.Kind.String() != "integer" {
			t.Errorf("%s: batch %+v (%v) in:\n%s", name, b, ok, out)
		}
		if !datamig.Current(out, src) || datamig.Source(out) != "migrations/portable/1_p.sql" {
			t.Errorf("%s: the rendered file is not current for its source:\n%s", name, out)
		}
		if datamig.Current(out, append(src, ' ')) {
			t.Errorf("%s: current for another source", name)
		}
	}
	_, diags = datamig.Compile("p.sql", append(src, "DELETE FROM users WHERE id = 0;\n"...), r.Schema)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "the only statement of its file") {
		t.Errorf("a batched statement beside another: %v", diags)
	}
}
