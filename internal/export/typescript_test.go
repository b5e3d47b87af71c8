package export_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/export"
	"github.com/schemagen/schemagen/internal/gen"
)

// npm packages the TypeScript test installs, pinned.
const (
	typescriptPkg = "typescript@5.9.3"
	kyselyPkg     = "kysely@0.28.20"
)

// needNode skips the test without npm outside CI, and fails it under
// CI=true, where every test runs.
func needNode(t *testing.T) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("npm is not installed; CI needs it for the TypeScript export's test (Debian: apt-get install npm)")
		}
		t.Skip("npm is not installed: the TypeScript export is not type-checked (Debian: apt-get install npm)")
	}
	return npm
}

// TestTypeScriptKysely writes the TypeScript module of the repository's
// model and of the models that use every construct of the language,
// installs TypeScript and Kysely from npm, and type-checks under --strict
// the modules, those of the differential tester's first models, and typed
// Kysely queries over them (testdata/queries.ts);
// then an insert missing a required column and one that sets a generated
// column must not compile.
func TestTypeScriptKysely(t *testing.T) {
	npm := needNode(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--loglevel=error", typescriptPkg, kyselyPkg)
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		if os.Getenv("CI") != "true" {
			t.Skipf("npm install %s %s failed (no registry?): %v\n%s", typescriptPkg, kyselyPkg, err, out)
		}
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	modules := map[string]string{"schema.ts": "../../schema.hcl", "constructs.ts": "../gen/testdata/constructs.hcl", "everyday.ts": "../gen/testdata/everyday.hcl", "rest.ts": "testdata/rest.hcl"}
	for name, model := range modules {
		write(t, filepath.Join(dir, name), export.Render(compile(t, model), "typescript"))
	}
	// And the differential tester's models, for their names (quoted,
	// spaced, non-ASCII, keywords) and comments.
	checked := []string{"schema.ts", "constructs.ts", "everyday.ts", "rest.ts", "queries.ts"}
	for seed := uint64(1); seed <= 30; seed++ {
		m, _ := draw.Random(seed, 1)
		if rm := difftest.Repair(m); rm != nil {
			m = rm
		}
		r := gen.CompileSource("schema.hcl", []byte(m.HCL()))
		if r.Failed() {
			continue
		}
		name := fmt.Sprintf("drawn%d.ts", seed)
		write(t, filepath.Join(dir, name), export.Render(r, "typescript"))
		checked = append(checked, name)
	}
	if len(checked) < 5+10 {
		t.Fatalf("only %d of 30 drawn models compile", len(checked)-5)
	}
	for _, name := range []string{"queries.ts", "missing_column.ts", "generated_column.ts"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, name), b)
	}
	tsc := func(files ...string) (string, error) {
		args := append([]string{"--strict", "--noEmit", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck"}, files...)
		cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "tsc"), args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := tsc(checked...); err != nil {
		t.Fatalf("tsc --strict refuses the modules or the queries over them: %v\n%s", err, out)
	}
	out, err := tsc("missing_column.ts", "generated_column.ts")
	if err == nil {
		t.Fatal("tsc accepts an insert without a required column and one that sets a generated column")
	}
	for _, want := range []string{
		"missing_column.ts(9,",           // the values() call
		"Property 'uri' is missing",      // the required column
		"generated_column.ts(9,",         // the values() call
		"'total' does not exist in type", // the generated column
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tsc's errors lack %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "schema.ts") || strings.HasPrefix(line, "everyday.ts") {
			t.Errorf("tsc refuses the module itself: %s", line)
		}
	}
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
