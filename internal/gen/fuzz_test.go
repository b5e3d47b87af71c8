package gen_test

import (
	"os"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/gen"
)

// FuzzCompile feeds arbitrary text to the HCL loader and the whole pipeline:
// no input may panic, every error must carry a position or say why it has
// none, and a model without errors must render in every dialect.
func FuzzCompile(f *testing.F) {
	for _, path := range []string{"testdata/constructs.hcl", "../../schema.hcl"} {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	f.Add(table(`  check "c" {
    expr = "count >= 0 AND status ~ '^a'"
  }`))
	f.Add(`table "t" {
  column "id" {
    type = varchar(10)
    default = "x"
  }
  index "i" {
    on {
      expr = "lower(id)"
      desc = true
    }
    where = "id <> ''"
  }
}`)
	f.Fuzz(func(t *testing.T, src string) {
		r := gen.CompileSource("fuzz.hcl", []byte(src))
		if r.Failed() {
			for _, d := range r.Diags.Errs() {
				if d.Error() == "" {
					t.Fatalf("an error without a message")
				}
			}
			return
		}
		for _, d := range all.Names() {
			if r.Outputs[d] == nil {
				t.Fatalf("a model without errors has no %s output", d)
			}
		}
	})
}
