package drift_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/testproject"
)

const indexOptions = `
table "docs" {
  column "id" {
    type = bigint
  }
  column "tenant" {
    type = varchar(40)
  }
  column "title" {
    type = varchar(200)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  index "docs_tenant_idx" {
    columns = ["tenant"]
    include = ["title"]
    storage = { fillfactor = 70 }
    visible = false
  }
}
`

// TestIndexOptions creates an index with INCLUDE and a fillfactor
// (PostgreSQL) and INVISIBLE (TiDB) by migrate diff and apply, reads them
// back from the server's catalog, finds no drift at head, reports a hand
// change of each (with the option in the finding), then plans the model's
// change of both in place (ALTER INDEX ... SET, ALTER TABLE ... ALTER INDEX
// ... VISIBLE), their removal (RESET), and a change of INCLUDE (the index
// rebuilt CONCURRENTLY), applies each, and finds no drift after.
func TestIndexOptions(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, indexOptions)
			p.Diff("init")
			db := dbtest.New(t, d)
			p.Apply(d, db.URL)
			f := &fixture{p: p, dialect: d}
			noDrift := func(when string) {
				t.Helper()
				if r := f.check(t, db.URL)[0]; r.Status != drift.NoDrift || r.Error != "" {
					t.Fatalf("%s: status %d %s %+v %+v", when, r.Status, r.Error, r.Migrations, r.Model)
				}
			}
			noDrift("at head")
			var def, hand, want string
			if d == "postgres" {
				def = scalar(t, db, "SELECT pg_get_indexdef('docs_tenant_idx'::regclass)")
				if !strings.Contains(def, `INCLUDE (title) WITH (fillfactor='70')`) {
					t.Fatalf("read back: %s", def)
				}
				hand, want = "ALTER INDEX docs_tenant_idx SET (fillfactor = 40)", "expected (tenant) INCLUDE (title) WITH (fillfactor=70), found (tenant) INCLUDE (title) WITH (fillfactor=40)"
			} else {
				def = showCreateTable(t, db, "docs")
				if !strings.Contains(def, "KEY `docs_tenant_idx` (`tenant`) /*!80000 INVISIBLE */") {
					t.Fatalf("read back: %s", def)
				}
				hand, want = "ALTER TABLE docs ALTER INDEX docs_tenant_idx VISIBLE", "expected (tenant) INVISIBLE, found (tenant)"
			}
			exec(t, db, hand)
			r := f.check(t, db.URL)[0]
			if r.Status != drift.Drift {
				t.Fatalf("after %s: status %d %s", hand, r.Status, r.Error)
			}
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				var lines []string
				for _, fd := range c.Findings {
					lines = append(lines, fd.Describe())
				}
				if len(lines) != 1 || !strings.Contains(lines[0], "docs_tenant_idx") || !strings.Contains(lines[0], want) {
					t.Errorf("against %s: findings %q, want one of docs_tenant_idx with %q", c.Against, lines, want)
				}
				t.Log(lines)
			}
			// The hand change undone, the model changes.
			if d == "postgres" {
				exec(t, db, "ALTER INDEX docs_tenant_idx SET (fillfactor = 70)")
			} else {
				exec(t, db, "ALTER TABLE docs ALTER INDEX docs_tenant_idx INVISIBLE")
			}
			noDrift("undone")
			steps := []struct{ name, model, want string }{
				{"change", strings.Replace(strings.Replace(indexOptions, "fillfactor = 70", "fillfactor = 50", 1), "visible = false", "visible = true", 1),
					map[string]string{"postgres": `ALTER INDEX "docs_tenant_idx" SET (fillfactor = 50)`, "tidb": "ALTER TABLE `docs` ALTER INDEX `docs_tenant_idx` VISIBLE"}[d]},
				{"remove", strings.Replace(strings.Replace(indexOptions, "    storage = { fillfactor = 70 }\n", "", 1), "visible = false", "visible = true", 1),
					map[string]string{"postgres": `ALTER INDEX "docs_tenant_idx" RESET (fillfactor)`, "tidb": ""}[d]},
				{"again", indexOptions,
					map[string]string{"postgres": `ALTER INDEX "docs_tenant_idx" SET (fillfactor = 70)`, "tidb": "ALTER TABLE `docs` ALTER INDEX `docs_tenant_idx` INVISIBLE"}[d]},
				{"include", strings.Replace(indexOptions, `include = ["title"]`, `include = ["title", "id"]`, 1),
					map[string]string{"postgres": `CREATE INDEX CONCURRENTLY "docs_tenant_idx_new" ON "docs" ("tenant") INCLUDE ("title", "id") WITH (fillfactor = 70)`, "tidb": ""}[d]},
			}
			for _, s := range steps {
				p.Generate(s.model)
				stmts := strings.Join(p.Diff(s.name)[d], "\n")
				if s.want != "" && !strings.Contains(stmts, s.want) {
					t.Fatalf("%s: migrate diff planned\n%s\nwant %s", s.name, stmts, s.want)
				}
				t.Logf("%s: %s", s.name, stmts)
				p.Apply(d, db.URL)
				noDrift("after " + s.name)
			}
			if d == "postgres" {
				if def := scalar(t, db, "SELECT pg_get_indexdef('docs_tenant_idx'::regclass)"); !strings.Contains(def, `INCLUDE (title, id) WITH (fillfactor='70')`) {
					t.Fatalf("after the steps: %s", def)
				}
			} else if def := showCreateTable(t, db, "docs"); !strings.Contains(def, "INVISIBLE") {
				t.Fatalf("after the steps: %s", def)
			}
		})
	}
}

func scalar(t *testing.T, db *dbtest.DB, q string) string {
	t.Helper()
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

func showCreateTable(t *testing.T, db *dbtest.DB, table string) string {
	t.Helper()
	var name, s string
	if err := db.QueryRow("SHOW CREATE TABLE `"+table+"`").Scan(&name, &s); err != nil {
		t.Fatal(err)
	}
	return s
}
