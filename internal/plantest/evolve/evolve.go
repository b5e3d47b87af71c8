// Package evolve draws the plan oracle's evolutions: a seeded random model
// (internal/difftest's generator), then steps of one to three random edits
// of every kind the language allows (Kinds), each accepted by the
// compiler. Each edit can be made again on a smaller model, for the
// shrinker.
//
// It stands alone because drawing needs no database: what a seed draws is
// a function of the seed and the model (TestSeedsRepeat), which package
// plantest then runs through migrate diff and apply on the servers.
//
// # Adding an edit kind
//
// Kinds is a table. A new construct gets an EditKind with a name, a weight
// and a Draw function that looks at the model and returns an *Edit (nil
// when the model has nothing to edit). The Edit's Apply makes the change on
// a model found by names, capturing everything it draws, so that the
// shrinker can make the same change on a smaller model:
//
//	{"add_view", 1, func(g *draw.Gen, m *difftest.Model) *Edit {
//		name := ...                         // draw everything here
//		return &Edit{What: "add view " + name, Apply: func(m *difftest.Model) bool {
//			...                             // find by name; false when gone
//			return true
//		}}
//	}},
//
// A construct the model cannot hold yet goes into difftest.Model (and its
// HCL method) first. An edit the compiler refuses is drawn again.
package evolve

import (
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/gen"
)

// First draws the first model of the evolution of seed, repaired as the
// differential tester repairs its models, and the generator that draws its
// steps. The model is nil when it does not compile.
func First(seed uint64) (*draw.Gen, *difftest.Model) {
	g := draw.NewGen(seed)
	m := g.Model()
	if rm := difftest.Repair(m); rm != nil {
		m = rm
	}
	if gen.CompileSource("schema.hcl", []byte(m.HCL())).Failed() {
		return g, nil
	}
	return g, m
}

// WholeModel is the edit that creates every table of m, the first step.
func WholeModel(m *difftest.Model) *Edit {
	c := m.Clone()
	return &Edit{Kind: "create", What: "create the model", Apply: func(x *difftest.Model) bool {
		x.Tables = c.Clone().Tables
		return true
	}}
}

// Step draws one to three edits of m that the compiler accepts, of the
// kinds named in only (all when empty), and the model they make: nil when
// no edit was found. refused counts the edits drawn that the compiler
// refused, each drawn again.
func Step(g *draw.Gen, m *difftest.Model, only map[string]bool) (next *difftest.Model, edits []*Edit, refused int) {
	next = m.Clone()
	for n := 1 + g.N(3); len(edits) < n; {
		var e *Edit
		var cand *difftest.Model
		for tries := 0; tries < 20 && e == nil; tries++ {
			e = drawEdit(g, next, tries, only)
			if e == nil {
				continue
			}
			cand = next.Clone()
			if !e.Apply(cand) || !ViewsValid(cand) || gen.CompileSource("schema.hcl", []byte(cand.HCL())).Failed() {
				refused++
				e = nil
			}
		}
		if e == nil {
			break
		}
		next, edits = cand, append(edits, e)
	}
	if len(edits) == 0 {
		return nil, nil, refused
	}
	return next, edits, refused
}
