package plantest

import (
	"context"
	"fmt"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/scratch"
)

// NewRunner returns a Runner on the test servers of internal/dbtest.
func NewRunner(t testing.TB) *Runner {
	t.Helper()
	dev := &scratch.Dev{Reuse: true}
	t.Cleanup(dev.Close)
	return &Runner{PostgresURL: dbtest.ServerURL(t, "postgres"), TiDBURL: dbtest.ServerURL(t, "tidb"), Dev: dev, TempDir: t.TempDir()}
}

// Replay migrates databases holding rows (of rowSeed) from model before
// (HCL; none when empty) to model after and fails t unless every plan
// applies and reaches the model with the rows kept: the form of the
// oracle's printed regression tests.
func Replay(t *testing.T, rowSeed uint64, before, after string) {
	t.Helper()
	r := NewRunner(t)
	f, err := r.Reproduce(context.Background(), rowSeed, before, after, "the regression's change")
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("%s", f.What)
	}
	if len(r.Refusals) > 0 {
		t.Fatalf("migrate diff refused the change, so nothing was applied: %v", r.Refusals)
	}
}

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
		f, err := ev.run(ctx, []byte(src), []*Edit{{What: fmt.Sprintf("history step %d", i)}})
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
