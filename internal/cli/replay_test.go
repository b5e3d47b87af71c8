package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/cli"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestUnreplayableFile: a PostgreSQL migration that a database with rows
// applied, but that a clean dev database cannot run (a guard that needs
// rows), makes migrate diff and migrate lint name the file, the statement
// and the database's error, and say how to repair it; migrate status shows
// the file applied on the database. Fixed and rehashed, the directory
// plans again.
func TestUnreplayableFile(t *testing.T) {
	t.Parallel()
	const model = `
table "items" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
`
	p := testproject.New(t, model)
	p.Diff("init")
	pg := p.Target("postgres")
	db := dbtest.Postgres(t)
	p.Apply("postgres", db.URL)
	if _, err := db.Exec(`INSERT INTO items VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	guard := filepath.Join(pg.Env.Dir, "20260201000000_guard.sql")
	if err := os.WriteFile(guard, []byte("-- Stop when the seed rows are missing.\nDO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM items) THEN RAISE EXCEPTION 'items has no seed rows'; END IF; END $$;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rehash := func() {
		d, err := migration.OpenDir(pg.Env.Dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := migration.Hash(d); err != nil {
			t.Fatal(err)
		}
	}
	rehash()
	p.Apply("postgres", db.URL) // the database has rows: the guard passes

	p.Generate(strings.Replace(model, "  primary_key", "  column \"name\" {\n    type = text\n    null = true\n  }\n  primary_key", 1))
	want := []string{
		guard + ": statement 1 failed: ERROR: items has no seed rows",
		"RAISE EXCEPTION 'items has no seed rows'",
		"schemagen migrate hash",
		"migrate status --env postgres",
		"remove it",
	}
	check := func(what string, r run) {
		t.Helper()
		if r.code != cli.ExitFindings {
			t.Errorf("%s: exit %d, want 1\n%s%s", what, r.code, r.stdout, r.stderr)
		}
		for _, w := range want {
			if !strings.Contains(r.stdout+r.stderr, w) {
				t.Errorf("%s does not say %q:\n%s%s", what, w, r.stdout, r.stderr)
			}
		}
	}
	r := schemagen(t, p.Dir, "migrate", "diff", "--config", p.Config, "--no-cache", "add_name")
	check("migrate diff", r)
	t.Logf("migrate diff:\n%s%s", r.stdout, r.stderr)
	// A file after the guard: the guard is replayed, not linted.
	later := filepath.Join(pg.Env.Dir, "20260202000000_later.sql")
	os.WriteFile(later, []byte(`ALTER TABLE "items" ADD COLUMN "note" text NULL;`+"\n"), 0o644)
	rehash()
	check("migrate lint", schemagen(t, p.Dir, "migrate", "lint", "--config", p.Config, "--env", "postgres"))
	os.Remove(later)
	rehash()

	r = schemagen(t, p.Dir, "migrate", "status", "--config", p.Config, "--env", "postgres", "--url", db.URL)
	if !strings.Contains(r.stdout, "20260201000000_guard.sql") || !strings.Contains(r.stdout, "applied files:   2") {
		t.Errorf("status does not show the guard applied:\n%s%s", r.stdout, r.stderr)
	}

	// Repaired (the guard lets an empty database through) and rehashed:
	// the directory plans again.
	os.WriteFile(guard, []byte("-- Stop when the seed rows are missing (an empty database has none to keep).\nDO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM items) AND EXISTS (SELECT 1 FROM pg_stat_user_tables WHERE relname = 'items' AND n_live_tup > 0) THEN RAISE EXCEPTION 'items has no seed rows'; END IF; END $$;\n"), 0o644)
	rehash()
	if r := schemagen(t, p.Dir, "migrate", "diff", "--config", p.Config, "--no-cache", "add_name"); r.code != 0 || !strings.Contains(r.stdout, "wrote ") {
		t.Errorf("migrate diff after the repair: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
