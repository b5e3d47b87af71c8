package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// migrationFiles lists the .sql files of a project's migration directories.
func migrationFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "migrations", "*", "*.sql"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func editModel(t *testing.T, dir, old, new string) {
	t.Helper()
	path := filepath.Join(dir, "schema.hcl")
	m := read(t, path)
	if !strings.Contains(m, old) {
		t.Fatalf("schema.hcl has no %q", old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(m, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

const addNote = "  column \"note\" {\n    type = varchar(40)\n    null = true\n  }\n  primary_key {"

func TestMigrateDiffCheck(t *testing.T) {
	dir := migrateProject(t)

	// No migration yet: the whole schema is missing; nothing is written.
	r := migrate(t, dir, "diff", "--check")
	if r.code != 1 || !strings.Contains(r.stdout, `CREATE TABLE "items"`) || !strings.Contains(r.stdout, "CREATE TABLE `items`") || !strings.Contains(r.stderr, "schemagen migrate diff NAME") {
		t.Fatalf("--check before init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if f := migrationFiles(t, dir); len(f) != 0 {
		t.Fatalf("--check wrote %v", f)
	}
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("diff init: exit %d\n%s", r.code, r.stderr)
	}
	written := migrationFiles(t, dir)
	if r := migrate(t, dir, "diff", "--check"); r.code != 0 || strings.Count(r.stdout, "no changes") != 2 {
		t.Fatalf("--check after init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A model change without its migration: exit 1 with the statements of
	// each dialect, nothing written, and the cache does not hide it.
	editModel(t, dir, "  primary_key {", addNote)
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	for range 2 {
		r = migrate(t, dir, "diff", "--check")
		if r.code != 1 {
			t.Fatalf("--check with a forgotten migration: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		wantIn(t, "--check output", r.stdout,
			`postgres: `, `ALTER TABLE "items" ADD COLUMN "note" character varying(40) NULL;`,
			"tidb: ", "ALTER TABLE `items` ADD COLUMN `note` varchar(40) NULL COLLATE utf8mb4_0900_bin;")
	}
	if f := migrationFiles(t, dir); len(f) != len(written) {
		t.Fatalf("--check wrote files: %v, had %v", f, written)
	}
	// With a name it still writes nothing.
	if r := migrate(t, dir, "diff", "add_note", "--check"); r.code != 1 || len(migrationFiles(t, dir)) != len(written) {
		t.Fatalf("--check NAME: exit %d, files %v", r.code, migrationFiles(t, dir))
	}
	if r := migrate(t, dir, "diff", "add_note"); r.code != 0 {
		t.Fatalf("diff add_note: exit %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "diff", "--check"); r.code != 0 {
		t.Fatalf("--check after add_note: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// Usage and internal errors: exit 2.
	for _, args := range [][]string{{"diff", "--check", "--env", "oracle"}, {"diff", "--check", "bad name"}, {"diff", "a", "b", "--check"}} {
		if r := migrate(t, dir, args...); r.code != 2 {
			t.Errorf("migrate %v: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
	unreachable := strings.ReplaceAll(read(t, filepath.Join(dir, "atlas.hcl")), dbtest.ServerURL(t, "postgres"), "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable")
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(unreachable), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := migrate(t, dir, "diff", "--check", "--no-cache", "--env", "postgres"); r.code != 2 {
		t.Errorf("--check with an unreachable dev database: exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestStaleGeneratedRefused: an edited model whose DDL was not generated
// is never taken for "no changes".
func TestStaleGeneratedRefused(t *testing.T) {
	dir := migrateProject(t)
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("diff init: exit %d\n%s", r.code, r.stderr)
	}
	written := migrationFiles(t, dir)
	editModel(t, dir, "  primary_key {", addNote)
	for _, args := range [][]string{{"diff", "add_note"}, {"diff", "--check"}, {"diff", "add_note", "--env", "tidb"}} {
		r := migrate(t, dir, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "`schemagen generate`") || strings.Contains(r.stdout, "no changes") {
			t.Errorf("migrate %v with a stale generated/: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	if f := migrationFiles(t, dir); len(f) != len(written) {
		t.Fatalf("a stale generated/ was planned from: %v", f)
	}
	r := schemagen(t, dir, "drift", "--config", filepath.Join(dir, "atlas.hcl"), "--env", "postgres", "--url", dbtest.Postgres(t).URL)
	if r.code != 1 || !strings.Contains(r.stderr, "`schemagen generate`") {
		t.Errorf("drift with a stale generated/: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A missing generated file is refused the same way.
	if err := os.Remove(filepath.Join(dir, "generated", "tidb", "schema.sql")); err != nil {
		t.Fatal(err)
	}
	if r := migrate(t, dir, "diff", "x", "--env", "tidb"); r.code != 1 || !strings.Contains(r.stderr, "is missing") {
		t.Errorf("diff without generated/tidb: exit %d\n%s", r.code, r.stderr)
	}
}

// TestTiDBDataMigrationWithBackslashEscapes: a TiDB data migration that
// TiDB reads with backslash escapes applies, and every command that reads
// the directory afterwards splits it the same way.
func TestTiDBDataMigrationWithBackslashEscapes(t *testing.T) {
	dir := migrateProject(t)
	ti := dbtest.TiDB(t)
	if r := migrate(t, dir, "diff", "init", "--env", "tidb"); r.code != 0 {
		t.Fatalf("diff init: exit %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "new", "note", "--env", "tidb"); r.code != 0 {
		t.Fatalf("new: exit %d\n%s", r.code, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "migrations", "tidb", "*_note.sql"))
	if len(files) != 1 {
		t.Fatalf("new wrote %v", files)
	}
	data := "SET @note = 'it\\'s; fine';\n" +
		"INSERT INTO items (id, state, doc) VALUES ('7d0b1a48-3c1e-4f0e-9a59-0b4f3c2d1e10', 'new', JSON_OBJECT('note', @note, 'raw', 'a\\'b; c'));\n"
	if err := os.WriteFile(files[0], []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := migrate(t, dir, "hash", "--env", "tidb"); r.code != 0 {
		t.Fatalf("hash: exit %d\n%s", r.code, r.stderr)
	}
	if r := migrate(t, dir, "apply", "--env", "tidb", "--url", ti.URL); r.code != 0 {
		t.Fatalf("apply: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var note string
	if err := ti.QueryRow("SELECT JSON_UNQUOTE(JSON_EXTRACT(doc, '$.note')) FROM items").Scan(&note); err != nil || note != "it's; fine" {
		t.Fatalf("the data migration stored %q (%v)", note, err)
	}
	if r := migrate(t, dir, "status", "--env", "tidb", "--url", ti.URL); r.code != 0 || !strings.Contains(r.stdout, "UP TO DATE") {
		t.Errorf("status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := migrate(t, dir, "diff", "next", "--env", "tidb", "--no-cache"); r.code != 0 || !strings.Contains(r.stdout, "no changes") {
		t.Errorf("diff after the data migration: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := migrate(t, dir, "diff", "--check", "--env", "tidb", "--no-cache"); r.code != 0 {
		t.Errorf("diff --check after the data migration: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := schemagen(t, dir, "drift", "--config", filepath.Join(dir, "atlas.hcl"), "--env", "tidb", "--url", ti.URL, "--no-cache")
	if r.code != 0 || !strings.Contains(r.stdout, "no drift") {
		t.Errorf("drift after the data migration: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
