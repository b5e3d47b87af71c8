package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/cli"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// workflowCommands returns the schemagen commands of the workflow in
// docs/ci.md, in order, with the pull request's base branch as base.
func workflowCommands(t *testing.T, base string) [][]string {
	t.Helper()
	doc := read(t, "../../docs/ci.md")
	_, rest, ok := strings.Cut(doc, "```yaml\n")
	if !ok {
		t.Fatal("docs/ci.md has no yaml block")
	}
	yaml, _, _ := strings.Cut(rest, "```")
	var cmds [][]string
	for _, line := range strings.Split(yaml, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimPrefix(line, "run: ")
		if !strings.HasPrefix(line, "schemagen ") {
			continue
		}
		line = strings.ReplaceAll(line, "${{ github.base_ref }}", base)
		cmds = append(cmds, shellWords(t, os.ExpandEnv(strings.TrimPrefix(line, "schemagen "))))
	}
	return cmds
}

// shellWords splits a command line on spaces, keeping double-quoted words.
func shellWords(t *testing.T, s string) []string {
	var (
		words []string
		cur   strings.Builder
		in    bool
		any   bool
	)
	for _, r := range s {
		switch {
		case r == '"':
			in, any = !in, true
		case r == ' ' && !in:
			if any {
				words = append(words, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if in {
		t.Fatalf("unclosed quote in %q", s)
	}
	if any {
		words = append(words, cur.String())
	}
	return words
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=ci", "-c", "user.email=ci@example.com"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestCIWorkflow runs the commands of docs/ci.md's workflow, in order, in a
// team's repository whose pull request changes the model with its
// migration, against real servers; then shows that the gate catches a
// forgotten migration and a forgotten generate.
func TestCIWorkflow(t *testing.T) {
	dir := project(t, model)
	repoConfig := read(t, "../../atlas.hcl")
	if err := os.WriteFile(filepath.Join(dir, "atlas.hcl"), []byte(repoConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("SCHEMAGEN_DEV_POSTGRES_URL", dbtest.ServerURL(t, "postgres"))
	t.Setenv("SCHEMAGEN_DEV_TIDB_URL", dbtest.ServerURL(t, "tidb"))
	t.Setenv("DATABASE_URL_POSTGRES", dbtest.Postgres(t).URL)
	t.Setenv("DATABASE_URL_TIDB", dbtest.TiDB(t).URL)
	cmds := workflowCommands(t, "main")
	t.Chdir(dir)
	sg := func(args ...string) run {
		t.Helper()
		var out, errb bytes.Buffer
		code := cli.Run(args, &out, &errb)
		t.Logf("schemagen %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
		return run{code, out.String(), errb.String()}
	}

	// The base branch: a model with its generated DDL and first migration.
	for _, args := range [][]string{{"generate"}, {"migrate", "diff", "init"}} {
		if r := sg(args...); r.code != 0 {
			t.Fatalf("%v: exit %d", args, r.code)
		}
	}
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "base")
	git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	// The pull request: a model change, generated, with its migration.
	git(t, dir, "checkout", "-q", "-b", "pr")
	editModel(t, dir, "  primary_key {", addNote)
	for _, args := range [][]string{{"generate"}, {"migrate", "diff", "add_note"}} {
		if r := sg(args...); r.code != 0 {
			t.Fatalf("%v: exit %d", args, r.code)
		}
	}
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-q", "-m", "add note")

	var names []string
	for _, c := range cmds {
		names = append(names, strings.Join(c[:min(2, len(c))], " "))
	}
	want := "check,migrate diff,migrate lint,migrate lint,migrate apply,migrate apply,drift --env,drift --env"
	if got := strings.Join(names, ","); got != want {
		t.Fatalf("docs/ci.md runs %s, want %s", got, want)
	}
	for _, c := range cmds {
		r := sg(c...)
		if r.code != 0 {
			t.Fatalf("the workflow fails at `schemagen %s`: exit %d", strings.Join(c, " "), r.code)
		}
		if c[0] == "migrate" && c[1] == "apply" && !strings.Contains(r.stdout+r.stderr, "_add_note.sql") {
			t.Errorf("apply did not run the pull request's file:\n%s%s", r.stdout, r.stderr)
		}
	}

	// A pull request that forgets its migration fails at the diff step; one
	// that forgets generate fails at the first.
	editModel(t, dir, "  primary_key {", "  column \"extra\" {\n    type = int\n    null = true\n  }\n  primary_key {")
	if r := sg(cmds[0]...); r.code != 1 {
		t.Errorf("check with a forgotten generate: exit %d, want 1", r.code)
	}
	if r := sg(cmds[1]...); r.code != 1 || !strings.Contains(r.stderr, "schemagen generate") {
		t.Errorf("migrate diff --check with a forgotten generate: exit %d, want 1 naming schemagen generate", r.code)
	}
	if r := sg("generate"); r.code != 0 {
		t.Fatal("generate")
	}
	if r := sg(cmds[0]...); r.code != 0 {
		t.Errorf("check after generate: exit %d", r.code)
	}
	if r := sg(cmds[1]...); r.code != 1 || !strings.Contains(r.stdout, "ADD COLUMN `extra`") {
		t.Errorf("migrate diff --check with a forgotten migration: exit %d, want 1 with the statement", r.code)
	}
}
