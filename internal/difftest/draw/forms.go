package draw

import (
	"fmt"
	"slices"

	"github.com/schemagen/schemagen/internal/difftest"
)

// Forms returns a model of the expressions the generator draws, over a
// column of every type it draws. Table "forms" has, as its CHECKs, every
// test the generator draws on a column (atom, refused ones aside) with each
// literal, pattern and length the test may take, alone and combined as
// boolExpr combines them; table "parts" an index over every expression the
// generator indexes, and a partial index for each test (with one literal).
// The compiler may still refuse some (a literal outside a type's range), as
// it refuses those draws.
func Forms() *difftest.Model {
	t := &difftest.Table{Name: "forms"}
	parts := &difftest.Table{Name: "parts"}
	var types []difftest.Type
	for _, ty := range append(slices.Clone(columnTypes), keyTypes...) {
		if !slices.ContainsFunc(types, func(x difftest.Type) bool { return x.String() == ty.String() }) {
			types = append(types, ty)
		}
	}
	seen := map[string]bool{}
	add := func(e string) {
		if !seen[e] {
			seen[e] = true
			t.Checks = append(t.Checks, difftest.Check{Name: fmt.Sprintf("ck%d", len(t.Checks)), Expr: e})
		}
	}
	index := func(idx difftest.Index) {
		idx.Name = fmt.Sprintf("ix%d", len(parts.Indexes))
		parts.Indexes = append(parts.Indexes, idx)
	}
	for i, ty := range types {
		c := &difftest.Col{Name: fmt.Sprintf("c%d", i), Type: ty, Null: true}
		t.Cols = append(t.Cols, c)
		n := difftest.QuoteIdent(c.Name)
		forms := []string{n + " IS NULL", n + " IS NOT NULL"}
		var fits []difftest.Value
		for _, v := range difftest.Edges(ty) {
			if literalFits(v, ty) {
				fits = append(fits, v)
			}
		}
		draw := func(v difftest.Value, regex string, chars int) []string {
			good, _ := atomForms(n, ty, func() string { return literal(v, ty) }, func() string { return regex }, func() int { return chars })
			for _, f := range good {
				if !slices.Contains(forms, f) {
					forms = append(forms, f)
				}
			}
			return good
		}
		for _, f := range append(forms, draw(fits[0], regexes[0], 1)...) {
			index(difftest.Index{Cols: []string{"id"}, Where: f})
		}
		good, odd := partForms(n, ty)
		for _, p := range append(good, odd...) {
			index(difftest.Index{Cols: []string{"expr:" + p}})
		}
		for _, v := range fits {
			draw(v, regexes[0], 1)
		}
		for k, re := range regexes {
			draw(fits[0], re, 1+k%6)
		}
		for k, f := range forms {
			// boolExpr's three combinations, nested once.
			add(f)
			g := forms[(k+1)%len(forms)]
			add("NOT ((" + f + " OR " + g + ")) AND " + g)
			// caseExpr's two kinds of CASE.
			if k%4 == 0 {
				add("CASE WHEN " + f + " THEN " + g + " WHEN " + g + " THEN 2 = 2 ELSE " + f + " END")
				add("CASE WHEN " + g + " THEN 1 WHEN " + f + " THEN 2 END <> 2")
			}
		}
	}
	t.Cols = append([]*difftest.Col{{Name: "id", Type: difftest.Type{Name: "int", Args: nil}}}, t.Cols...)
	t.PK = []string{"id"}
	parts.Cols, parts.PK = t.Cols, t.PK
	return &difftest.Model{Tables: []*difftest.Table{t, parts}, UUIDCheck: "true", ExactStrings: "true"}
}
