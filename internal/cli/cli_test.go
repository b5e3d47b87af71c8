package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/cli"
)

const model = `table "items" {
  column "id" {
    type = uuid
  }
  column "state" {
    type = varchar(16)
  }
  column "doc" {
    type = json
  }
  primary_key {
    columns = ["id"]
  }
  check "items_state_ck" {
    expr = "state IN ('new', 'done')"
  }
  index "items_open_idx" {
    columns = ["state"]
    where   = "state <> 'done'"
  }
}
`

type run struct {
	code           int
	stdout, stderr string
}

func schemagen(t *testing.T, dir string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	full := append([]string{"--schema", filepath.Join(dir, "schema.hcl")}, args...)
	for i, a := range full {
		if a == "OUT" {
			full[i] = filepath.Join(dir, "generated")
		}
	}
	code := cli.Run(full, &out, &errb)
	return run{code, out.String(), errb.String()}
}

func project(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGenerateAndCheck(t *testing.T) {
	dir := project(t, model)
	r := schemagen(t, dir, "generate", "--out", "OUT")
	if r.code != 0 {
		t.Fatalf("generate: exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "Partial index made full (tidb)") {
		t.Errorf("generate did not warn about the partial index:\n%s", r.stderr)
	}
	pg := read(t, filepath.Join(dir, "generated/postgres/schema.sql"))
	ti := read(t, filepath.Join(dir, "generated/tidb/schema.sql"))
	for _, want := range []string{"Do not edit", `CREATE TABLE "items"`, `"id" UUID NOT NULL`, `WHERE "state" <> 'done'`} {
		if !strings.Contains(pg, want) {
			t.Errorf("postgres output lacks %q:\n%s", want, pg)
		}
	}
	for _, want := range []string{"Do not edit", "CREATE TABLE `items`", "`id` CHAR(36) NOT NULL", "  INDEX `items_open_idx` (`state`)\n);"} {
		if !strings.Contains(ti, want) {
			t.Errorf("tidb output lacks %q:\n%s", want, ti)
		}
	}

	if r := schemagen(t, dir, "check", "--out", "OUT"); r.code != 0 {
		t.Fatalf("check after generate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// A hand edit makes generated/ stale: exit 1 with a unified diff.
	edited := strings.Replace(ti, "`id` CHAR(36)", "`id` VARCHAR(36)", 1)
	os.WriteFile(filepath.Join(dir, "generated/tidb/schema.sql"), []byte(edited), 0o644)
	r = schemagen(t, dir, "check", "--out", "OUT")
	if r.code != 1 {
		t.Fatalf("check of a stale file: exit %d, want 1", r.code)
	}
	for _, want := range []string{"--- " + filepath.Join(dir, "generated/tidb/schema.sql") + " (on disk)", "-  `id` VARCHAR(36) NOT NULL,", "+  `id` CHAR(36) NOT NULL,"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check diff lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "postgres") {
		t.Errorf("check reported the up-to-date postgres file:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "1 generated file(s) are stale") {
		t.Errorf("check stderr: %s", r.stderr)
	}

	// A missing file is stale too.
	os.Remove(filepath.Join(dir, "generated/postgres/schema.sql"))
	if r := schemagen(t, dir, "check", "--out", "OUT"); r.code != 1 || !strings.Contains(r.stdout, "is missing") {
		t.Errorf("check with a missing file: exit %d\n%s", r.code, r.stdout)
	}
}

func TestGenerateWritesNothingOnError(t *testing.T) {
	dir := project(t, model)
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	before := read(t, filepath.Join(dir, "generated/postgres/schema.sql"))
	bad := strings.Replace(model, `"state IN ('new', 'done')"`, `"stat IN ('new', 'done')"`, 1)
	bad = strings.Replace(bad, "type = varchar(16)\n", "type = varchar(16)\n    default = now()\n", 1)
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(bad), 0o644)
	r := schemagen(t, dir, "generate", "--out", "OUT")
	if r.code != 1 {
		t.Fatalf("generate of an invalid model: exit %d, want 1", r.code)
	}
	// Both errors, each with file, line and column and a snippet.
	lineOf := func(text string) string {
		i := strings.Index(bad, text)
		return "schema.hcl:" + strconv.Itoa(strings.Count(bad[:i], "\n")+1) + ":"
	}
	for _, want := range []string{lineOf("default = now()"), lineOf("stat IN"), `Unknown column "stat" in table "items"`, "this default does not fit it", "2 errors", "nothing was written"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if after := read(t, filepath.Join(dir, "generated/postgres/schema.sql")); after != before {
		t.Error("a failed generate changed generated/postgres/schema.sql")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "generated/postgres"))
	if len(entries) != 1 {
		t.Errorf("generated/postgres holds %d entries, want only schema.sql", len(entries))
	}
}

func TestGenerateIsAllOrNothing(t *testing.T) {
	dir := project(t, model)
	if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	before := read(t, filepath.Join(dir, "generated/postgres/schema.sql"))
	// The next model changes both files, but generated/tidb cannot be written.
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(strings.Replace(model, "varchar(16)", "varchar(20)", 1)), 0o644)
	os.RemoveAll(filepath.Join(dir, "generated/tidb"))
	os.WriteFile(filepath.Join(dir, "generated/tidb"), []byte("not a directory"), 0o644)
	r := schemagen(t, dir, "generate", "--out", "OUT")
	if r.code != 2 {
		t.Fatalf("generate into a broken directory: exit %d, want 2\n%s", r.code, r.stderr)
	}
	if after := read(t, filepath.Join(dir, "generated/postgres/schema.sql")); after != before {
		t.Error("generate replaced the postgres file although the tidb file could not be written")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "generated/postgres"))
	if len(entries) != 1 {
		t.Errorf("a temporary file was left behind: %v", entries)
	}
}

func TestFmt(t *testing.T) {
	messy := "table \"t\" {\ncolumn \"id\" {\n type=int\n}\n}\n"
	dir := project(t, messy)
	path := filepath.Join(dir, "schema.hcl")
	r := schemagen(t, dir, "fmt", "-check")
	if r.code != 1 || !strings.Contains(r.stdout, path) {
		t.Fatalf("fmt --check of a messy file: exit %d\n%s", r.code, r.stdout)
	}
	if read(t, path) != messy {
		t.Fatal("fmt --check changed the file")
	}
	if r := schemagen(t, dir, "fmt"); r.code != 0 {
		t.Fatalf("fmt: exit %d\n%s", r.code, r.stderr)
	}
	want := "table \"t\" {\n  column \"id\" {\n    type = int\n  }\n}\n"
	if got := read(t, path); got != want {
		t.Fatalf("fmt wrote:\n%s\nwant:\n%s", got, want)
	}
	if r := schemagen(t, dir, "fmt", "--check"); r.code != 0 {
		t.Fatalf("fmt --check of a formatted file: exit %d", r.code)
	}

	broken := "table \"t\" {\n  column \"id\" {\n"
	os.WriteFile(path, []byte(broken), 0o644)
	r = schemagen(t, dir, "fmt")
	if r.code != 1 || !strings.Contains(r.stderr, "schema.hcl:2:15: error: Unclosed configuration block") {
		t.Fatalf("fmt of a broken file: exit %d\n%s", r.code, r.stderr)
	}
	if read(t, path) != broken {
		t.Fatal("fmt changed a file with syntax errors")
	}
}

func TestExplain(t *testing.T) {
	dir := project(t, model)
	r := schemagen(t, dir, "explain")
	if r.code != 0 {
		t.Fatalf("explain: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"postgres:\n  table items\n    column doc: json as JSONB",
		"tidb:\n  table items\n    column id: uuid as CHAR(36)",
		"index items_open_idx: WHERE state <> 'done' dropped: TiDB has no partial indexes",
		"warning: TiDB has no partial indexes",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := schemagen(t, dir, "explain", "--dialect", "postgres", "items"); strings.Contains(r.stdout, "tidb") || r.code != 0 {
		t.Errorf("explain --dialect postgres: exit %d\n%s", r.code, r.stdout)
	}
	if r := schemagen(t, dir, "explain", "itme"); r.code != 1 || !strings.Contains(r.stderr, `no table "itme". Did you mean "items"?`) {
		t.Errorf("explain of an unknown table: exit %d\n%s", r.code, r.stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := project(t, model)
	for _, args := range [][]string{{"generate", "--bogus"}, {"check", "extra"}, {"explain", "a", "b"}, {"nope"}} {
		if r := schemagen(t, dir, args...); r.code != 2 {
			t.Errorf("schemagen %v: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
	r := schemagen(t, t.TempDir(), "generate")
	if r.code != 2 || !strings.Contains(r.stderr, "does not exist") {
		t.Errorf("generate without schema.hcl: exit %d\n%s", r.code, r.stderr)
	}
}
