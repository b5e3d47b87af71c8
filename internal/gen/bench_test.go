package gen_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/synth"
)

var sizes = []int{100, 1000, 10000}

// BenchmarkGenerate measures the whole pipeline to both dialects; compare it
// with BenchmarkParseHCL of the same sizes (the goal is within 2x).
func BenchmarkGenerate(b *testing.B) {
	for _, n := range sizes {
		src := synth.Model(n)
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				r := gen.CompileSource("bench.hcl", src)
				if r.Failed() {
					b.Fatal(describe(r.Diags))
				}
			}
		})
	}
}

// BenchmarkParseHCL is the baseline: HCL parsing alone of the same files.
func BenchmarkParseHCL(b *testing.B) {
	for _, n := range sizes {
		src := synth.Model(n)
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, diags := hclparse.NewParser().ParseHCL(src, "bench.hcl"); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
		})
	}
}

func TestSyntheticModelCompiles(t *testing.T) {
	r := gen.CompileSource("bench.hcl", synth.Model(3))
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	// The non-unique partial index becomes a full index on TiDB, with a warning.
	if n := len(r.Diags); n != 3 {
		t.Errorf("got %d warnings, want 3: %s", n, describe(r.Diags))
	}
}
