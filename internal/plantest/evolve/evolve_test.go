package evolve_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest/evolve"
)

var drawsOut = flag.String("draws", "", "write what TestSeedsRepeat's seeds draw to this file")

// history is what the evolution of seed draws in steps steps when every
// step is applied: its first model, then each step's edits and the model
// they make, and the edits the compiler refused.
func history(seed uint64, steps int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== evolution seed %d\n", seed)
	g, m := evolve.First(seed)
	if m == nil {
		fmt.Fprintf(&b, "does not compile\n")
		return b.String()
	}
	b.WriteString(m.HCL())
	refused := 0
	for step := 1; step <= steps; step++ {
		next, edits, n := evolve.Step(g, m, nil)
		refused += n
		fmt.Fprintf(&b, "-- step %d\n", step)
		if next == nil {
			fmt.Fprintf(&b, "no edit\n")
			continue
		}
		for _, e := range edits {
			fmt.Fprintf(&b, "edit %s: %s\n", e.Kind, e.What)
		}
		b.WriteString(next.HCL())
		m = next
	}
	fmt.Fprintf(&b, "compile refused %d\n", refused)
	return b.String()
}

// TestSeedsRepeat: a seed draws the same evolution twice (models, edits of
// every step, refusals), for the seeds TestPlanOracle's CI run starts from
// and more, so that a failure's seed reproduces it. With -draws FILE it
// writes what they draw, to compare two trees.
func TestSeedsRepeat(t *testing.T) {
	var all strings.Builder
	kinds := map[string]bool{}
	for i := range uint64(60) {
		seed := 1*1_000_003 + i // TestPlanOracle's seeds for SCHEMAGEN_PLANTEST_SEED=1
		a, b := history(seed, 5), history(seed, 5)
		if a != b {
			t.Errorf("seed %d draws two evolutions:\n%s\n---\n%s", seed, a, b)
		}
		all.WriteString(a)
		for _, l := range strings.Split(a, "\n") {
			if k, ok := strings.CutPrefix(l, "edit "); ok {
				k, _, _ = strings.Cut(k, ":")
				kinds[k] = true
			}
		}
	}
	// The seeds draw most kinds: the test compares real histories.
	if len(kinds) < len(evolve.Kinds)/2 {
		t.Errorf("the seeds drew %d edit kinds of %d", len(kinds), len(evolve.Kinds))
	}
	if *drawsOut != "" {
		if err := os.WriteFile(*drawsOut, []byte(all.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestVectorKeepsStandIn: a vector column keeps the override that makes it
// TEXT on PostgreSQL (pgvector is not installed where the oracle runs);
// change_override set it to "" and the generated DDL needed pgvector (plan
// oracle, seed 71717, evolution seed 71717215166, step 3).
func TestVectorKeepsStandIn(t *testing.T) {
	for _, seed := range []uint64{71717215166, 1, 2, 3, 4, 5, 6, 7, 8} {
		g, m := evolve.First(seed)
		for step := 1; m != nil && step <= 5; step++ {
			next, _, _ := evolve.Step(g, m, nil)
			if next == nil {
				continue
			}
			for _, tb := range next.Tables {
				for _, c := range tb.Cols {
					if c.Type.Name == "vector" && !strings.Contains(c.Override, "TEXT") {
						t.Errorf("evolution seed %d, step %d: vector column %s.%s has override %q", seed, step, tb.Name, c.Name, c.Override)
					}
				}
			}
			m = next
		}
	}
}

// TestExactStringsNeverTurnedOff: the rows drawn while exact_strings is on
// may end in a space, which TiDB compares as if it were not there once it
// is off (a documented difference), so no step turns it off; steps still
// turn it on, and the other settings off (evolution 91717275196).
func TestExactStringsNeverTurnedOff(t *testing.T) {
	turnedOn, othersOff := 0, 0
	for seed := uint64(0); seed < 80; seed++ {
		g, m := evolve.First(seed)
		if m == nil {
			continue
		}
		for range 5 {
			next, _, _ := evolve.Step(g, m, nil)
			if next == nil {
				continue
			}
			if m.ExactStrings != "false" && next.ExactStrings == "false" {
				t.Fatalf("seed %d: a step turned exact_strings off:\n%s", seed, next.HCL())
			}
			if m.ExactStrings == "false" && next.ExactStrings != "false" {
				turnedOn++
			}
			if m.UUIDCheck != "false" && next.UUIDCheck == "false" || m.ValueDomains != "false" && next.ValueDomains == "false" {
				othersOff++
			}
			m = next
		}
	}
	if turnedOn == 0 || othersOff == 0 {
		t.Errorf("exact_strings turned on %d times, another setting turned off %d times: want both drawn", turnedOn, othersOff)
	}
	t.Logf("exact_strings turned on %d times, another setting turned off %d times", turnedOn, othersOff)
}
