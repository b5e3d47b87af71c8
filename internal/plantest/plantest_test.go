package plantest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/plantest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func envInt(t *testing.T, name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// TestPlanOracle evolves random models through migrate diff and apply on
// both real databases. CI runs a fixed seed and a few evolutions;
// SCHEMAGEN_PLANTEST_MODELS, SCHEMAGEN_PLANTEST_STEPS and
// SCHEMAGEN_PLANTEST_SEED run more, as the README says.
func TestPlanOracle(t *testing.T) {
	t.Parallel()
	models := envInt(t, "SCHEMAGEN_PLANTEST_MODELS", 4)
	steps := int(envInt(t, "SCHEMAGEN_PLANTEST_STEPS", 4))
	seed := envInt(t, "SCHEMAGEN_PLANTEST_SEED", 1)
	// SCHEMAGEN_PLANTEST_FIRST runs the seed's evolutions from this one on,
	// so that a long run can be made in slices (each evolution's seed is
	// the run's seed and its number).
	first := envInt(t, "SCHEMAGEN_PLANTEST_FIRST", 0)
	r := plantest.NewRunner(t)
	// Every file the online plans write is linted (issue 30), unless
	// SCHEMAGEN_PLANTEST_LINT=0.
	r.Lint = os.Getenv("SCHEMAGEN_PLANTEST_LINT") != "0"
	if k := os.Getenv("SCHEMAGEN_PLANTEST_KINDS"); k != "" {
		r.Kinds = map[string]bool{}
		for _, name := range strings.Split(k, ",") {
			r.Kinds[strings.TrimSpace(name)] = true
		}
	}
	ctx := context.Background()
	start := time.Now()
	// Evolutions run side by side (SCHEMAGEN_PLANTEST_PARALLEL): each has
	// its own databases, and the servers' latency bounds a step more than
	// the CPU does.
	parallel := max(int(envInt(t, "SCHEMAGEN_PLANTEST_PARALLEL", 2)), 1)
	stop := int(envInt(t, "SCHEMAGEN_PLANTEST_STOP", 3))
	type result struct {
		f   *plantest.Failure
		err error
	}
	results := make([]result, models)
	next := make(chan uint64)
	var wg sync.WaitGroup
	for range parallel {
		wg.Go(func() {
			for i := range next {
				s := seed*1_000_003 + first + i
				f, err := r.Evolve(ctx, s, steps)
				results[i] = result{f, err}
				if models > 20 {
					status := "ok"
					switch {
					case err != nil:
						status = "FAILS (the oracle): " + err.Error()
					case f != nil:
						status = "FAILS: " + f.What
					}
					t.Logf("evolution %d (seed %d): %s, after %s", first+i, s, status, time.Since(start).Round(time.Second))
				}
			}
		})
	}
	// SCHEMAGEN_PLANTEST_FOR bounds a long run's time (a Go duration): no
	// evolution starts after it, and the run ends as a short one does.
	var until time.Time
	if d := os.Getenv("SCHEMAGEN_PLANTEST_FOR"); d != "" {
		dur, err := time.ParseDuration(d)
		if err != nil {
			t.Fatalf("SCHEMAGEN_PLANTEST_FOR=%q: %v", d, err)
		}
		until = start.Add(dur)
	}
	ran := models
	for i := range models {
		if !until.IsZero() && time.Now().After(until) {
			ran = i
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	found := 0
	for i, res := range results {
		s := seed*1_000_003 + first + uint64(i)
		f, err := res.f, res.err
		if err != nil {
			t.Errorf("evolution %d (seed %d): the oracle failed: %v", first+uint64(i), s, err)
			continue
		}
		if f == nil {
			continue
		}
		found++
		if found > stop {
			t.Errorf("evolution %d (seed %d) fails, not shrunk (SCHEMAGEN_PLANTEST_STOP=%d): %s", first+uint64(i), s, stop, f.What)
			continue
		}
		t.Logf("evolution %d (seed %d): %s; shrinking", first+uint64(i), s, f.What)
		f, err = r.Shrink(ctx, f, 40)
		if err != nil {
			t.Fatalf("shrinking evolution %d (seed %d): %v", first+uint64(i), s, err)
		}
		t.Errorf("evolution %d (SCHEMAGEN_PLANTEST_SEED=%d, evolution seed %d) fails; regression test:\n\n%s", first+uint64(i), seed, s, f.Regression(fmt.Sprintf("Regression%d", s)))
	}
	t.Logf("%d evolutions of up to %d steps, %d at a time, in %s: %d failing; %s", ran, steps, parallel, time.Since(start).Round(time.Millisecond), found, r.Stats)
	t.Logf("scratch databases: %d, %d of them reused", r.Dev.Scratches(), r.Dev.Reused())
	// Plans migrate diff could not prove are refusals too: each is listed.
	unproven := 0
	for _, err := range r.Refusals {
		if pe := (*migration.ProofError)(nil); errors.As(err, &pe) {
			unproven++
			t.Logf("not proven: %s", err.Error())
		}
	}
	t.Logf("migrate diff refused %d steps, %d of them plans that did not prove", len(r.Refusals), unproven)
}

// TestDataRegression: a data step's failure is printed as a ReplayData test
// holding the model it was placed over and the data migration itself (the
// form Replay has no place for).
func TestDataRegression(t *testing.T) {
	t.Parallel()
	m := &difftest.Model{Tables: []*difftest.Table{{Name: "t0", Cols: []*difftest.Col{{Name: "id", Type: difftest.Type{Name: "int"}}}, PK: []string{"id"}}}}
	f := &plantest.Failure{RowSeed: 7, Before: m, Kind: "data model", What: "before step 3: the data migration", Data: "UPDATE \"t0\" SET \"id\" = 1;\n"}
	got := f.Regression("RegressionX")
	for _, want := range []string{"func TestRegressionX(t *testing.T) {", "plantest.ReplayData(t, 7, `\n" + m.HCL() + "`, `\nUPDATE \"t0\" SET \"id\" = 1;\n`)"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
}

// TestEvolutionRegression: a failure that does not come back over its
// models alone (Shrink sets Unreproduced) is printed as its evolution run
// by seed: the printed Replay of evolution 61616184896, whose failure
// needed a data migration drawn before the step, passed on the bug.
func TestEvolutionRegression(t *testing.T) {
	t.Parallel()
	f := &plantest.Failure{Seed: 61616184896, Steps: 3, RowSeed: 7, Kind: "two results", What: "step 3: two results", After: "table", Unreproduced: true}
	if got := f.Regression("RegressionX"); !strings.Contains(got, "\tplantest.ReplayEvolution(t, 61616184896, 3)\n") {
		t.Errorf("not a ReplayEvolution test:\n%s", got)
	}
}

// TestLintRegression: a failure lint found is printed as a ReplayLinted
// test, which lints as the oracle does (Replay does not: the printed test
// of evolution seed 72727218223 passed on the bug).
func TestLintRegression(t *testing.T) {
	t.Parallel()
	m := &difftest.Model{Tables: []*difftest.Table{{Name: "t0", Cols: []*difftest.Col{{Name: "id", Type: difftest.Type{Name: "int"}}}, PK: []string{"id"}}}}
	f := &plantest.Failure{RowSeed: 7, Before: m, Kind: "lint PG101", What: "step 1: online: migrate lint reports PG101", After: m.HCL()}
	if got := f.Regression("RegressionX"); !strings.Contains(got, "\tplantest.ReplayLinted(t, 7, `\n") {
		t.Errorf("not a ReplayLinted test:\n%s", got)
	}
	f.Kind = "apply"
	if got := f.Regression("RegressionX"); !strings.Contains(got, "\tplantest.Replay(t, 7, `\n") {
		t.Errorf("not a Replay test:\n%s", got)
	}
}
