// Package datadraw draws data migrations over a model for the data tester
// (internal/difftest) and the plan oracle's rows: statements of the
// portable data language, with the functions and forms whose results the
// two databases must agree on.
package datadraw

import "math/rand/v2"

// rnd is draw's generator, drawn the same way, so that a seed draws the
// same migrations as before the package was split from draw.
type rnd struct {
	r *rand.Rand
}

func newRnd(seed uint64) *rnd { return &rnd{r: rand.New(rand.NewPCG(seed, 0x5eed))} }

func (g *rnd) n(k int) int           { return g.r.IntN(k) }
func (g *rnd) chance(p float64) bool { return g.r.Float64() < p }
func pick[T any](g *rnd, xs []T) T   { return xs[g.r.IntN(len(xs))] }
