package gen_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

// enumModel uses one enum in two tables: in a key, an index, a partial
// index, a CHECK, a generated column and a foreign key between enum columns.
const enumModel = `
table "orders" {
  column "id" {
    type = int
  }
  column "status" {
    type    = enum.order_status
    default = "pending"
  }
  column "open" {
    type   = bool
    as     = "status IN ('pending', 'paid')"
    stored = false
  }
  primary_key {
    columns = ["id"]
  }
  unique "orders_id_status_uq" {
    columns = ["id", "status"]
  }
  check "orders_status_ck" {
    expr = "status <> 'cancelled' OR id > 100"
  }
  index "orders_status_idx" {
    columns = ["status"]
  }
  index "orders_paid_idx" {
    columns = ["id"]
    where   = "status = 'paid'"
    tidb {
      accept = ["partial_index"]
    }
  }
}

enum "order_status" {
  values = ["pending", "paid", "shipped", "cancelled"]
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
  foreign_key "shipments_order_fk" {
    columns     = ["order_id", "status"]
    ref_table   = "orders"
    ref_columns = ["id", "status"]
  }
}
`

// TestEnumApplies applies the enum model on both databases and runs the
// same statements there: the same values are refused (an unknown value, a
// value in another case, the empty string, a value with a trailing space on
// PostgreSQL only: see docs/semantics.md), and ORDER BY sorts by the
// declared order on both.
func TestEnumApplies(t *testing.T) {
	r := gen.CompileSource("enum.hcl", []byte(enumModel))
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	pg := string(r.Outputs[postgres.Name].SQL)
	if !strings.Contains(pg, `CREATE TYPE "order_status" AS ENUM ('pending', 'paid', 'shipped', 'cancelled');`) || strings.Index(pg, "CREATE TYPE") > strings.Index(pg, "CREATE TABLE") {
		t.Errorf("postgres: no CREATE TYPE before the tables:\n%s", pg)
	}
	if ti := string(r.Outputs[tidb.Name].SQL); strings.Count(ti, "ENUM('pending', 'paid', 'shipped', 'cancelled')") != 2 {
		t.Errorf("tidb: the enum is not written into both columns:\n%s", ti)
	}
	results := map[string][][][]string{}
	for _, d := range all.Names() {
		db := dbtest.New(t, d)
		apply(t, db, r.Outputs[d].SQL)
		q := func(s string) string {
			if d == tidb.Name {
				return strings.ReplaceAll(s, `"`, "`")
			}
			return s
		}
		must := func(s string) {
			t.Helper()
			if _, err := db.Exec(q(s)); err != nil {
				t.Fatalf("%s: %s: %v", d, s, err)
			}
		}
		refused := func(why, s string) {
			t.Helper()
			if _, err := db.Exec(q(s)); err == nil {
				t.Errorf("%s: %s was accepted: %s", d, why, s)
			}
		}
		must(`INSERT INTO "orders" ("id") VALUES (7)`)
		must(`INSERT INTO "orders" ("id", "status") VALUES (2, 'shipped'), (3, 'paid'), (4, 'pending'), (101, 'cancelled')`)
		refused("a value the enum does not have", `INSERT INTO "orders" ("id", "status") VALUES (5, 'lost')`)
		refused("a value in another case", `INSERT INTO "orders" ("id", "status") VALUES (5, 'PAID')`)
		refused("the empty string", `INSERT INTO "orders" ("id", "status") VALUES (5, '')`)
		refused("a value the CHECK refuses", `INSERT INTO "orders" ("id", "status") VALUES (5, 'cancelled')`)
		refused("an UPDATE to a value the enum does not have", `UPDATE "orders" SET "status" = 'lost' WHERE "id" = 7`)
		must(`INSERT INTO "shipments" ("order_id", "status") VALUES (2, 'shipped'), (3, NULL)`)
		refused("a foreign key to another status", `INSERT INTO "shipments" ("order_id", "status") VALUES (4, 'paid')`)
		must(`UPDATE "orders" SET "status" = 'paid' WHERE "id" = 7`)
		var got [][][]string
		got = append(got, texts(t, db, `SELECT "id", "status", "open" FROM "orders" ORDER BY "status", "id"`))
		got = append(got, texts(t, db, `SELECT "id" FROM "orders" WHERE "status" IN ('paid', 'shipped') ORDER BY "id"`))
		got = append(got, texts(t, db, `SELECT "id" FROM "orders" WHERE "status" = 'paid' ORDER BY "id"`))
		got = append(got, texts(t, db, `SELECT o."id", s."status" FROM "orders" o JOIN "shipments" s ON s."order_id" = o."id" ORDER BY o."id"`))
		results[d] = got
	}
	p, ti := results[postgres.Name], results[tidb.Name]
	for i := range p {
		if strings.Join(flat(p[i]), "|") != strings.Join(flat(ti[i]), "|") {
			t.Errorf("query %d differs:\npostgres %v\ntidb     %v", i+1, p[i], ti[i])
		}
	}
	// ORDER BY follows the declared order, not the alphabet.
	if want := "4,pending,true|3,paid,true|7,paid,true|2,shipped,false|101,cancelled,false"; strings.Join(flat(p[0]), "|") != want {
		t.Errorf("ORDER BY status: %v, want %s", p[0], want)
	}
}

