package plantest_test

import (
	"context"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest"
)

// TestLintHelperColumnDrops: dropping a column or an index on TiDB drops
// the generated helper columns of its expression or partial indexes, which
// hold no data of their own; lint reported DS102 ("Dropping a table ... the
// values of column t1_ix0_0 are lost") on the files migrate diff wrote,
// since a covered hazard Atlas's analyzer did not report was reported
// under its first covering rule (plan oracle seed 61616, evolutions 32 and
// 38, which failed before). The evolutions are replayed by their seeds:
// should the generator change what they draw, they still must pass.
func TestLintHelperColumnDrops(t *testing.T) {
	t.Parallel()
	r := plantest.NewRunner(t)
	r.Lint = true
	for _, seed := range []uint64{61616184880, 61616184886} {
		f, err := r.Evolve(context.Background(), seed, 5)
		if err != nil {
			t.Fatalf("evolution seed %d: the oracle failed: %v", seed, err)
		}
		if f != nil {
			t.Errorf("evolution seed %d fails: %s", seed, f.What)
		}
	}
}
