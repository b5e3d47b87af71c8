package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

const versionedV1 = `table "items" {
  column "id" {
    type = int
  }
  column "state" {
    type = varchar(16)
  }
  column "legacy" {
    type = varchar(16)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// versionedV2 drops legacy and adds note.
const versionedV2 = `table "items" {
  column "id" {
    type = int
  }
  column "state" {
    type = varchar(16)
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

// TestDataMigrationAtItsVersion: a portable data migration is checked
// against the schema that the migration files before it create, not
// against schema.hcl as it is now. A column that a later migration drops
// is there for it (and the rendered file applies, before the drop); one
// that a later migration adds is refused at its file, line and column.
func TestDataMigrationAtItsVersion(t *testing.T) {
	dir := project(t, versionedV1)
	config := filepath.Join(dir, "atlas.hcl")
	if err := os.WriteFile(config, []byte(testproject.AtlasHCL(dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))), 0o644); err != nil {
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
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for env, db := range dbs {
		if r := applyCLI(t, dir, "apply", "--env", env, "--url", db.URL); r.code != 0 {
			t.Fatalf("apply init to %s: exit %d\n%s", env, r.code, r.stderr)
		}
		if _, err := db.Exec("INSERT INTO items (id, state, legacy) VALUES (1, 'open', 'old'), (2, 'open', NULL)"); err != nil {
			t.Fatal(err)
		}
	}
	newData := func(name, body string) string {
		r := migrate(t, dir, "new", name, "--data")
		paths, _ := filepath.Glob(filepath.Join(dir, "migrations", "portable", "*_"+name+".sql"))
		if r.code != 0 || len(paths) != 1 {
			t.Fatalf("migrate new %s --data: exit %d, %v\n%s", name, r.code, paths, r.stderr)
		}
		if err := os.WriteFile(paths[0], []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return paths[0]
	}
	// Both are older than the migration that drops legacy and adds note,
	// which schema.hcl already describes.
	backfill := newData("close_legacy", "UPDATE items SET state = 'closed' WHERE legacy = 'old';\n")
	early := newData("fill_note", "-- written before note exists\nUPDATE items SET note = 'x';\n")
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(versionedV2), 0o644); err != nil {
		t.Fatal(err)
	}

	r := gen("generate")
	if r.code != 1 {
		t.Fatalf("generate with a data migration older than its column: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantIn(t, "stderr", r.stderr, early+":2:18: error: Invalid data migration", `Unknown column "note" in table "items".`, "before version "+strings.SplitN(filepath.Base(early), "_", 2)[0])
	if n := strings.Count(r.stderr, "error:"); n != 1 || strings.Contains(r.stderr, filepath.Base(backfill)+":") {
		t.Errorf("want one error, for %s alone (legacy is there at the version of %s):\n%s", early, backfill, r.stderr)
	}
	for _, d := range []string{"postgres", "tidb"} {
		if _, err := os.Stat(filepath.Join(dir, "migrations", d, filepath.Base(backfill))); !os.IsNotExist(err) {
			t.Errorf("a failed generate wrote %s's rendering for %s", backfill, d)
		}
		if b := read(t, filepath.Join(dir, "generated", d, "schema.sql")); !strings.Contains(b, "legacy") {
			t.Errorf("a failed generate rewrote generated/%s", d)
		}
	}

	if err := os.Remove(early); err != nil {
		t.Fatal(err)
	}
	if r := gen("generate"); r.code != 0 {
		t.Fatalf("generate: exit %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "diff", "v2"); r.code != 0 {
		t.Fatalf("migrate diff v2: exit %d\n%s", r.code, r.stderr)
	}
	if r := gen("check"); r.code != 0 {
		t.Fatalf("check after generate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for env, db := range dbs {
		if r := applyCLI(t, dir, "apply", "--env", env, "--url", db.URL); r.code != 0 {
			t.Fatalf("apply to %s: exit %d\n%s", env, r.code, r.stderr)
		}
		var closed, open int
		if err := db.QueryRow("SELECT COUNT(CASE WHEN state = 'closed' AND id = 1 THEN 1 END), COUNT(CASE WHEN state = 'open' AND id = 2 THEN 1 END) FROM items").Scan(&closed, &open); err != nil {
			t.Fatal(err)
		}
		if closed != 1 || open != 1 {
			t.Errorf("%s: the backfill over legacy closed %d of row 1 and left %d of row 2 open, want 1 and 1", env, closed, open)
		}
		if _, err := db.Exec("SELECT legacy FROM items"); err == nil {
			t.Errorf("%s: legacy is still there after v2", env)
		}
	}
}
