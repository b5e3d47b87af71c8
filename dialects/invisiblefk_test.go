package dialects_test

import (
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// cascadeModel is a parent and a child whose foreign key has action (an
// on_delete or on_update attribute), with the child's index over the key's
// columns (index is its body) and another index (other, "" for none)
// declared after it.
func cascadeModel(action, index, other string) string {
	return fmt.Sprintf(`table "parents" {
  column "id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
}
table "children" {
  column "id" {
    type = bigint
  }
  column "parent_id" {
    type = bigint
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "children_parent_fk" {
    columns     = ["parent_id"]
    ref_table   = "parents"
    ref_columns = ["id"]
    %s
  }
  index "children_parent_idx" {
%s
  }
%s}
`, action, index, other)
}

// TestInvisibleCascadeIndexRefused: an invisible index led by the columns
// of a foreign key with a referential action is refused on TiDB at its
// visible attribute (issue 33; the differential tester, seed 4242, model
// 4242012789: TiDB failed the parent's DELETE with error 1176, PostgreSQL
// deleted); PostgreSQL, a RESTRICT key, or the key left out of TiDB
// compile.
func TestInvisibleCascadeIndexRefused(t *testing.T) {
	invisible := "    columns = [\"parent_id\", \"id\"]\n    visible = false"
	for _, action := range []string{`on_delete = "cascade"`, `on_delete = "set_null"`, `on_update = "cascade"`} {
		_, diags := generate(t, "tidb", cascadeModel(action, invisible, ""))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), `foreign key "children_parent_fk"`) || !strings.Contains(diags.Error(), "error 1176") {
			t.Fatalf("%s: want the refusal naming the foreign key, got %v", action, diags)
		}
		for _, d := range diags {
			if got := d.Subject.String(); got != "limits.hcl:28,5-12" {
				t.Errorf("%s: the error is at %s, want the visible attribute (limits.hcl:28,5-12): %v", action, got, d)
			}
		}
	}
	for name, c := range map[string]struct{ dialect, src string }{
		"postgres":             {"postgres", cascadeModel(`on_delete = "cascade"`, invisible, "")},
		"restrict":             {"tidb", cascadeModel(`on_delete = "restrict"`, invisible, "")},
		"not led by the key":   {"tidb", cascadeModel(`on_delete = "cascade"`, "    columns = [\"id\", \"parent_id\"]\n    visible = false", "")},
		"key left out of TiDB": {"tidb", strings.Replace(cascadeModel(`on_delete = "cascade"`, invisible, ""), `on_delete = "cascade"`, "on_delete = \"cascade\"\n    tidb {\n      skip = true\n    }", 1)},
	} {
		if _, diags := generate(t, c.dialect, c.src); diags.HasErrors() {
			t.Errorf("%s: %v", name, diags)
		}
	}
}

// TestInvisibleCascadeIndex: on the real TiDB, a DELETE (an UPDATE under
// on_update) of a parent whose foreign key cascades or sets NULL fails
// with error 1176 once the child's index led by
// the key's columns is invisible, even with a visible index led by them
// created after it (TiDB acts through the first such index); with RESTRICT
// the same DELETE runs. This is what TestInvisibleCascadeIndexRefused
// refuses at compile time.
func TestInvisibleCascadeIndex(t *testing.T) {
	other := "  index \"children_parent_zz_idx\" {\n    columns = [\"parent_id\", \"id\"]\n  }\n"
	for _, c := range []struct {
		name, action, other string
		refused             bool
	}{
		{"cascade", `on_delete = "cascade"`, "", true},
		{"cascade beside a visible index", `on_delete = "cascade"`, other, true},
		{"set null", `on_delete = "set_null"`, "", true},
		{"restrict", `on_delete = "restrict"`, "", false},
		{"update cascade", `on_update = "cascade"`, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := dbtest.New(t, "tidb")
			ddl, diags := generate(t, "tidb", cascadeModel(c.action, "    columns = [\"parent_id\"]", c.other))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			stmts, err := migrate.Stmts(ddl)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range stmts {
				if _, err := db.Exec(st.Text); err != nil {
					t.Fatalf("%s: %v", st.Text, err)
				}
			}
			for _, s := range []string{"INSERT INTO parents (id) VALUES (1), (2)", "INSERT INTO children (id, parent_id) VALUES (10, 2)", "DELETE FROM parents WHERE id = 1",
				"ALTER TABLE children ALTER INDEX children_parent_idx INVISIBLE"} {
				if _, err := db.Exec(s); err != nil {
					t.Fatalf("%s: %v", s, err)
				}
			}
			change := "DELETE FROM parents WHERE id = 2"
			if strings.HasPrefix(c.action, "on_update") {
				change = "UPDATE parents SET id = 3 WHERE id = 2"
			}
			_, err = db.Exec(change)
			switch {
			case c.refused && !refusedAs(err, "1176"):
				t.Fatalf("%s with the index invisible: %v, want TiDB's 1176", change, err)
			case !c.refused && !refusedAs(err, "1451"):
				t.Fatalf("DELETE of a referenced row under RESTRICT: %v, want 1451 (the key checked through the invisible index)", err)
			}
			t.Log(err)
		})
	}
}
