package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestMigrateStatusUnpaired: status lists a version one dialect's directory
// has and the other's lacks, both ways, but not PostgreSQL's online file;
// the exit code is the database's.
func TestMigrateStatusUnpaired(t *testing.T) {
	t.Parallel()
	pg := dbtest.Postgres(t)
	dir := applyProject(t, "mysql://root@127.0.0.1:1/none")
	writeMigration(t, dir, "postgres", "20260101000003_pg_only.sql", "CREATE INDEX items_code ON items (code);\n")
	writeMigration(t, dir, "postgres", "20260101000004_pg_only_online.sql", "-- atlas:txmode none\n\nSELECT 1;\n")
	writeMigration(t, dir, "tidb", "20260101000005_tidb_only.sql", "SELECT 1;\n")
	if r := applyCLI(t, dir, "hash"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if r := applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL); r.code != 0 {
		t.Fatalf("apply: exit %d", r.code)
	}
	r := applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL)
	if r.code != 0 {
		t.Errorf("status: exit %d, want 0", r.code)
	}
	wantIn(t, "status", r.stdout, "Versions one dialect has and the other lacks:",
		"20260101000003  env postgres has 20260101000003_pg_only.sql; env tidb has no file of that version",
		"20260101000005  env tidb has 20260101000005_tidb_only.sql; env postgres has no file of that version")
	if strings.Contains(r.stdout, "20260101000004  env") {
		t.Errorf("the online file is listed as unpaired:\n%s", r.stdout)
	}
	r = applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL, "--format", "json")
	var st struct {
		Unpaired []struct{ Version, Has, Lacks string } `json:"unpaired"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || len(st.Unpaired) != 2 {
		t.Errorf("status json: %v %+v", err, st)
	}
}

// TestMigrateSetDownCheckpointCLI runs set, down and checkpoint through
// the command line on both envs at once.
func TestMigrateSetDownCheckpointCLI(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	dir := project(t, `table "items" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
`)
	cfg := fmt.Sprintf(`
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
`, dbtest.ServerURL(t, "postgres"), pg.URL, dbtest.ServerURL(t, "tidb"), ti.URL)
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatalf("generate: %s", r.stderr)
	}
	if r := applyCLI(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("diff: %s", r.stderr)
	}
	src := read(t, filepath.Join(dir, "schema.hcl"))
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(strings.Replace(src, "  primary_key", "  column \"note\" {\n    type = varchar(20)\n    null = true\n  }\n  primary_key", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatalf("generate: %s", r.stderr)
	}
	if r := applyCLI(t, dir, "diff", "note"); r.code != 0 {
		t.Fatalf("diff: %s", r.stderr)
	}
	if r := applyCLI(t, dir, "apply", "--all"); r.code != 0 {
		t.Fatalf("apply: %s", r.stderr)
	}
	for _, db := range []*dbtest.DB{pg, ti} {
		if _, err := db.Exec("INSERT INTO items (id, note) VALUES (1, 'kept?')"); err != nil {
			t.Fatal(err)
		}
	}

	r := applyCLI(t, dir, "down", "--all")
	if r.code != 1 {
		t.Errorf("down over data: exit %d, want 1", r.code)
	}
	wantIn(t, "down over data", r.stderr, "column items.note is dropped with the values of 1 row", "--allow-data-loss")
	r = applyCLI(t, dir, "down", "--all", "--dry-run", "--allow-data-loss")
	if r.code != 0 {
		t.Errorf("down --dry-run: exit %d", r.code)
	}
	wantIn(t, "down --dry-run", r.stdout, "dry run: nothing is changed", "DROP COLUMN", "env tidb: would revert 1 version")
	r = applyCLI(t, dir, "down", "1", "--all", "--allow-data-loss")
	if r.code != 0 {
		t.Fatalf("down: exit %d", r.code)
	}
	wantIn(t, "down", r.stdout, "env postgres: reverted 1 version", "env tidb: reverted 1 version")

	// The file is applied again, then the revision set back by hand.
	if r := applyCLI(t, dir, "apply", "--all"); r.code != 0 {
		t.Fatalf("apply after down: %s", r.stderr)
	}
	if r := applyCLI(t, dir, "set", "19990101000000", "--all"); r.code != 1 {
		t.Errorf("set to a missing version: exit %d, want 1", r.code)
	}
	if r := applyCLI(t, dir, "set", "--remove", "19990101000000", "--env", "tidb"); r.code != 1 {
		t.Errorf("removing a missing revision: exit %d, want 1", r.code)
	}

	// A checkpoint, then status: nothing pending, the checkpoint listed
	// in neither dialect as unpaired.
	r = applyCLI(t, dir, "checkpoint", "base")
	if r.code != 0 {
		t.Fatalf("checkpoint: exit %d", r.code)
	}
	wantIn(t, "checkpoint", r.stdout, "migrations/postgres/", "_base.sql", "migrations/tidb/")
	r = applyCLI(t, dir, "status", "--env", "tidb")
	if r.code != 0 || strings.Contains(r.stdout, "lacks") {
		t.Errorf("status after the checkpoint: exit %d\n%s", r.code, r.stdout)
	}
}

// TestMigrateRebaseCLI: two branches each add a migration; after the merge
// `migrate rebase` moves the branch's version after main's in both
// directories and says the merged directory is in step with the model.
func TestMigrateRebaseCLI(t *testing.T) {
	t.Parallel()
	dir := project(t, `table "items" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  #NEXT
}
`)
	cfg := fmt.Sprintf(`
env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = %q
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = %q
  migration {
    dir = "file://migrations/tidb"
  }
}
`, dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	src := read(t, filepath.Join(dir, "schema.hcl"))
	step := func(model, name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(model), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
			t.Fatalf("generate: %s", r.stderr)
		}
		if name != "" {
			if r := applyCLI(t, dir, "diff", name); r.code != 0 {
				t.Fatalf("diff %s: %s", name, r.stderr)
			}
			git("add", "-A")
			git("commit", "-q", "-m", name)
		}
	}
	col := func(name string) string {
		return "  column \"" + name + "\" {\n    type = int\n    null = true\n  }\n"
	}
	git("init", "-q", "-b", "main")
	step(src, "init")
	git("checkout", "-q", "-b", "feature")
	step(strings.Replace(src, "  #NEXT\n", col("a"), 1), "feature_a")
	git("checkout", "-q", "main")
	time.Sleep(1100 * time.Millisecond) // main's version is later
	step(strings.Replace(src, "  #NEXT\n", col("b"), 1), "main_b")
	git("checkout", "-q", "feature")
	git("checkout", "main", "--", "migrations")
	step(strings.Replace(src, "  #NEXT\n", col("a")+col("b"), 1), "")

	r := applyCLI(t, dir, "rebase")
	if r.code != 0 {
		t.Fatalf("rebase: exit %d", r.code)
	}
	wantIn(t, "rebase", r.stdout, "moved ", "_feature_a.sql", "postgres: the rebased directory is in step with the model", "tidb: the rebased directory is in step with the model")
	for _, d := range []string{"postgres", "tidb"} {
		entries, err := os.ReadDir(filepath.Join(dir, "migrations", d))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if len(names) != 4 || !strings.HasSuffix(names[1], "_main_b.sql") || !strings.HasSuffix(names[2], "_feature_a.sql") {
			t.Errorf("%s after the rebase: %v", d, names)
		}
	}
	if r := applyCLI(t, dir, "diff", "--check"); r.code != 0 {
		t.Errorf("diff --check after the rebase: exit %d", r.code)
	}
}
