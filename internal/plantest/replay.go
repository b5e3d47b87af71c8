package plantest

import (
	"context"
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
	replay(t, NewRunner(t), rowSeed, before, after)
}

// ReplayLinted is Replay with the oracle's lint on (Runner.Lint): migrate
// lint must also report no error on the files the online plans write. The
// oracle prints it for a failure lint found, which Replay would not see.
func ReplayLinted(t *testing.T, rowSeed uint64, before, after string) {
	t.Helper()
	r := NewRunner(t)
	r.Lint = true
	replay(t, r, rowSeed, before, after)
}

// ReplayEvolution runs the oracle's evolution of seed through steps steps,
// lint on, and fails t on its first failure: the form of the oracle's
// printed regression tests for a failure that needs the steps before it.
// Should the generators change what the seed draws, it still must pass.
func ReplayEvolution(t *testing.T, seed uint64, steps int) {
	t.Helper()
	r := NewRunner(t)
	r.Lint = true
	f, err := r.Evolve(context.Background(), seed, steps)
	if err != nil {
		t.Fatalf("evolution seed %d: the oracle failed: %v", seed, err)
	}
	if f != nil {
		t.Fatalf("evolution seed %d: %s", seed, f.What)
	}
}

func replay(t *testing.T, r *Runner, rowSeed uint64, before, after string) {
	t.Helper()
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

// ReplayData migrates databases holding rows (of rowSeed) to model, places
// the data migration data (migrations/portable) over it and fails t unless
// the checker judges it over the schema the directory reaches as over the
// model, and it applies or is stopped by the rows alone: the form of the
// oracle's printed regression tests for a data step.
func ReplayData(t *testing.T, rowSeed uint64, model, data string) {
	t.Helper()
	r := NewRunner(t)
	f, err := r.ReproduceData(context.Background(), rowSeed, model, data)
	if err != nil {
		t.Fatal(err)
	}
	if f != nil {
		t.Fatalf("%s", f.What)
	}
	if r.Stats.DataMigrations+r.Stats.DataMigrationsRefused == 0 {
		t.Fatal("the data migration was not placed")
	}
}