// TestEnumRefused: the model's enum mistakes are refused at their line.
func TestEnumRefused(t *testing.T) {
	col := func(typ, extra string) string {
		return `
table "t" {
  column "id" {
    type = int
  }
  column "s" {
    type = ` + typ + `
` + extra + `
  }
  primary_key {
    columns = ["id"]
  }
}
`
	}
	enum := func(values string) string { return "enum \"e\" {\n  values = " + values + "\n}\n" }
	for _, tc := range []struct{ name, src, want string }{
		{"empty list", enum(`[]`) + col("enum.e", ""), "non-empty list"},
		{"not strings", enum(`[1, 2]`) + col("enum.e", ""), "list of strings"},
		{"duplicate value", enum(`["a", "b", "a"]`) + col("enum.e", ""), `already has the value "a"`},
		{"values differing in case", enum(`["a", "A"]`) + col("enum.e", ""), "differ only in case"},
		{"empty value", enum(`["a", ""]`) + col("enum.e", ""), "cannot be empty"},
		{"trailing space", enum(`["a", "b "]`) + col("enum.e", ""), "ends in a space"},
		{"too long", enum(`["`+strings.Repeat("x", 64)+`"]`) + col("enum.e", ""), "64 bytes; PostgreSQL takes at most 63"},
		{"unknown enum", enum(`["a"]`) + col("enum.f", ""), `no enum "f"`},
		{"suggested enum", enum(`["a"]`) + col("enum.ee", ""), `Did you mean "e"?`},
		{"enum without a name", enum(`["a"]`) + col("enum", ""), "type = enum.NAME"},
		{"enum as a call", enum(`["a"]`) + col(`enum("a")`, ""), "type = enum.NAME"},
		{"duplicate enum", enum(`["a"]`) + enum(`["b"]`) + col("enum.e", ""), `enum "e" is already declared`},
		{"enum named like a table", "enum \"t\" {\n  values = [\"a\"]\n}\n" + col("enum.t", ""), "has the name of table"},
		{"default not a value", enum(`["a", "b"]`) + col("enum.e", `    default = "c"`), "'c' is not a value of enum e"},
		{"default of another kind", enum(`["a", "b"]`) + col("enum.e", `    default = 1`), "does not fit"},
		{"ordering comparison", enum(`["a", "b"]`) + strings.Replace(col("enum.e", ""), "primary_key", "check \"c\" {\n    expr = \"s < 'b'\"\n  }\n  primary_key", 1), "cannot be ordered portably"},
		{"BETWEEN", enum(`["a", "b"]`) + strings.Replace(col("enum.e", ""), "primary_key", "check \"c\" {\n    expr = \"s BETWEEN 'a' AND 'b'\"\n  }\n  primary_key", 1), "cannot be ordered portably"},
		{"label not a value", enum(`["a", "b"]`) + strings.Replace(col("enum.e", ""), "primary_key", "check \"c\" {\n    expr = \"s IN ('a', 'z')\"\n  }\n  primary_key", 1), "'z' is not a value of enum e"},
		{"comparison with a text column", enum(`["a", "b"]`) + strings.Replace(col("enum.e", ""), "primary_key", "column \"x\" {\n    type = text\n  }\n  check \"c\" {\n    expr = \"s = x\"\n  }\n  primary_key", 1), "compares an enum with string"},
		{"a text function", enum(`["a", "b"]`) + strings.Replace(col("enum.e", ""), "primary_key", "check \"c\" {\n    expr = \"lower(s) = 'a'\"\n  }\n  primary_key", 1), "must be string, not enum"},
		{"override to an enum", enum(`["a"]`) + col("text", "    tidb {\n      type = enum.e\n    }"), "cannot make a column an enum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := gen.CompileSource("enum.hcl", []byte(tc.src))
			if !r.Failed() {
				t.Fatalf("compiled:\n%s", tc.src)
			}
			got := describe(r.Diags)
			if !strings.Contains(got, tc.want) {
				t.Errorf("errors do not say %q:\n%s", tc.want, got)
			}
			for _, d := range r.Diags {
				if d.Subject == nil || d.Subject.Start.Line == 0 {
					t.Errorf("error without a position: %s: %s", d.Summary, d.Detail)
				}
			}
		})
	}
}

