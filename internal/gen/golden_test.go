package gen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/testproject"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGolden compiles every testdata/*.hcl and compares each dialect's output
// with testdata/NAME.DIALECT.sql. Run with -update to rewrite them, then
// review the diff.
func TestGolden(t *testing.T) {
	models, _ := filepath.Glob("testdata/*.hcl")
	if len(models) == 0 {
		t.Fatal("no golden models")
	}
	for _, model := range models {
		name := strings.TrimSuffix(filepath.Base(model), ".hcl")
		t.Run(name, func(t *testing.T) {
			r := gen.Compile(model)
			if r.Failed() {
				t.Fatalf("compile: %s", describe(r.Diags))
			}
			for _, d := range all.Names() {
				got := r.Outputs[d].SQL
				path := filepath.Join("testdata", name+"."+d+".sql")
				if *update {
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from the generated output (run go test -update and review the diff):\n%s", path, testproject.FirstDiff(string(want), string(got)))
				}
			}
		})
	}
}

// TestRepositorySchema keeps generated/ in step with the repository's own
// schema.hcl, as `schemagen check` does in CI.
func TestRepositorySchema(t *testing.T) {
	r := gen.Compile("../../schema.hcl")
	if r.Failed() {
		t.Fatalf("compile: %s", describe(r.Diags))
	}
	stale, err := r.Stale("../../generated")
	if err != nil {
		t.Fatal(err)
	}
	for path := range stale {
		t.Errorf("generated/%s is stale: run `go run ./cmd/schemagen generate`", path)
	}
}

func TestDeterministic(t *testing.T) {
	src, err := os.ReadFile("testdata/constructs.hcl")
	if err != nil {
		t.Fatal(err)
	}
	first := gen.CompileSource("constructs.hcl", src)
	for range 20 {
		again := gen.CompileSource("constructs.hcl", src)
		for d, out := range first.Outputs {
			if !bytes.Equal(out.SQL, again.Outputs[d].SQL) {
				t.Fatalf("%s output differs between runs", d)
			}
		}
	}
}
