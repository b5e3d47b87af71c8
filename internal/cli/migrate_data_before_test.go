package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
)

const beforeV1 = `table "items" {
  column "id" {
    type = int
  }
  column "note" {
    type = varchar(16)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDataMigrationBefore: a migration that makes note NOT NULL fails on
// rows without one; migrate new --data --before places the fix just
// before it, checked against the envs' databases, and generate renders it
// into both directories; both databases then apply the fix and the
// migration. Placing one before a migration a database applied is refused.
func TestDataMigrationBefore(t *testing.T) {
	dir := project(t, beforeV1)
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	config := filepath.Join(dir, "atlas.hcl")
	hcl := fmt.Sprintf(`
env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = %q
  url = %q
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = %q
  url = %q
  migration {
    dir = "file://migrations/tidb"
  }
}
`, dbtest.ServerURL(t, "postgres"), dbs["postgres"].URL, dbtest.ServerURL(t, "tidb"), dbs["tidb"].URL)
	if err := os.WriteFile(config, []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	gen := func(cmd string) run {
		return schemagen(t, dir, cmd, "--out", "OUT", "--erd", filepath.Join(dir, "erd.md"), "--config", config, "--color", "never")
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", r.code, r.stderr)
	}
	for env, db := range dbs {
		if r := applyCLI(t, dir, "apply", "--env", env); r.code != 0 {
			t.Fatalf("apply init to %s: exit %d\n%s", env, r.code, r.stderr)
		}
		if _, err := db.Exec("INSERT INTO items (id, note) VALUES (1, 'a'), (2, NULL)"); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(strings.Replace(beforeV1, "    null = true\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	// The fix takes the second before note_required's version, which must
	// be free: note_required is written two seconds or more after init.
	inits, _ := filepath.Glob(filepath.Join(dir, "migrations", "postgres", "*_init.sql"))
	if len(inits) != 1 {
		t.Fatalf("init: %v", inits)
	}
	initVersion, _, _ := strings.Cut(filepath.Base(inits[0]), "_")
	initAt, err := time.ParseInLocation("20060102150405", initVersion, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(initAt.Add(2 * time.Second)))
	if r := migrate(t, dir, "diff", "note_required"); r.code != 0 {
		t.Fatalf("migrate diff note_required: exit %d\n%s", r.code, r.stderr)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "migrations", "postgres", "*_note_required.sql"))
	if len(paths) != 1 {
		t.Fatalf("note_required: %v", paths)
	}
	version, _, _ := strings.Cut(filepath.Base(paths[0]), "_")

	if r := migrate(t, dir, "new", "fill", "--data", "--before", "20990101000000"); r.code != 1 || !strings.Contains(r.stderr, "has no migration file of that version") {
		t.Errorf("--before a version no directory has: exit %d\n%s", r.code, r.stderr)
	}
	r := migrate(t, dir, "new", "fill_note", "--data", "--before", version)
	if r.code != 0 {
		t.Fatalf("migrate new fill_note --data --before %s: exit %d\n%s", version, r.code, r.stderr)
	}
	fixes, _ := filepath.Glob(filepath.Join(dir, "migrations", "portable", "*_fill_note.sql"))
	if len(fixes) != 1 || filepath.Base(fixes[0]) >= filepath.Base(paths[0]) {
		t.Fatalf("the fix %v does not come before %s", fixes, paths[0])
	}
	if err := os.WriteFile(fixes[0], []byte("UPDATE items SET note = concat('(', id, ')') WHERE note IS NULL;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatalf("generate: exit %d\n%s", r.code, r.stderr)
	}
	if r := gen("check"); r.code != 0 {
		t.Fatalf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for env, db := range dbs {
		if _, err := os.Stat(filepath.Join(dir, "migrations", env, filepath.Base(fixes[0]))); err != nil {
			t.Errorf("%s: the fix is not rendered: %v", env, err)
		}
		if r := applyCLI(t, dir, "apply", "--env", env); r.code != 0 {
			t.Fatalf("apply to %s: exit %d\n%s", env, r.code, r.stderr)
		}
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM items WHERE note = '(2)'").Scan(&n); err != nil || n != 1 {
			t.Errorf("%s: the fix filled %d rows (%v)", env, n, err)
		}
	}
	// Both databases applied note_required now.
	r = migrate(t, dir, "new", "late", "--data", "--before", version)
	if r.code != 1 {
		t.Fatalf("--before an applied version: exit %d, want 1\n%s", r.code, r.stderr)
	}
	wantIn(t, "stderr", r.stderr, `the database of env "postgres"`, `the database of env "tidb"`, "applied version "+version)
}