// TestEnumWithoutDefault shows the difference the TiDB lowering warns
// about: an INSERT that leaves out a NOT NULL enum column without a default
// gets the first value on TiDB, and is refused on PostgreSQL (found by the
// differential tester, seed 1).
func TestEnumWithoutDefault(t *testing.T) {
	src := `
enum "e" {
  values = ["x", "y"]
}

table "t" {
  column "id" {
    type = int
  }
  column "s" {
    type = enum.e
  }
  primary_key {
    columns = ["id"]
  }
}
`
	r := gen.CompileSource("enum.hcl", []byte(src))
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	if got := describe(r.Diags); !strings.Contains(got, "enum.hcl:11") || !strings.Contains(got, "gets the enum's first value, 'x', on TiDB") {
		t.Errorf("no warning at the column:\n%s", got)
	}
	for _, d := range all.Names() {
		db := dbtest.New(t, d)
		apply(t, db, r.Outputs[d].SQL)
		_, err := db.Exec("INSERT INTO t (id) VALUES (1)")
		switch {
		case d == postgres.Name && err == nil:
			t.Errorf("postgres took a row without s")
		case d == tidb.Name && err != nil:
			t.Errorf("tidb refused a row without s (%v): the warning is stale", err)
		case d == tidb.Name:
			if got := texts(t, db, `SELECT "s" FROM "t"`); len(got) != 1 || got[0][0] != "x" {
				t.Errorf("tidb wrote %v, want x", got)
			}
		}
	}
}

// The warning about a NOT NULL enum column without a default can be
// acknowledged at the column; accepting it elsewhere is refused at its line.
func TestEnumWithoutDefaultAccepted(t *testing.T) {
	column := func(extra string) string {
		return `
enum "e" {
  values = ["x", "y"]
}

table "t" {
  column "id" {
    type = int
  }
  column "s" {
    type = enum.e
` + extra + `
  }
  primary_key {
    columns = ["id"]
  }
}
`
	}
	r := gen.CompileSource("enum.hcl", []byte(column(`    tidb {
      accept = ["enum_first_value"]
    }`)))
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	if got := describe(r.Diags); strings.Contains(got, "first value") {
		t.Errorf("an accepted warning is still given:\n%s", got)
	}
	r = gen.CompileSource("enum.hcl", []byte(column(`    default = "x"
    tidb {
      accept = ["enum_first_value"]
    }`)))
	if got := describe(r.Diags); !r.Failed() || !strings.Contains(got, "enum.hcl:13") || !strings.Contains(got, "NOT NULL enum type without a default") {
		t.Errorf("accepting what the column does not have: failed=%v\n%s", r.Failed(), got)
	}
}
