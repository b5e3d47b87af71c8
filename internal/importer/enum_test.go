package importer_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// enumImported is a model with an enum used by two tables (with a default,
// in a CHECK, an index and a generated column) and an enum no column uses.
const enumImported = `enum "order_status" {
  values = ["pending", "paid", "shipped", "cancelled"]
}

enum "spare" {
  values = ["x", "y"]
}

table "orders" {
  column "id" {
    type = int
  }
  column "status" {
    type    = enum.order_status
    default = "pending"
  }
  column "open" {
    type = bool
    as   = "status IN ('pending', 'paid')"
  }
  primary_key {
    columns = ["id"]
  }
  check "orders_status_ck" {
    expr = "status <> 'cancelled' OR id > 100"
  }
  index "orders_status_idx" {
    columns = ["status"]
  }
}

table "shipments" {
  column "order_id" {
    type = int
  }
  column "status" {
    type = enum.order_status
    null = true
  }
  primary_key {
    columns = ["order_id"]
  }
}
`

// TestImportEnum imports PostgreSQL and TiDB databases made from a model
// with enums, each alone and merged: PostgreSQL's enum types and TiDB's
// ENUM columns come back as enums (TiDB's named after table and column, a
// merged import pairs them with PostgreSQL's), without overrides, and
// generate after import is byte-identical.
func TestImportEnum(t *testing.T) {
	t.Parallel()
	want := gen.CompileSource("enum.hcl", []byte(enumImported))
	if want.Failed() {
		t.Fatal(want.Diags)
	}
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, want.Outputs["postgres"].SQL)
	testproject.RunSQL(t, ti, want.Outputs["tidb"].SQL)
	for _, tc := range []struct {
		name    string
		urls    []string
		compare []string
		enum    string // the enum of orders.status in the imported model
	}{
		{"postgres", []string{pg.URL}, []string{"postgres"}, "order_status"},
		{"tidb", []string{ti.URL}, []string{"tidb"}, "orders_status"},
		{"merged", []string{pg.URL, ti.URL}, []string{"postgres", "tidb"}, "order_status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := importer.Import(context.Background(), tc.urls, nil)
			if err != nil {
				t.Fatal(err)
			}
			model := compiler.Write(r.Schema, r.Notes)
			out := gen.CompileSource("enum.hcl", model)
			if out.Failed() {
				t.Fatalf("the imported model does not compile: %v\n%s", out.Diags, model)
			}
			for _, tbl := range out.Schema.Tables {
				for _, c := range tbl.Columns {
					if len(c.Overrides) > 0 {
						t.Errorf("column %s.%s has overrides: the import kept a dialect's own SQL\n%s", tbl.Name, c.Name, model)
					}
				}
				for _, c := range tbl.Checks {
					if len(c.Overrides) > 0 || c.Expr == nil {
						t.Errorf("check %s of %s is not read as an expression\n%s", c.Name, tbl.Name, model)
					}
				}
			}
			for _, col := range []string{"orders.status", "shipments.status"} {
				tbl, name, _ := bytes.Cut([]byte(col), []byte("."))
				c := findColumn(out.Schema, string(tbl), string(name))
				if c == nil || c.Type.Kind != compiler.TypeEnum || tc.name != "tidb" && c.Type.Enum.Name != tc.enum {
					t.Errorf("column %s is not enum.%s in the imported model:\n%s", col, tc.enum, model)
				}
			}
			if c := findColumn(out.Schema, "orders", "status"); c != nil && c.Type.Enum != nil && c.Type.Enum.Name != tc.enum {
				t.Errorf("orders.status is enum.%s, want enum.%s", c.Type.Enum.Name, tc.enum)
			}
			for _, d := range tc.compare {
				if !bytes.Equal(out.Outputs[d].SQL, want.Outputs[d].SQL) {
					t.Errorf("%s: generate after import differs:\n--- imported\n%s\n--- original\n%s\nmodel:\n%s", d, out.Outputs[d].SQL, want.Outputs[d].SQL, model)
				}
			}
		})
	}
}
