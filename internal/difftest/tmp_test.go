package difftest

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/gen"
)

func TestTmpCompile(t *testing.T) {
	ok := 0
	reasons := map[string]int{}
	for i := range uint64(300) {
		m, _ := Random(2000003+i, 5)
		r := gen.CompileSource("schema.hcl", []byte(m.HCL()))
		if !r.Failed() {
			ok++
			continue
		}
		for _, d := range r.Diags.Errs() {
			s := d.Error()
			if j := strings.Index(s, ": "); j >= 0 {
				s = s[j+2:]
			}
			if len(s) > 70 {
				s = s[:70]
			}
			reasons[s]++
		}
	}
	t.Logf("ok %d/300", ok)
	for k, v := range reasons {
		if v > 4 {
			t.Logf("%4d %s", v, k)
		}
	}
}
