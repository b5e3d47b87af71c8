package importer

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer/read"
)

func model(t *testing.T, d, src string) *read.Imported {
	t.Helper()
	s, diags := load.Source(load.Options{Dialects: all.Names()}, d+".hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &read.Imported{Dialect: all.Get(d), Schema: s, Notes: map[string][]string{}}
}

const parent = `
table "p" {
  column "tenant" {
    type = int
  }
  column "id" {
    type = int
  }
  primary_key {
    columns = ["tenant", "id"]
  }
}
`

// The same schema as PostgreSQL and TiDB name it by themselves: objects
// pair by what they are, TiDB keeps its names, and what TiDB refuses (a
// CHECK on a column of a cascading foreign key, which a live TiDB holds) is
// left out of it with a note, so that the model compiles.
func TestMergeByStructure(t *testing.T) {
	pg := model(t, "postgres", parent+`
table "c" {
  column "tenant" {
    type = int
  }
  column "p_id" {
    type = int
  }
  column "code" {
    type = varchar(10)
  }
  column "n" {
    type = int
  }
  unique "c_tenant_code_key" {
    columns = ["tenant", "code"]
  }
  check "c_n_check" {
    expr = "n >= 0 AND n <= 9"
  }
  check "c_p_id_check" {
    expr = "p_id > 0"
  }
  foreign_key "c_tenant_p_id_fkey" {
    columns     = ["tenant", "p_id"]
    ref_table   = "p"
    ref_columns = ["tenant", "id"]
    on_delete   = "cascade"
  }
  index "c_code_idx" {
    columns = ["code"]
  }
  index "c_lower_code_idx" {
    on {
      expr = "lower(code)"
    }
  }
}
`)
	ti := model(t, "tidb", parent+`
table "c" {
  column "tenant" {
    type = int
  }
  column "p_id" {
    type = int
  }
  column "code" {
    type = varchar(10)
  }
  column "n" {
    type = int
  }
  check "c_chk_1" {
    expr = "n BETWEEN 0 AND 9"
  }
  check "c_chk_2" {
    expr = "p_id > 0"
  }
  foreign_key "fk_1" {
    columns     = ["tenant", "p_id"]
    ref_table   = "p"
    ref_columns = ["tenant", "id"]
    on_delete   = "cascade"
  }
  index "tenant" {
    unique  = true
    columns = ["tenant", "code"]
  }
  index "idx_code" {
    columns = ["code"]
  }
  index "idx_lower" {
    on {
      expr = "lower(code)"
    }
  }
}
`)
	r := Merge(pg, ti)
	src := compiler.Write(r.Schema, r.Notes)
	out := gen.CompileSource("merged.hcl", src)
	if out.Failed() {
		t.Fatalf("%v\n%s", out.Diags, src)
	}
	c := r.Schema.Table("c")
	if len(c.Uniques) != 1 || len(c.ForeignKeys) != 1 || len(c.Indexes) != 2 || len(c.Checks) != 2 {
		t.Errorf("uniques %d, foreign keys %d, indexes %d, checks %d; want 1, 1, 2, 2 (each paired once)", len(c.Uniques), len(c.ForeignKeys), len(c.Indexes), len(c.Checks))
	}
	tidb := string(out.Outputs["tidb"].SQL)
	for _, w := range []string{"CONSTRAINT `fk_1` FOREIGN KEY", "CONSTRAINT `tenant` UNIQUE", "INDEX `idx_code`", "INDEX `idx_lower`", "CONSTRAINT `c_chk_1` CHECK (n BETWEEN 0 AND 9)"} {
		if !strings.Contains(tidb, w) {
			t.Errorf("tidb: no %s:\n%s", w, tidb)
		}
	}
	pgSQL := string(out.Outputs["postgres"].SQL)
	for _, w := range []string{`"c_tenant_p_id_fkey"`, `"c_tenant_code_key"`, `"c_code_idx"`, `"c_lower_code_idx"`, `"c_p_id_check"`, `"c_n_check" CHECK ("n" >= 0 AND "n" <= 9)`} {
		if !strings.Contains(pgSQL, w) {
			t.Errorf("postgres: no %s:\n%s", w, pgSQL)
		}
	}
	if !slices.ContainsFunc(r.Notes["c"], func(n string) bool {
		return strings.HasPrefix(n, "check c_p_id_check: left out of tidb (c_chk_2 there), which refuses it: CHECK on a foreign key column with an action")
	}) {
		t.Errorf("no note on the check left out of TiDB: %q", r.Notes["c"])
	}
	if !strings.Contains(string(src), "# check c_p_id_check: left out of tidb") {
		t.Errorf("the model has no comment on the check left out of TiDB:\n%s", src)
	}
	if strings.Contains(tidb, "p_id` > 0") {
		t.Errorf("tidb still has the refused check:\n%s", tidb)
	}
}

// TiDB names indexes per table: two tables may have an index of the same
// name, which the model (named per schema, as PostgreSQL does) renames while
// TiDB keeps its own name.
func TestDistinctNames(t *testing.T) {
	ti := model(t, "tidb", `
table "a" {
  column "email" {
    type = varchar(100)
  }
  index "email" {
    unique  = true
    columns = ["email"]
  }
}
table "b" {
  column "email" {
    type = varchar(100)
  }
  index "email_2" {
    unique  = true
    columns = ["email"]
  }
}
`)
	// As TiDB reports them (the model refuses to load it).
	ti.Schema.Table("b").Indexes[0].Name = "email"
	r := Single(ti, all.Names())
	src := compiler.Write(r.Schema, r.Notes)
	out := gen.CompileSource("single.hcl", src)
	if out.Failed() {
		t.Fatalf("%v\n%s", out.Diags, src)
	}
	if got := strings.Count(string(out.Outputs["tidb"].SQL), "UNIQUE INDEX `email` (`email`)"); got != 2 {
		t.Errorf("tidb has %d indexes named email, want 2:\n%s", got, out.Outputs["tidb"].SQL)
	}
	if !strings.Contains(string(out.Outputs["postgres"].SQL), `"b_email"`) {
		t.Errorf("postgres has no index b_email:\n%s", out.Outputs["postgres"].SQL)
	}
}

// TestUUIDShape: a CHECK only one database has is said to test a uuid's
// shape when that database's dialect recognises it (dialects.ShapeReader,
// TiDB's rule: hex classes of both cases, on a uuid column), on either side
// of the merge; the generic importer knows no such CHECK itself.
func TestUUIDShape(t *testing.T) {
	const tidbSrc = `
table "a" {
  column "id" {
    type = uuid
  }
  column "code" {
    type = varchar(36)
  }
  check "a_chk_1" {
    expr = "id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'"
  }
  check "a_chk_2" {
    expr = "code ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'"
  }
  check "a_chk_3" {
    expr = "id ~ '^[0-9]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'"
  }
  check "a_chk_4" {
    expr = "(id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')"
  }
  check "a_chk_5" {
    expr = "(id ~ '^[A-Fa-f0-9]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$')"
  }
}
`
	const pgSrc = `
table "a" {
  column "id" {
    type = uuid
  }
  column "code" {
    type = varchar(36)
  }
}
`
	shape := func(name, tidbSide string) string {
		return "check " + name + " of a tests that id has a uuid's shape, which " + tidbSide + "'s uuid type guarantees; kept on tidb only"
	}
	for _, order := range [][2]string{{"postgres", "tidb"}, {"tidb", "postgres"}} {
		src := map[string]string{"postgres": pgSrc, "tidb": tidbSrc}
		r := Merge(model(t, order[0], src[order[0]]), model(t, order[1], src[order[1]]))
		want := []string{
			shape("a_chk_1", "postgres"),
			"check a_chk_2 of a exists only on tidb",
			"check a_chk_3 of a exists only on tidb",
			"check a_chk_4 of a exists only on tidb", // lower case only: TiDB's REGEXP tests more
			shape("a_chk_5", "postgres"),
		}
		for _, w := range want {
			if !slices.Contains(r.Summary, w) {
				t.Errorf("%v: no %q in the summary:\n%s", order, w, strings.Join(r.Summary, "\n"))
			}
		}
	}
}
