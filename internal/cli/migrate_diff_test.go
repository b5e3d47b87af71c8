package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// migrateProject is a project with atlas.hcl whose dev databases are the test
// servers, and a schema that generate has compiled.
func migrateProject(t *testing.T) string {
	t.Helper()
	dir := project(t, model)
	cfg := testproject.AtlasHCL(dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	// The user's cache must not decide these tests.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return dir
}

func migrate(t *testing.T, dir string, args ...string) run {
	t.Helper()
	return schemagen(t, dir, append([]string{"migrate", "--config", filepath.Join(dir, "atlas.hcl")}, args...)...)
}

func TestMigrateDiffHashNew(t *testing.T) {
	dir := migrateProject(t)
	r := migrate(t, dir, "diff", "init")
	if r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", r.code, r.stderr)
	}
	pg, _ := filepath.Glob(filepath.Join(dir, "migrations/postgres/*_init.sql"))
	ti, _ := filepath.Glob(filepath.Join(dir, "migrations/tidb/*_init.sql"))
	if len(pg) != 1 || len(ti) != 1 || filepath.Base(pg[0]) != filepath.Base(ti[0]) {
		t.Fatalf("init files: %v %v", pg, ti)
	}
	if !strings.Contains(r.stdout, "wrote "+pg[0]) || !strings.Contains(r.stdout, "wrote "+ti[0]) {
		t.Errorf("stdout: %s", r.stdout)
	}
	for _, f := range []string{"migrations/postgres/atlas.sum", "migrations/tidb/atlas.sum"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}

	r = migrate(t, dir, "diff", "again")
	if r.code != 0 || strings.Count(r.stdout, "no changes") != 2 || strings.Contains(r.stdout, "wrote") {
		t.Fatalf("a second diff: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The second run was answered from the cache; a replay agrees.
	if !strings.Contains(r.stdout, "known from an earlier run") {
		t.Errorf("the second diff did not use the cache:\n%s", r.stdout)
	}
	if r := migrate(t, dir, "diff", "again", "--no-cache"); r.code != 0 || strings.Count(r.stdout, "no changes") != 2 || strings.Contains(r.stdout, "known from") {
		t.Fatalf("a replayed second diff: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A hand edit is refused, naming the file, until migrate hash.
	f, _ := os.OpenFile(ti[0], os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("-- reviewed\n")
	f.Close()
	r = migrate(t, dir, "diff", "next")
	if r.code != 1 || !strings.Contains(r.stderr, filepath.Base(ti[0])+" was edited") || !strings.Contains(r.stderr, "schemagen migrate hash") {
		t.Fatalf("diff after a hand edit: exit %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "new", "backfill"); r.code != 1 {
		t.Fatalf("new after a hand edit: exit %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "hash"); r.code != 0 {
		t.Fatalf("hash: exit %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "diff", "next"); r.code != 0 || strings.Count(r.stdout, "no changes") != 2 {
		t.Fatalf("diff after hash: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// migrate new writes one empty file per dialect with one version.
	r = migrate(t, dir, "new", "backfill")
	if r.code != 0 {
		t.Fatalf("new: exit %d\n%s", r.code, r.stderr)
	}
	pgNew, _ := filepath.Glob(filepath.Join(dir, "migrations/postgres/*_backfill.sql"))
	tiNew, _ := filepath.Glob(filepath.Join(dir, "migrations/tidb/*_backfill.sql"))
	if len(pgNew) != 1 || len(tiNew) != 1 || filepath.Base(pgNew[0]) != filepath.Base(tiNew[0]) || filepath.Base(pgNew[0]) <= filepath.Base(pg[0]) {
		t.Fatalf("new files: %v %v after %v", pgNew, tiNew, pg)
	}
	if r := migrate(t, dir, "diff", "after_new"); r.code != 0 || strings.Contains(r.stdout, "wrote") {
		t.Fatalf("diff after new: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// Usage errors.
	for _, args := range [][]string{{"diff"}, {"diff", "bad name"}, {"diff", "x", "--env", "oracle"}} {
		if r := migrate(t, dir, args...); r.code != 2 {
			t.Errorf("migrate %v: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
}

func TestMigrateDiffOneEnv(t *testing.T) {
	dir := migrateProject(t)
	if r := migrate(t, dir, "diff", "init", "--env", "tidb"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if pg, _ := filepath.Glob(filepath.Join(dir, "migrations/postgres/*.sql")); len(pg) != 0 {
		t.Errorf("--env tidb wrote postgres files: %v", pg)
	}
	if ti, _ := filepath.Glob(filepath.Join(dir, "migrations/tidb/*.sql")); len(ti) != 1 {
		t.Errorf("--env tidb wrote %v", ti)
	}
}

// TestMigrateDiffRefusesChangedRaw: a raw statement (not a view) that a
// migration ran and the model then changed is a finding (exit 1) of
// migrate diff and of --check, naming the block, and nothing is written.
func TestMigrateDiffRefusesChangedRaw(t *testing.T) {
	dir := migrateProject(t)
	withSeq := func(start string) {
		src := model + "\nraw \"ticket_seq\" {\n  postgres = \"CREATE SEQUENCE ticket_seq START WITH " + start + "\"\n  tidb     = \"CREATE SEQUENCE ticket_seq START WITH " + start + "\"\n}\n"
		if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
			t.Fatal(r.stderr)
		}
	}
	withSeq("1")
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", r.code, r.stderr)
	}
	withSeq("5")
	before, _ := filepath.Glob(filepath.Join(dir, "migrations/*/*.sql"))
	for _, args := range [][]string{{"diff", "seq"}, {"diff", "--check"}} {
		r := migrate(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, `raw "ticket_seq" (postgres): its statement changed`) || !strings.Contains(r.stderr, `raw "ticket_seq" (tidb)`) {
			t.Errorf("migrate %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if after, _ := filepath.Glob(filepath.Join(dir, "migrations/*/*.sql")); len(after) != len(before) {
		t.Errorf("files written: %v, before %v", after, before)
	}
}
