package compiler_test

import (
	"os"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/internal/gen"
)

var opts = load.Options{Dialects: []string{"postgres", "tidb"}}

// TestWriteRoundTrip writes models back to HCL and loads them again: the
// second writing is the same text, and the models keep their objects.
func TestWriteRoundTrip(t *testing.T) {
	for _, path := range []string{"../schema.hcl", "../internal/gen/testdata/constructs.hcl"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, diags := load.Source(opts, path, src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		out := compiler.Write(s, nil)
		s2, diags := load.Source(opts, "written.hcl", out)
		if diags.HasErrors() {
			t.Fatalf("%s written back does not load: %v\n%s", path, diags, out)
		}
		before, after := gen.CompileSource(path, src), gen.CompileSource(path, out) // the same name: the header names the file
		for d, o := range before.Outputs {
			if after.Outputs[d] == nil || string(after.Outputs[d].SQL) != string(o.SQL) {
				t.Errorf("%s: the written model generates other %s DDL", path, d)
			}
		}
		if again := compiler.Write(s2, nil); string(again) != string(out) {
			t.Errorf("%s: writing is not stable", path)
		}
		if len(s2.Tables) != len(s.Tables) || len(s2.Raw) != len(s.Raw) {
			t.Errorf("%s: %d tables, %d raw written back as %d, %d", path, len(s.Tables), len(s.Raw), len(s2.Tables), len(s2.Raw))
		}
		for i, tb := range s.Tables {
			t2 := s2.Tables[i]
			if len(t2.Columns) != len(tb.Columns) || len(t2.Checks) != len(tb.Checks) || len(t2.Indexes) != len(tb.Indexes) || len(t2.ForeignKeys) != len(tb.ForeignKeys) || len(t2.Uniques) != len(tb.Uniques) {
				t.Errorf("%s: table %s lost objects", path, tb.Name)
			}
		}
	}
}
