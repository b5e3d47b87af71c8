package migration_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

const tidbPrecheckInit = "CREATE TABLE `items` (`id` bigint NOT NULL, `slug` varchar(64) NULL, `n` int NOT NULL, PRIMARY KEY (`id`));\n"

const tidbPrecheckModel = "CREATE TABLE `items` (`id` bigint NOT NULL, `slug` varchar(64) NULL, `n` int NOT NULL, `note` text NULL, PRIMARY KEY (`id`),\n" +
	"  UNIQUE INDEX `items_slug_key` (`slug`), CONSTRAINT `items_n_ck` CHECK (`n` > 0));\n"

// TestTiDBPrecheck: a TiDB migration adding a column, a unique key and a
// CHECK, on rows holding a duplicate and a row breaking the CHECK. TiDB
// commits each statement, so without pre-checks the column would be added
// and the file would stop half-way; the apply runs the pre-checks written
// above the statements first, applies nothing and names the rows. Once they
// are fixed, it applies the file.
func TestTiDBPrecheck(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "migrations")
	os.MkdirAll(dir, 0o755)
	testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000001_init.sql", SQL: tidbPrecheckInit})
	src := filepath.Join(root, "generated", "tidb", "schema.sql")
	os.MkdirAll(filepath.Dir(src), 0o755)
	if err := os.WriteFile(src, []byte(tidbPrecheckModel), 0o644); err != nil {
		t.Fatal(err)
	}
	tg := migration.Target{Env: &atlasconf.Env{Name: "tidb", Dir: dir, Src: src, Dev: dbtest.ServerURL(t, "tidb")}, Dialect: all.Get("tidb")}
	p := planOnce(t, tg)
	if p.Online != nil {
		t.Fatalf("TiDB plans one file, got an online one: %v", cmds(p.Online))
	}
	written, err := migration.Write([]*migration.Planned{p}, "change", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	file, _ := os.ReadFile(written[0])
	for _, want := range []string{
		"-- schemagen:precheck duplicates for unique key items_slug_key: SELECT `slug`, COUNT(*) AS `rows` FROM `items` WHERE `slug` IS NOT NULL GROUP BY `slug` HAVING COUNT(*) > 1 LIMIT 10\n",
		"-- schemagen:precheck rows breaking CHECK items_n_ck: SELECT * FROM `items` WHERE NOT (",
		"-- hazard TD102 items: can fail on existing rows",
		"-- hazard TD101 items: scans the table; online: reads and writes go on",
		"-- hazard TD104 items",
	} {
		if !strings.Contains(string(file), want) {
			t.Errorf("the file lacks %q:\n%s", want, file)
		}
	}
	for _, c := range cmds(p.Plan) {
		if strings.Count(c, ", ADD ")+strings.Count(c, ", DROP ")+strings.Count(c, ", MODIFY ") > 0 {
			t.Errorf("more than one change in %s", c)
		}
	}

	db := dbtest.TiDB(t)
	if _, err := db.Exec(tidbPrecheckInit); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO items VALUES (1, 'a', 1), (2, 'dup', 1), (3, 'dup', 1), (4, 'b', 0)"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opts := deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001", LockTimeout: 10 * time.Minute}
	_, err = deploy.Apply(ctx, tg, opts)
	var pe *deploy.PrecheckError
	if !errors.As(err, &pe) {
		t.Fatalf("want a PrecheckError, got %v", err)
	}
	msg := pe.Error()
	if !strings.Contains(msg, "duplicates for unique key items_slug_key: slug=dup, rows=2") || !strings.Contains(msg, "rows breaking CHECK items_n_ck: id=4, slug=b, n=0") {
		t.Errorf("the pre-check error does not name the rows:\n%s", msg)
	}
	var cols int
	if err := db.QueryRow("SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'items' AND column_name = 'note'").Scan(&cols); err != nil || cols != 0 {
		t.Errorf("a statement ran before the pre-checks failed: note columns %d (%v)", cols, err)
	}
	if _, err := db.Exec("UPDATE items SET slug = 'c' WHERE id = 3"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE items SET n = 1 WHERE id = 4"); err != nil {
		t.Fatal(err)
	}
	opts.Baseline = ""
	if _, err := deploy.Apply(ctx, tg, opts); err != nil {
		t.Fatalf("after fixing the rows: %v", err)
	}

	// The Atlas library's executor applies the file unchanged (it reads the
	// pre-checks as comments).
	db2 := dbtest.TiDB(t)
	if _, err := db2.Exec(tidbPrecheckInit); err != nil {
		t.Fatal(err)
	}
	if _, err := db2.Exec("INSERT INTO items VALUES (1, 'a', 1), (2, 'b', 1)"); err != nil {
		t.Fatal(err)
	}
	atlasExecute(t, tg, db2.DB)
	var n int
	if err := db2.QueryRow("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name = 'items_slug_key'").Scan(&n); err != nil || n != 1 {
		t.Errorf("after migrate.Executor: items_slug_key %d (%v)", n, err)
	}
}

