package draw_test

import (
	"fmt"
	"testing"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// TestSeedsRepeat: a seed draws the same model, statements and data
// migrations every time (a printed seed reproduces a failure), and
// different seeds draw different models.
func TestSeedsRepeat(t *testing.T) {
	seen := map[string]bool{}
	accepted := 0
	for seed := uint64(1); seed <= 20; seed++ {
		m, stmts := draw.Random(seed, 20)
		m2, stmts2 := draw.Random(seed, 20)
		if m.HCL() != m2.HCL() || fmt.Sprintf("%#v", stmts) != fmt.Sprintf("%#v", stmts2) {
			t.Fatalf("seed %d drew two different models or statement lists", seed)
		}
		seen[m.HCL()] = true
		if !difftest.Accepted(m) {
			m = difftest.Repair(m)
		}
		if m != nil && difftest.Accepted(m) {
			accepted++
			a, b := draw.DataMigrations(seed, m, 3), draw.DataMigrations(seed, m, 3)
			if fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 3 {
				t.Fatalf("seed %d drew two different data migrations", seed)
			}
		}
	}
	if len(seen) < 20 {
		t.Errorf("20 seeds drew only %d different models", len(seen))
	}
	if accepted < 10 {
		t.Errorf("the compiler accepts only %d of 20 drawn models, repaired", accepted)
	}
}
