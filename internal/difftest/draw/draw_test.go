package draw_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/difftest/draw/datadraw"
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
			a, b := datadraw.DataMigrations(seed, m, 3), datadraw.DataMigrations(seed, m, 3)
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

// TestDrawsImportedSides: seeds draw a column nullable in one dialect's
// block, which no statement sets to NULL or leaves out, and a primary key
// with a name of its own (issue 31's constructs import writes).
func TestDrawsImportedSides(t *testing.T) {
	nulls, names := 0, 0
	for seed := uint64(1); seed <= 200; seed++ {
		m, stmts := draw.Random(seed, 30)
		for _, tb := range m.Tables {
			if tb.PKName != "" {
				names++
			}
			for _, c := range tb.Cols {
				if !strings.Contains(c.Override, "null = true") {
					continue
				}
				nulls++
				for _, s := range stmts {
					if s.Table != tb.Name || s.Kind == "delete" {
						continue
					}
					i := slices.Index(s.Cols, c.Name)
					if i < 0 && s.Kind == "insert" || i >= 0 && s.Vals[i].Null {
						t.Errorf("seed %d: %s.%s, nullable on one dialect only, is left NULL by %+v", seed, tb.Name, c.Name, s)
					}
				}
			}
		}
	}
	if nulls == 0 || names == 0 {
		t.Errorf("200 seeds drew %d per-dialect nulls and %d primary key names", nulls, names)
	}
}
