package dialects_test

import (
	"context"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// applyBoth generates src for both dialects, applies it to fresh databases
// and returns them.
func applyBoth(t *testing.T, src string) (map[string]*dbtest.DB, map[string]string) {
	t.Helper()
	ctx := context.Background()
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	ddl := map[string]string{}
	for d, db := range dbs {
		sql, diags := generate(t, d, src)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", d, diags)
		}
		ddl[d] = sql
		stmts, err := migrate.Stmts(sql)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range stmts {
			if _, err := db.ExecContext(ctx, st.Text); err != nil {
				t.Fatalf("%s: %v\n%s", d, err, st.Text)
			}
		}
	}
	return dbs, ddl
}

// outcomes runs each statement on both databases and wants the same
// outcome, ok or refused as ok says.
func outcomes(t *testing.T, dbs map[string]*dbtest.DB, steps []struct {
	sql string
	ok  bool
}) {
	t.Helper()
	for _, st := range steps {
		got := map[string]bool{}
		for d, db := range dbs {
			_, err := db.ExecContext(context.Background(), st.sql)
			got[d] = err == nil
			if got[d] != st.ok {
				t.Errorf("%s: %s: ok=%v (%v), want ok=%v", d, st.sql, got[d], err, st.ok)
			}
		}
	}
}

const fkParent = `
table "p" {
  column "id" {
    type = int
  }
  column "a" {
    type = int
  }
  column "b" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  unique "p_ab_uq" {
    columns = ["a", "b"]
%s  }
}
`

// A foreign key whose referenced columns are the unique key's in another
// order: PostgreSQL takes it, TiDB needs an index led by them in the key's
// order (error 1822). The TiDB dialect writes the same pairs in the unique
// key's order, and both databases check the same rows.
func TestForeignKeyColumnOrder(t *testing.T) {
	src := strings.Replace(fkParent, "%s", "", 1) + `
table "c" {
  column "id" {
    type = int
  }
  column "x" {
    type = int
  }
  column "y" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "c_p_fk" {
    columns     = ["y", "x"]
    ref_table   = "p"
    ref_columns = ["b", "a"]
  }
}
`
	dbs, ddl := applyBoth(t, src)
	if w := "FOREIGN KEY (`x`, `y`) REFERENCES `p` (`a`, `b`)"; !strings.Contains(ddl["tidb"], w) {
		t.Errorf("tidb: no %s in\n%s", w, ddl["tidb"])
	}
	if w := `FOREIGN KEY ("y", "x") REFERENCES "p" ("b", "a")`; !strings.Contains(ddl["postgres"], w) {
		t.Errorf("postgres: no %s in\n%s", w, ddl["postgres"])
	}
	outcomes(t, dbs, []struct {
		sql string
		ok  bool
	}{
		{"INSERT INTO p (id, a, b) VALUES (1, 1, 2)", true},
		{"INSERT INTO c (id, x, y) VALUES (1, 1, 2)", true},  // y=b=2, x=a=1
		{"INSERT INTO c (id, x, y) VALUES (2, 2, 1)", false}, // (a=2, b=1) is no row
		{"DELETE FROM p WHERE id = 1", false},
	})
}

// A foreign key to a unique key the model leaves out of one database: that
// database has no key to check it against (TiDB 1822, PostgreSQL "no unique
// constraint matching given keys"). schemagen refuses it at the reference.
func TestForeignKeyToKeyLeftOut(t *testing.T) {
	child := `
table "c" {
  column "id" {
    type = int
  }
  column "x" {
    type = int
  }
  column "y" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "c_p_fk" {
    columns     = ["x", "y"]
    ref_table   = "p"
    ref_columns = ["a", "b"]
  }
}
`
	for _, d := range []string{"tidb", "postgres"} {
		src := strings.Replace(fkParent, "%s", "    "+d+" {\n      skip = true\n    }\n", 1) + child
		_, diags := generate(t, d, src)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "is left out of") || !strings.Contains(diags.Error(), "limits.hcl:") {
			t.Errorf("%s: %v, want the foreign key refused", d, diags)
		}
	}
	// What the databases do with it, from the DDL schemagen wrote before.
	ctx := context.Background()
	ti := dbtest.TiDB(t)
	for _, q := range []string{"CREATE TABLE p (id INT PRIMARY KEY, a INT, b INT)", "CREATE TABLE c (id INT PRIMARY KEY, x INT, y INT, FOREIGN KEY (x, y) REFERENCES p (a, b))"} {
		_, err := ti.ExecContext(ctx, q)
		if strings.HasPrefix(q, "CREATE TABLE c") {
			if err == nil || !refusedAs(err, "1822") {
				t.Errorf("tidb: %v, want 1822", err)
			}
		} else if err != nil {
			t.Fatal(err)
		}
	}
	pg := dbtest.Postgres(t)
	for _, q := range []string{"CREATE TABLE p (id INT PRIMARY KEY, a INT, b INT)", "CREATE TABLE c (id INT PRIMARY KEY, x INT, y INT, FOREIGN KEY (x, y) REFERENCES p (a, b))"} {
		_, err := pg.ExecContext(ctx, q)
		if strings.HasPrefix(q, "CREATE TABLE c") {
			if err == nil || !refusedAs(err, "42830 no unique constraint matching") {
				t.Errorf("postgres: %v, want 42830", err)
			}
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// Seed 424242: an expression index part with arithmetic in a partial index.
// TiDB drops the predicate, and computed c3 + 1 for every row, so a row
// outside the predicate with c3 at BIGINT's maximum failed there (1264) and
// not on PostgreSQL. The part is computed inside the predicate only.
func TestPartialIndexArithmeticPart(t *testing.T) {
	src := `
table "t" {
  column "id" {
    type = int
  }
  column "c2" {
    type = varchar(5)
  }
  column "c3" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
  index "t_ix" {
    on {
      expr = "c3 + 1"
    }
    where = "c2 = ''"
    tidb {
      accept = ["partial_index"]
    }
  }
}
`
	dbs, ddl := applyBoth(t, src)
	if w := "AS (CASE WHEN `c2` = '' THEN `c3` + 1 END) VIRTUAL"; !strings.Contains(ddl["tidb"], w) {
		t.Errorf("tidb: no %s in\n%s", w, ddl["tidb"])
	}
	outcomes(t, dbs, []struct {
		sql string
		ok  bool
	}{
		{"INSERT INTO t (id, c2, c3) VALUES (1, 'x', 0)", true},
		{"UPDATE t SET c3 = 9223372036854775807 WHERE id = 1", true}, // outside the predicate
		{"INSERT INTO t (id, c2, c3) VALUES (2, 'y', 9223372036854775807)", true},
		{"INSERT INTO t (id, c2, c3) VALUES (3, '', 9223372036854775807)", false}, // inside: overflow on both
		{"INSERT INTO t (id, c2, c3) VALUES (3, '', 5)", true},
		{"UPDATE t SET c3 = 9223372036854775807 WHERE id = 3", false},
		{"UPDATE t SET c2 = '' WHERE id = 1", false},
	})
}
