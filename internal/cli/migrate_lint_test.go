package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/cli"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/migration"
)

// lintProject writes an atlas.hcl whose postgres env's dev database is the
// test server, with two migration files: a table, then a dropped column.
func lintProject(t *testing.T) (config, drop string) {
	t.Helper()
	dir := t.TempDir()
	config = filepath.Join(dir, "atlas.hcl")
	cfg := fmt.Sprintf(`env "postgres" {
  dev = %q
  migration {
    dir = "file://migrations/postgres"
  }
}
`, dbtest.ServerURL(t, "postgres"))
	if err := os.WriteFile(config, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	migs := filepath.Join(dir, "migrations", "postgres")
	os.MkdirAll(migs, 0o755)
	os.WriteFile(filepath.Join(migs, "20260101000000_init.sql"),
		[]byte(`CREATE TABLE "items" ("id" integer NOT NULL, "note" text NULL, PRIMARY KEY ("id"));`+"\n"), 0o644)
	drop = filepath.Join(migs, "20260102000000_drop_note.sql")
	os.WriteFile(drop, []byte(`-- Drop the note.
ALTER TABLE "items" DROP COLUMN "note";
`), 0o644)
	d, err := migration.OpenDir(migs, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := migration.Hash(d); err != nil {
		t.Fatal(err)
	}
	return config, drop
}

func runLint(t *testing.T, config string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(append([]string{"migrate", "lint", "--config", config}, args...), &out, &errb)
	return run{code, out.String(), errb.String()}
}

func TestMigrateLintDropColumn(t *testing.T) {
	config, drop := lintProject(t)

	r := runLint(t, config)
	if r.code != cli.ExitFindings {
		t.Fatalf("lint of a dropped column: exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantLine := drop + `:2: DS103 [error] Dropping non-virtual column "note"`
	if !strings.Contains(r.stdout, wantLine) || !strings.Contains(r.stdout, "1 file linted: 1 error, 0 warnings, 0 suppressed") {
		t.Errorf("stdout lacks %q:\n%s", wantLine, r.stdout)
	}

	// Every format is well formed.
	r = runLint(t, config, "--format", "json")
	var j lint.JSON
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || r.code != 1 {
		t.Fatalf("json: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	if len(j.Findings) != 1 || j.Findings[0].Code != "DS103" || j.Findings[0].Line != 2 || j.Summary.Errors != 1 {
		t.Errorf("json: %+v", j)
	}
	r = runLint(t, config, "--format", "sarif")
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sarif); err != nil || r.code != 1 || sarif.Version != "2.1.0" ||
		len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 || sarif.Runs[0].Results[0].RuleID != "DS103" || sarif.Runs[0].Results[0].Level != "error" {
		t.Errorf("sarif: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	r = runLint(t, config, "--format", "github")
	if r.code != 1 || !strings.HasPrefix(r.stdout, "::error file="+filepath.ToSlash(drop)+",line=2,col=1,title=DS103::Dropping non-virtual column \"note\"\n") {
		t.Errorf("github: exit %d\n%s", r.code, r.stdout)
	}

	// A reviewed exception: the nolint comment, then `migrate hash`.
	os.WriteFile(drop, []byte(`-- Drop the note.
-- schemagen:nolint DS103 nothing has read the note since v2
ALTER TABLE "items" DROP COLUMN "note";
`), 0o644)
	r = runLint(t, config)
	if r.code != 1 || !strings.Contains(r.stderr, "atlas.sum") || !strings.Contains(r.stderr, "was edited") {
		t.Fatalf("lint of an edited file before hash: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"migrate", "hash", "--config", config}, &out, &errb); code != 0 {
		t.Fatalf("migrate hash: exit %d\n%s", code, errb.String())
	}
	r = runLint(t, config)
	if r.code != cli.ExitOK {
		t.Fatalf("lint with nolint: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantLine = drop + `:3: DS103 [suppressed: nothing has read the note since v2] Dropping non-virtual column "note"`
	if !strings.Contains(r.stdout, wantLine) || !strings.Contains(r.stdout, "0 errors, 0 warnings, 1 suppressed") {
		t.Errorf("stdout lacks %q:\n%s", wantLine, r.stdout)
	}
	r = runLint(t, config, "--format", "github")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "::notice file=") {
		t.Errorf("github, suppressed: exit %d\n%s", r.code, r.stdout)
	}

	// Both files: the first one only creates.
	r = runLint(t, config, "--latest", "2", "--format", "json")
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || r.code != 0 || len(j.Files) != 2 || j.Summary.Suppressed != 1 {
		t.Errorf("--latest 2: exit %d, %v\n%s", r.code, err, r.stdout)
	}
}

func TestMigrateLintUsage(t *testing.T) {
	config := filepath.Join(t.TempDir(), "atlas.hcl")
	os.WriteFile(config, []byte(`env "postgres" {
  migration {
    dir = "file://migrations/postgres"
  }
}
`), 0o644)
	for _, args := range [][]string{
		{"--git-base", "main", "--latest", "2"},
		{"--latest", "0"},
		{"--format", "xml"},
		{"extra"},
		{"--env", "nope"},
	} {
		if r := runLint(t, config, args...); r.code != cli.ExitError {
			t.Errorf("lint %v: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
	var out, errb bytes.Buffer
	if code := cli.Run([]string{"migrate", "lint", "--help"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "Exit codes:") || !strings.Contains(out.String(), "schemagen:nolint") {
		t.Errorf("help: exit %d\n%s", code, out.String())
	}
}
