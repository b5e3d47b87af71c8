package plantest_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
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
	models := envInt(t, "SCHEMAGEN_PLANTEST_MODELS", 4)
	steps := int(envInt(t, "SCHEMAGEN_PLANTEST_STEPS", 4))
	seed := envInt(t, "SCHEMAGEN_PLANTEST_SEED", 1)
	r := plantest.NewRunner(t)
	ctx := context.Background()
	start := time.Now()
	found := 0
	for i := range models {
		s := seed*1_000_003 + i
		f, err := r.Evolve(ctx, s, steps)
		if err != nil {
			t.Fatalf("evolution %d (seed %d): %v", i, s, err)
		}
		if f == nil {
			continue
		}
		found++
		t.Logf("evolution %d (seed %d): %s; shrinking", i, s, f.What)
		f, err = r.Shrink(ctx, f, 40)
		if err != nil {
			t.Fatalf("shrinking evolution %d (seed %d): %v", i, s, err)
		}
		t.Errorf("evolution %d (SCHEMAGEN_PLANTEST_SEED=%d, evolution seed %d) fails; regression test:\n\n%s", i, seed, s, f.Regression(fmt.Sprintf("Regression%d", s)))
		if found >= 3 {
			t.Fatal("stopping after 3 failures")
		}
	}
	t.Logf("%d evolutions of up to %d steps in %s: %s", models, steps, time.Since(start).Round(time.Millisecond), r.Stats)
}
