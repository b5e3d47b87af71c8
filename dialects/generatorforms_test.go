package dialects_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// TestParseExprReadsGeneratorForms applies, as CHECKs on the real
// PostgreSQL, every test the differential tester's generator can draw on a
// column (with each literal, pattern and length it may take, alone and
// combined as it combines them), and as indexes its index expressions and
// its tests as partial index predicates, reads back what
// pg_get_constraintdef and pg_get_indexdef print, and checks that the one expression reader gives an expression
// meaning the model's (the same tree up to the rewrites the database makes,
// see normalize). The forms the compiler refuses are left out, as the
// generator's draws of them never reach a database.
func TestParseExprReadsGeneratorForms(t *testing.T) {
	m := draw.Forms()
	tb, parts := m.Tables[0], m.Tables[1]
	all0 := len(tb.Checks) + len(parts.Indexes)
	d := postgres.Dialect{}
	var s *compiler.Schema
	for {
		src := m.HCL()
		var diags hcl.Diagnostics
		s, diags = load.Source(load.Options{Dialects: all.Names()}, "forms.hcl", []byte(src))
		if !diags.HasErrors() {
			_, diags = d.Generate(s)
		}
		if !diags.HasErrors() {
			break
		}
		// Leave out the checks the compiler refuses, found by the line of
		// their error.
		line := map[int]string{} // the first line of each check and index block
		for i, l := range strings.Split(src, "\n") {
			for _, block := range []string{"  check \"", "  index \""} {
				if name, ok := strings.CutPrefix(l, block); ok {
					line[i+1] = strings.TrimSuffix(name, "\" {")
				}
			}
		}
		refused := map[string]bool{}
		for _, d := range diags {
			if d.Severity == hcl.DiagError && d.Subject != nil {
				for l := d.Subject.Start.Line; l > 0; l-- {
					if name, ok := line[l]; ok {
						refused[name] = true
						break
					}
				}
			}
		}
		if len(refused) == 0 {
			t.Fatalf("forms model: %v", diags)
		}
		tb.Checks = slices.DeleteFunc(tb.Checks, func(c difftest.Check) bool { return refused[c.Name] })
		parts.Indexes = slices.DeleteFunc(parts.Indexes, func(x difftest.Index) bool { return refused[x.Name] })
	}
	kept := len(tb.Checks) + len(parts.Indexes)
	t.Logf("%d of %d forms refused by the compiler", all0-kept, all0)
	if len(tb.Checks) < 1000 {
		t.Fatalf("only %d forms compile", len(tb.Checks))
	}
	model := modelExprs(s, d.Name())
	if len(model) != kept {
		t.Fatalf("%d expressions in the model, %d forms", len(model), kept)
	}
	rep := loadBack(t, d, s)
	readBack(t, d, model, rep, func(key string, m modelExpr) (expr.Node, string) {
		return m.node, render.String(m.node)
	})
	t.Logf("%d forms read back", len(model))
}
