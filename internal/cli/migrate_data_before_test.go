package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// beforeProject is a project whose items.note is made NOT NULL by the
// migration of the version returned, generated and not applied; both
// databases applied init and hold a row whose note is NULL. extra is
// added to the model with the change.
func beforeProject(t *testing.T, extra string) (dir string, dbs map[string]*dbtest.DB, gen func(string) run, version, path string) {
	t.Helper()
	dir = project(t, beforeV1)
	dbs = map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
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
	gen = func(cmd string) run {
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
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(strings.Replace(beforeV1, "    null = true\n", "", 1)+extra), 0o644); err != nil {
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
	version, _, _ = strings.Cut(filepath.Base(paths[0]), "_")

	return dir, dbs, gen, version, paths[0]
}

// TestDataMigrationBefore: a migration that makes note NOT NULL fails on
// rows without one; migrate new --data --before places the fix just
// before it, checked against the envs' databases, and generate renders it
// into both directories; both databases then apply the fix and the
// migration. Placing one before a migration a database applied is refused.
func TestDataMigrationBefore(t *testing.T) {
	dir, dbs, gen, version, notePath := beforeProject(t, "")
	if r := migrate(t, dir, "new", "fill", "--data", "--before", "20990101000000"); r.code != 1 || !strings.Contains(r.stderr, "has no migration file of that version") {
		t.Errorf("--before a version no directory has: exit %d\n%s", r.code, r.stderr)
	}
	r := migrate(t, dir, "new", "fill_note", "--data", "--before", version)
	if r.code != 0 {
		t.Fatalf("migrate new fill_note --data --before %s: exit %d\n%s", version, r.code, r.stderr)
	}
	fixes, _ := filepath.Glob(filepath.Join(dir, "migrations", "portable", "*_fill_note.sql"))
	if len(fixes) != 1 || filepath.Base(fixes[0]) >= filepath.Base(notePath) {
		t.Fatalf("the fix %v does not come before %s", fixes, notePath)
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

// TestDataMigrationBeforeFailed: the migration that makes note NOT NULL
// was applied and failed on the NULL row, PostgreSQL rolled it back (its
// revision records the error, no statement applied) and TiDB kept its
// first statement (CREATE TABLE tags); migrate new --data --before its
// version places the fix before it, and the next apply runs the fix, then
// the migration (all of it on PostgreSQL, the rest on TiDB). Before, the
// fix was refused ("began"), and a file below a failed revision was out of
// order for Atlas.
func TestDataMigrationBeforeFailed(t *testing.T) {
	dir, dbs, gen, version, notePath := beforeProject(t, `
table "tags" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
`)
	// The migration as a team writes it by hand: one file in each
	// directory (PostgreSQL's online plan puts the VALIDATE and SET NOT
	// NULL in a second file, here appended to the first, in its
	// transaction), without the pre-checks that would refuse it before it
	// runs (migrate diff writes them). TiDB's creates tags first, so that
	// its failure leaves one statement applied (TiDB commits each DDL
	// statement).
	for _, env := range []string{"postgres", "tidb"} {
		files, _ := filepath.Glob(filepath.Join(dir, "migrations", env, "*_note_required*.sql"))
		var kept []string
		for _, f := range files {
			for _, line := range strings.Split(read(t, f), "\n") {
				if !strings.HasPrefix(strings.TrimSpace(line), "--") {
					kept = append(kept, line)
				}
			}
			if f != files[0] {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := os.WriteFile(files[0], []byte(strings.Join(kept, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tidbFile := filepath.Join(dir, "migrations", "tidb", filepath.Base(notePath))
	stmts := strings.SplitAfter(strings.TrimSpace(read(t, tidbFile)), ";\n")
	create := slices.IndexFunc(stmts, func(s string) bool { return strings.Contains(s, "CREATE TABLE") })
	if len(stmts) != 2 || create < 0 {
		t.Fatalf("%s: want CREATE TABLE tags and the ALTER of note:\n%q", tidbFile, stmts)
	}
	stmts[0], stmts[1] = stmts[create], stmts[1-create]
	if err := os.WriteFile(tidbFile, []byte(strings.TrimSuffix(stmts[0], "\n")+"\n"+strings.TrimSpace(stmts[1])+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := migrate(t, dir, "hash"); r.code != 0 {
		t.Fatalf("migrate hash: exit %d\n%s", r.code, r.stderr)
	}
	for env := range dbs {
		r := applyCLI(t, dir, "apply", "--env", env)
		if r.code != 1 {
			t.Fatalf("apply to %s: exit %d, want the failure of note_required", env, r.code)
		}
	}
	st := applyCLI(t, dir, "status", "--env", "tidb")
	wantIn(t, "tidb status", st.stdout+st.stderr, "1 of 2")
	r := migrate(t, dir, "new", "fill_note", "--data", "--before", version)
	if r.code != 0 {
		t.Fatalf("migrate new fill_note --data --before %s: exit %d\n%s", version, r.code, r.stderr)
	}
	wantIn(t, "stderr", r.stderr, `env "postgres"`, "failed on version "+version+" and kept none of it", `env "tidb"`, "applied 1 of the 2 statements of version "+version)
	fixes, _ := filepath.Glob(filepath.Join(dir, "migrations", "portable", "*_fill_note.sql"))
	if len(fixes) != 1 {
		t.Fatalf("fix: %v", fixes)
	}
	if err := os.WriteFile(fixes[0], []byte("UPDATE items SET note = concat('(', id, ')') WHERE note IS NULL;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatalf("generate: exit %d\n%s", r.code, r.stderr)
	}
	for env, db := range dbs {
		if r := applyCLI(t, dir, "status", "--env", env); r.code == 2 || strings.Contains(r.stderr, "out of order") || strings.Contains(r.stderr, "non-linear") {
			t.Errorf("status of %s: exit %d\n%s", env, r.code, r.stderr)
		}
		r := applyCLI(t, dir, "apply", "--env", env)
		if r.code != 0 {
			t.Fatalf("apply to %s after the fix: exit %d\n%s", env, r.code, r.stderr)
		}
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM items WHERE note = '(2)'").Scan(&n); err != nil || n != 1 {
			t.Errorf("%s: the fix filled %d rows (%v)", env, n, err)
		}
		if _, err := db.Exec("INSERT INTO items (id, note) VALUES (3, NULL)"); err == nil {
			t.Errorf("%s: note is not NOT NULL after the apply", env)
		}
		if _, err := db.Exec("INSERT INTO tags (id) VALUES (1)"); err != nil {
			t.Errorf("%s: tags: %v", env, err)
		}
		st := applyCLI(t, dir, "status", "--env", env)
		if st.code != 0 || !strings.Contains(st.stdout, "UP TO DATE") {
			t.Errorf("%s: not up to date after the apply: exit %d\n%s%s", env, st.code, st.stdout, st.stderr)
		}
	}
}