// TestOnlineDiffBothDialects: the default (online) plans of a change adding
// an index, a unique key, a CHECK, a foreign key and a NOT NULL, on both
// dialects: PostgreSQL gets a second file marked txmode none, TiDB one file
// of one change per statement; applied on both databases holding rows, and
// the directories then replay to the model.
func TestOnlineDiffBothDialects(t *testing.T) {
	p := testproject.New(t, baseModel)
	p.Diff("init")
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	p.Apply("postgres", pg.URL)
	p.Apply("tidb", ti.URL)
	for _, db := range []*dbtest.DB{pg, ti} {
		q := func(s string) string {
			if db == ti {
				return strings.ReplaceAll(s, `"`, "`")
			}
			return s
		}
		for _, s := range []string{
			`INSERT INTO "spaces" ("id", "tenant_id", "kind") VALUES ('00000000-0000-0000-0000-000000000001', 't', 'a')`,
			`INSERT INTO "docs" ("id", "space_id", "title", "body") VALUES ('00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001', 'x', 'b')`,
		} {
			if _, err := db.Exec(q(s)); err != nil {
				t.Fatal(err)
			}
		}
	}
	model := edit(baseModel, `  column "slug" {
    type = varchar(64)
    null = true
  }
  index "docs_title_idx" {
    columns = ["title"]
  }
  unique "docs_slug_key" {
    columns = ["slug"]
  }
  check "docs_title_ck" {
    expr = "char_length(title) > 0"
  }
  foreign_key "docs_space_fk" {
    columns     = ["space_id"]
    ref_table   = "spaces"
    ref_columns = ["id"]
  }
`)
	model = strings.Replace(model, "  column \"body\" {\n    type = text\n    null = true\n  }\n", "  column \"body\" {\n    type = text\n  }\n", 1)
	p.Generate(model)
	got := p.Diff("online")
	pgAll := strings.Join(got["postgres"], ";\n")
	for _, want := range []string{"CREATE INDEX CONCURRENTLY", "NOT VALID", "VALIDATE CONSTRAINT", `SET NOT NULL`} {
		if !strings.Contains(pgAll, want) {
			t.Errorf("the PostgreSQL online plan lacks %s:\n%s", want, pgAll)
		}
	}
	for _, c := range got["tidb"] {
		if strings.Count(c, ", ADD ")+strings.Count(c, ", DROP ")+strings.Count(c, ", MODIFY ") > 0 {
			t.Errorf("more than one change in %s", c)
		}
	}
	if pf, tf := files(t, p, "postgres"), files(t, p, "tidb"); len(pf) != 3 || len(tf) != 2 {
		t.Errorf("files: postgres %v, tidb %v", names(pf), names(tf))
	}
	p.Apply("postgres", pg.URL)
	p.Apply("tidb", ti.URL)
	if again := p.Diff("again"); len(again) != 0 {
		t.Errorf("after the online migration, diff plans: %v", again)
	}
}
