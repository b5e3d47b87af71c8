package cli_test

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/cli"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// runIn runs schemagen in dir as a user would there: no --schema, no --config.
func runIn(t *testing.T, dir string, args ...string) run {
	t.Helper()
	t.Chdir(dir)
	var out, errb strings.Builder
	code := cli.Run(args, &out, &errb)
	return run{code, out.String(), errb.String()}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		if info.IsDir() {
			files[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[rel] = string(b) + info.ModTime().String()
		return nil
	})
	return files
}

// In an empty directory: init, generate and migrate diff init work with the
// dev URLs set in the variables atlas.hcl names; init again changes nothing
// and says why.
func TestInitGenerateDiff(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SCHEMAGEN_DEV_POSTGRES_URL", dbtest.ServerURL(t, "postgres"))
	t.Setenv("SCHEMAGEN_DEV_TIDB_URL", dbtest.ServerURL(t, "tidb"))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	r := runIn(t, dir, "init")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantIn(t, "init", r.stdout, "wrote atlas.hcl", "wrote schema.hcl", "made migrations/postgres/", "made generated/tidb/", "schemagen migrate diff init")
	if _, err := os.Stat(filepath.Join(dir, ".github")); err == nil {
		t.Error("init without --ci wrote a workflow")
	}
	cfg, diags := atlasconf.Load(filepath.Join(dir, "atlas.hcl"), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := strings.Join(cfg.Names(), ","); got != "postgres,tidb" {
		t.Fatalf("envs %s", got)
	}
	hcl := read(t, filepath.Join(dir, "atlas.hcl"))
	for _, v := range []string{"SCHEMAGEN_DEV_POSTGRES_URL", "SCHEMAGEN_DEV_TIDB_URL", "DATABASE_URL_POSTGRES", "DATABASE_URL_TIDB"} {
		if !strings.Contains(hcl, `getenv("`+v+`")`) {
			t.Errorf("atlas.hcl does not read %s", v)
		}
	}
	if cfg.Env("tidb").Dev != os.Getenv("SCHEMAGEN_DEV_TIDB_URL") {
		t.Errorf("the tidb env's dev URL is %q", cfg.Env("tidb").Dev)
	}
	wantIn(t, ".gitignore", read(t, filepath.Join(dir, ".gitignore")), "\n.env\n")

	if r := runIn(t, dir, "generate"); r.code != 0 {
		t.Fatalf("generate: exit %d\n%s", r.code, r.stderr)
	}
	if r := runIn(t, dir, "check"); r.code != 0 {
		t.Fatalf("check: exit %d\n%s", r.code, r.stderr)
	}
	r = runIn(t, dir, "migrate", "diff", "init")
	if r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, d := range []string{"postgres", "tidb"} {
		m, _ := filepath.Glob(filepath.Join(dir, "migrations", d, "*_init.sql"))
		if len(m) != 1 || !strings.Contains(read(t, m[0]), "accounts") {
			t.Errorf("%s: %v", d, m)
		}
	}
	if strings.Contains(r.stderr, "embedded") {
		t.Errorf("migrate diff did not use the dev URLs:\n%s", r.stderr)
	}

	before := snapshot(t, dir)
	r = runIn(t, dir, "init")
	if r.code != 0 {
		t.Fatalf("init again: exit %d\n%s", r.code, r.stderr)
	}
	wantIn(t, "init again", r.stdout, "kept atlas.hcl: it exists (init never overwrites a file)", "kept schema.hcl", "Nothing changed")
	if strings.Contains(r.stdout, "wrote") {
		t.Errorf("init again wrote:\n%s", r.stdout)
	}
	after := snapshot(t, dir)
	if len(before) != len(after) {
		t.Errorf("init again changed the files: %d before, %d after", len(before), len(after))
	}
	for p, c := range before {
		if after[p] != c {
			t.Errorf("init again changed %s", p)
		}
	}
}

// An existing project keeps its files; only what is missing is added, and
// --ci github writes docs/ci.md's workflow.
func TestInitExistingDirectoryAndCI(t *testing.T) {
	dir := t.TempDir()
	mine := "# my own schema\n"
	os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(mine), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("/bin"), 0o644)
	r := runIn(t, dir, "init", "--ci", "github")
	if r.code != 0 {
		t.Fatalf("init: exit %d\n%s", r.code, r.stderr)
	}
	wantIn(t, "init", r.stdout, "kept schema.hcl: it exists", "wrote atlas.hcl", "wrote .github/workflows/schema.yml", "added 2 lines to .gitignore")
	if got := read(t, filepath.Join(dir, "schema.hcl")); got != mine {
		t.Errorf("schema.hcl overwritten:\n%s", got)
	}
	if got := read(t, filepath.Join(dir, ".gitignore")); !strings.HasPrefix(got, "/bin\n# schemagen") || !strings.HasSuffix(got, "\n.env\n") {
		t.Errorf(".gitignore:\n%s", got)
	}
}

// The workflow init writes is docs/ci.md's, which ci_test runs.
func TestInitWorkflowIsTheDocumentedOne(t *testing.T) {
	doc := read(t, "../../docs/ci.md")
	_, rest, _ := strings.Cut(doc, "```yaml\n")
	yaml, _, _ := strings.Cut(rest, "```")
	dir := t.TempDir()
	if r := runIn(t, dir, "init", "--ci", "github"); r.code != 0 {
		t.Fatal(r.stderr)
	}
	if got := read(t, filepath.Join(dir, ".github/workflows/schema.yml")); got != yaml {
		t.Errorf("the workflow init writes differs from docs/ci.md's; copy docs/ci.md's yaml block to internal/cli/initfiles/schema.yml")
	}
	if r := runIn(t, dir, "init", "--ci", "gitlab"); r.code != 2 || !strings.Contains(r.stderr, "valid values are") {
		t.Errorf("--ci gitlab: exit %d %s", r.code, r.stderr)
	}
}

func TestVersion(t *testing.T) {
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"go install at a pseudo-version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261130225121-b6192c80893f"}},
			"schemagen v0.0.0-20261130225121-b6192c80893f (commit b6192c80893f) go1.26.8"},
		{"go install at a tag", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			"schemagen v1.4.0 (commit unknown) go1.26.8"},
		{"a checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "b6192c80893fdd5a903a2969e241296ba2905b7d"}, {Key: "vcs.time", Value: "2026-11-30T22:51:21Z"}, {Key: "vcs.modified", Value: "true"}}},
			"schemagen (devel) (commit b6192c80893f, modified, 2026-11-30T22:51:21Z) go1.26.8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			restore := cli.SetBuildInfo(func() (*debug.BuildInfo, bool) { return tc.info, true })
			defer restore()
			for _, args := range [][]string{{"--version"}, {"version"}} {
				var out, errb strings.Builder
				if code := cli.Run(args, &out, &errb); code != 0 || out.String() != tc.want+"\n" {
					t.Errorf("%v: exit %d %q %s, want %q", args, code, out.String(), errb.String(), tc.want)
				}
			}
		})
	}
	// The test binary's own build info is real.
	var out, errb strings.Builder
	if code := cli.Run([]string{"--version"}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "schemagen ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("--version: %d %q", code, out.String())
	}
}
