package plantest

import (
	"context"
	"fmt"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest/evolve"
)

// History migrates databases holding rows (of rowSeed) through the models
// steps (HCL), one migrate diff and apply each, with rows inserted after
// every step, and fails t unless every step's plans apply and reach its
// model with the rows kept, refusing none. It returns the run's stats.
func History(t *testing.T, rowSeed uint64, steps ...string) Stats {
	t.Helper()
	r := NewRunner(t)
	ctx := context.Background()
	ev, err := r.start(ctx, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer ev.close()
	ev.rowSeed = rowSeed
	for i, src := range steps {
		f, err := ev.run(ctx, []byte(src), []*evolve.Edit{{What: fmt.Sprintf("history step %d", i)}})
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if f != nil {
			t.Fatalf("step %d: %s", i, f.What)
		}
		if ev.refused {
			t.Fatalf("step %d: migrate diff refused it, so nothing was applied: %v", i, r.Refusals)
		}
	}
	if r.Stats.Steps != len(steps) {
		t.Fatalf("%d steps applied, want %d", r.Stats.Steps, len(steps))
	}
	return r.Stats
}
