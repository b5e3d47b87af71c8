package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// applyProject is a project whose atlas.hcl has a postgres env without a url
// and a tidb env whose url is tidbURL, each with a migration directory of two
// files hashed by `migrate hash`.
func applyProject(t *testing.T, tidbURL string) string {
	t.Helper()
	dir := project(t, model)
	cfg := fmt.Sprintf(`
env "postgres" {
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
`, tidbURL)
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"postgres", "tidb"} {
		writeMigration(t, dir, d, "20260101000001_items.sql", "CREATE TABLE items (id int PRIMARY KEY, code varchar(10) NOT NULL);\n")
		writeMigration(t, dir, d, "20260101000002_seed.sql", "INSERT INTO items VALUES (1, 'a');\nINSERT INTO items VALUES (2, 'a');\n")
	}
	if r := applyCLI(t, dir, "hash"); r.code != 0 {
		t.Fatalf("migrate hash: exit %d\n%s", r.code, r.stderr)
	}
	return dir
}

func writeMigration(t *testing.T, dir, dialect, name, content string) {
	t.Helper()
	path := filepath.Join(dir, "migrations", dialect, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func applyCLI(t *testing.T, dir string, args ...string) run {
	t.Helper()
	r := schemagen(t, dir, append([]string{"migrate", "--config", filepath.Join(dir, "atlas.hcl")}, args...)...)
	t.Logf("schemagen migrate %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	return r
}

func wantIn(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

func TestMigrateApplyAndStatus(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	dir := applyProject(t, ti.URL)

	// The postgres env has no url: --url is needed.
	r := applyCLI(t, dir, "apply", "--env", "postgres")
	if r.code != 2 {
		t.Fatalf("apply without a URL: exit %d, want 2", r.code)
	}
	wantIn(t, "stderr", r.stderr, "pass --url, or set url in env \"postgres\"")
	if r := applyCLI(t, dir, "apply", "--env", "postgres,tidb", "--url", pg.URL); r.code != 2 {
		t.Errorf("apply to two envs: exit %d, want 2", r.code)
	}

	r = applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL)
	if r.code != 1 {
		t.Errorf("status of a fresh database: exit %d, want 1", r.code)
	}
	wantIn(t, "status", r.stdout, "status:          PENDING", "current version: none", "pending files:   2",
		"20260101000001_items.sql  1 statement", "20260101000002_seed.sql   2 statements")

	r = applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL)
	if r.code != 0 {
		t.Fatalf("apply: exit %d", r.code)
	}
	wantIn(t, "apply", r.stdout, "applying 20260101000001_items.sql", "-> INSERT INTO items VALUES (2, 'a');",
		"env postgres: applied 2 files (3 statements); the database is at version 20260101000002 (was none)")
	r = applyCLI(t, dir, "apply", "--env", "postgres", "--url", pg.URL)
	if r.code != 0 {
		t.Fatalf("second apply: exit %d", r.code)
	}
	wantIn(t, "second apply", r.stdout, "env postgres: no pending files; the database is at version 20260101000002")

	r = applyCLI(t, dir, "status", "--env", "postgres", "--url", pg.URL, "--format", "json")
	if r.code != 0 {
		t.Fatalf("status --format json: exit %d", r.code)
	}
	var st struct {
		State   string `json:"state"`
		Current string `json:"current_version"`
		Applied []struct {
			Name    string `json:"name"`
			Applied int    `json:"applied_statements"`
		} `json:"applied"`
		Pending []any `json:"pending"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "up-to-date" || st.Current != "20260101000002" || len(st.Applied) != 2 || st.Applied[1].Applied != 2 || len(st.Pending) != 0 {
		t.Errorf("status --format json: %+v", st)
	}

	// The tidb env's url comes from atlas.hcl. A third file fails on the
	// duplicate codes after its first statement.
	writeMigration(t, dir, "tidb", "20260101000003_unique.sql", "CREATE TABLE audit (id int PRIMARY KEY);\n\nCREATE UNIQUE INDEX items_code_uq ON items (code);\n")
	if r := applyCLI(t, dir, "hash"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r = applyCLI(t, dir, "apply", "--env", "tidb")
	if r.code != 1 {
		t.Fatalf("failing apply: exit %d, want 1", r.code)
	}
	file := filepath.Join(dir, "migrations/tidb/20260101000003_unique.sql")
	wantIn(t, "stderr", r.stderr, file+":3: statement 2 of 2 failed", "Duplicate entry", "CREATE UNIQUE INDEX items_code_uq ON items (code);", "resumes at statement 2")
	wantIn(t, "stdout", r.stdout, "env tidb: 2 files (3 statements) applied before the failure; the database is at version 20260101000002")
	r = applyCLI(t, dir, "status", "--env", "tidb")
	if r.code != 1 {
		t.Errorf("status after a failure: exit %d, want 1", r.code)
	}
	wantIn(t, "status", r.stdout, "status:          FAILED", "current version: 20260101000002",
		"Failed:\n  20260101000003_unique.sql  1 of 2 statements applied", "error:     Error 1062",
		"statement: CREATE UNIQUE INDEX items_code_uq ON items (code);", "20260101000003_unique.sql  resumes at statement 2 of 2")

	// A hand edit is refused until migrate hash.
	writeMigration(t, dir, "tidb", "20260101000003_unique.sql", "CREATE TABLE audit (id int PRIMARY KEY);\n\nCREATE INDEX items_code_idx ON items (code);\n")
	r = applyCLI(t, dir, "apply", "--env", "tidb")
	if r.code != 1 {
		t.Fatalf("apply of an edited file: exit %d, want 1", r.code)
	}
	wantIn(t, "stderr", r.stderr, "20260101000003_unique.sql was edited", "schemagen migrate hash")
	if r := applyCLI(t, dir, "hash"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	r = applyCLI(t, dir, "apply", "--env", "tidb")
	if r.code != 0 {
		t.Fatalf("apply after the fix: exit %d", r.code)
	}
	wantIn(t, "apply after the fix", r.stdout, "resuming 20260101000003_unique.sql at statement 2", "CREATE INDEX items_code_idx",
		"applied 1 file (1 statement); the database is at version 20260101000003 (was 20260101000002)")
	if r := applyCLI(t, dir, "status", "--env", "tidb"); r.code != 0 {
		t.Errorf("status when up to date: exit %d, want 0", r.code)
	}
}

// TestMigrateApplyHidesPasswords: a database that cannot be reached is exit
// 2, and its password is never shown.
func TestMigrateApplyHidesPasswords(t *testing.T) {
	dir := applyProject(t, "mysql://root:t1dbpass@127.0.0.1:1/app")
	for _, args := range [][]string{
		{"apply", "--env", "postgres", "--url", "postgres://bob:s3cret@127.0.0.1:1/app?sslmode=disable"},
		{"status", "--env", "postgres", "--url", "postgres://bob:s3cret@127.0.0.1:1/app?sslmode=disable"},
		{"apply", "--env", "tidb"},
		{"status", "--env", "tidb", "--format", "json"},
	} {
		r := applyCLI(t, dir, args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2", args, r.code)
		}
		if out := r.stdout + r.stderr; strings.Contains(out, "s3cret") || strings.Contains(out, "t1dbpass") || !strings.Contains(out, "xxxxx@127.0.0.1:1") {
			t.Errorf("%v: output shows a password, or no redacted URL:\n%s", args, out)
		}
	}
}
