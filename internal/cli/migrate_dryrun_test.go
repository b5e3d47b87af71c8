package cli_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

func countRows(t *testing.T, db *sql.DB, q string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// migrate apply on both envs in one run: --dry-run changes nothing (on
// fresh databases and on ones with pending files) and shows the pre-checks'
// findings; --quiet prints a line per env; a refused apply exits 1 on both
// dialects, PostgreSQL's error keeps its DETAIL.
func TestMigrateApplyDryRunEnvsQuiet(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	dir := project(t, model)
	cfg := fmt.Sprintf(`
env "postgres" {
  url = %q
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  url = %q
  migration {
    dir = "file://migrations/tidb"
  }
}
`, pg.URL, ti.URL)
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"postgres", "tidb"} {
		writeMigration(t, dir, d, "20260101000001_items.sql", "CREATE TABLE items (id int PRIMARY KEY, code varchar(10) NOT NULL);\n")
		writeMigration(t, dir, d, "20260101000002_seed.sql", "INSERT INTO items VALUES (1, 'a');\nINSERT INTO items VALUES (2, 'a');\n")
	}
	if r := applyCLI(t, dir, "hash"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	pgTables := "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
	tiTables := "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
	pgSchemas := "SELECT COUNT(*) FROM pg_namespace WHERE nspname = 'atlas_schema_revisions'"

	// A dry run on fresh databases creates not even the revisions table.
	r := applyCLI(t, dir, "apply", "--all", "--dry-run")
	if r.code != 0 {
		t.Fatalf("dry run: exit %d", r.code)
	}
	wantIn(t, "dry run", r.stdout, "env postgres: dry run: would apply 2 files (3 statements); the database is at version none and would be at 20260101000002; nothing was changed",
		"env tidb: dry run: would apply 2 files", "would apply 20260101000002_seed.sql", "-> INSERT INTO items VALUES (2, 'a')")
	if n := countRows(t, pg.DB, pgTables) + countRows(t, pg.DB, pgSchemas) + countRows(t, ti.DB, tiTables); n != 0 {
		t.Fatalf("the dry run made %d tables or schemas", n)
	}

	// Both envs in one run, quietly.
	r = applyCLI(t, dir, "apply", "--env", "postgres", "--env", "tidb", "--quiet")
	if r.code != 0 {
		t.Fatalf("apply --quiet: exit %d", r.code)
	}
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); len(lines) != 2 || strings.Contains(r.stdout, "->") {
		t.Errorf("--quiet printed:\n%s", r.stdout)
	}
	wantIn(t, "apply --quiet", r.stdout, "env postgres: applied 2 files (3 statements)", "env tidb: applied 2 files (3 statements)")

	// A pending unique key that existing rows break: TiDB's pre-check finds
	// them, in a dry run and in the apply, which both exit 1.
	writeMigration(t, dir, "postgres", "20260101000003_unique.sql", "ALTER TABLE items ADD CONSTRAINT items_code_key UNIQUE (code);\n")
	writeMigration(t, dir, "tidb", "20260101000003_unique.sql",
		"-- schemagen:precheck duplicates for unique key items_code_key: SELECT `code`, COUNT(*) AS `rows` FROM `items` GROUP BY `code` HAVING COUNT(*) > 1 LIMIT 10\n"+
			"ALTER TABLE items ADD UNIQUE INDEX items_code_key (code);\n")
	if r := applyCLI(t, dir, "hash"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	revs := func() int {
		return countRows(t, pg.DB, "SELECT COUNT(*) FROM atlas_schema_revisions.atlas_schema_revisions") +
			countRows(t, ti.DB, "SELECT COUNT(*) FROM atlas_schema_revisions")
	}
	before := revs()
	r = applyCLI(t, dir, "apply", "--all", "--dry-run")
	if r.code != 1 {
		t.Errorf("dry run with a refused file: exit %d, want 1", r.code)
	}
	wantIn(t, "dry run", r.stdout, "env postgres: dry run: would apply 1 file (1 statement); the database is at version 20260101000002 and would be at 20260101000003",
		"pre-check: duplicates for unique key items_code_key: code=a, rows=2")
	wantIn(t, "dry run", r.stderr, "migrate apply would refuse 1 file")
	if after := revs(); after != before {
		t.Errorf("the dry run wrote revisions: %d, then %d", before, after)
	}
	if n := countRows(t, ti.DB, "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name = 'items_code_key'"); n != 0 {
		t.Error("the dry run made the TiDB index")
	}

	r = applyCLI(t, dir, "apply", "--env", "tidb")
	if r.code != 1 {
		t.Errorf("TiDB apply refused by its pre-check: exit %d, want 1", r.code)
	}
	wantIn(t, "TiDB apply", r.stderr, "not applied, existing rows would make it fail", "code=a, rows=2")
	r = applyCLI(t, dir, "apply", "--all")
	if r.code != 1 {
		t.Errorf("PostgreSQL apply of a failing unique key: exit %d, want 1", r.code)
	}
	wantIn(t, "PostgreSQL apply", r.stderr, "DETAIL: Key (code)=(a) is duplicated.", "env postgres failed; not applied: tidb")
	if strings.Count(r.stderr, "is duplicated") != 1 {
		t.Errorf("the error is printed more than once:\n%s", r.stderr)
	}

	// Usage.
	for _, args := range [][]string{{"apply"}, {"apply", "--all", "--env", "tidb"}, {"apply", "--all", "--url", pg.URL}} {
		if r := applyCLI(t, dir, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2", args, r.code)
		}
	}
}
