package histories_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/corpora"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/histories"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// The variables of a longer replay (scripts/replay-histories.sh).
const (
	historiesEnv = "SCHEMAGEN_HISTORIES"      // the histories to replay, comma-separated (default: all)
	stepEnv      = "SCHEMAGEN_HISTORIES_STEP" // a cycle after every Nth version (default: CI's slice)
	fromEnv      = "SCHEMAGEN_HISTORIES_FROM" // the first version with a cycle (its place N, or its name)
	toEnv        = "SCHEMAGEN_HISTORIES_TO"   // the last (place or name)
)

// ciStep is the CI slice: a cycle after every version of Authelia (through
// V0006 on both databases, through V0026 on PostgreSQL alone) and after
// every 25th of Kratos, and the last.
var ciStep = map[string]int{"authelia": 1, "kratos": 25}

// What the corpora's README says of the histories: their length, and the
// version whose MySQL file TiDB refuses (Authelia's stored procedures,
// Kratos's foreign key dropped by MySQL's generated name).
var (
	versions   = map[string]int{"authelia": 26, "kratos": 356}
	tidbStopAt = map[string]int{"authelia": 7, "kratos": 297}
)

// known are the failures of CI's slice that remain after the fixes of
// issues 29, 30 and 31, by history and kind, with the versions after
// which the cycle fails. The test fails when one no longer happens (take it
// out) as when another failure does. None remain: Kratos's NOT NULL
// columns added in three steps from its 243rd version, which failed every
// diff from the cycle of version 250 on, are written in two diffs with the
// history's UPDATEs as a data migration between (histories.TwoSteps), and
// wantBackfills makes sure the slice still does so.
var known = map[string]map[string][]int{}

// wantBackfills are the data migrations CI's slice writes between two
// diffs (histories.TwoSteps), by history: Kratos's internal_context,
// authentication_methods, identity_credential_type_id and identity_id
// before its cycles of versions 250 and 275.
var wantBackfills = map[string]int{"kratos": 2}

// TestHistories replays the public histories of ../shared/corpora/histories
// through schemagen (see the package doc and Replay): after each version
// of the slice, import both original databases, generate, migrate diff,
// migrate apply to the migrated pair, and compare that pair and the
// originals with fresh databases built from generated/, the rows inserted
// at earlier cycles kept. CI runs a slice (ciStep); the variables above
// choose a longer one, whose every failure fails the test.
func TestHistories(t *testing.T) {
	dir := filepath.Join(corpora.Dir(t), "histories")
	names := histories.Names
	if v := os.Getenv(historiesEnv); v != "" {
		names = strings.Split(v, ",")
	}
	custom := os.Getenv(stepEnv) != "" || os.Getenv(fromEnv) != "" || os.Getenv(toEnv) != ""
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h, err := histories.Read(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			if len(h.Versions) != versions[name] {
				t.Fatalf("%s has %d versions, the corpora's README %d", name, len(h.Versions), versions[name])
			}
			r := &Replay{H: h, Cycles: cycles(t, h), t: t}
			r.run(context.Background())
			last := slices.Max(slices.Collect(maps.Keys(r.Cycles)))
			if want := tidbStopAt[name]; last >= want && r.TiDBStopped != want {
				t.Errorf("TiDB refused the file of version %d (%v), the corpora's README says %d", r.TiDBStopped, r.TiDBError, want)
			}
			t.Log(summary(r))
			var failed []string
			for _, c := range r.Results {
				for _, f := range c.Failures {
					failed = append(failed, fmt.Sprintf("%d %s", c.V.N, f.Kind))
				}
			}
			if !custom && r.backfills != wantBackfills[name] {
				t.Errorf("%d data migrations written between two diffs, want %d", r.backfills, wantBackfills[name])
			}
			if custom {
				if len(failed) > 0 {
					t.Errorf("%d failures (see above): %v", len(failed), failed)
				}
				return
			}
			for _, f := range failed {
				n, kind, _ := strings.Cut(f, " ")
				if v, _ := strconv.Atoi(n); !slices.Contains(known[name][kind], v) {
					t.Errorf("cycle %s failed (see above)", f)
				}
			}
			for kind, vs := range known[name] {
				for _, v := range vs {
					if r.Cycles[v] && !slices.Contains(failed, fmt.Sprintf("%d %s", v, kind)) {
						t.Errorf("cycle %d %s is known to fail but passed: take it out of known", v, kind)
					}
				}
			}
		})
	}
}

// cycles are the versions (by N) after which a cycle runs: every step-th
// from the first of the range, and the range's last.
func cycles(t *testing.T, h *histories.History) map[int]bool {
	step := ciStep[h.Name]
	if v := os.Getenv(stepEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a number from 1", stepEnv, v)
		}
		step = n
	}
	place := func(env string, def int) int {
		v := os.Getenv(env)
		if v == "" {
			return def
		}
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= len(h.Versions) {
			return n
		}
		for _, ver := range h.Versions {
			if ver.Name == v {
				return ver.N
			}
		}
		t.Fatalf("%s=%q: %s has no such version (1 to %d, or a version's name)", env, v, h.Name, len(h.Versions))
		return 0
	}
	from, to := place(fromEnv, step), place(toEnv, len(h.Versions))
	out := map[int]bool{to: true}
	for n := from; n <= to; n += step {
		out[n] = true
	}
	return out
}

// summary says, for a replay, which cycles passed on each database and
// the first failure of each kind.
func summary(r *Replay) string {
	var b strings.Builder
	passed := map[string]int{}
	ran := map[string]int{}
	first := map[string]string{}
	var kinds []string
	for _, c := range r.Results {
		bad := map[string]bool{}
		for _, f := range c.Failures {
			d := f.Kind[strings.LastIndexByte(f.Kind, ' ')+1:]
			bad[d] = true
			if _, ok := first[f.Kind]; !ok {
				first[f.Kind] = fmt.Sprintf("version %d (%s): %s", c.V.N, c.V.Name, f.What)
				kinds = append(kinds, f.Kind)
			}
		}
		for _, d := range c.Dialects {
			ran[d]++
			if !bad[d] && !bad["import"] && !bad["compile"] {
				passed[d]++
			}
		}
	}
	fmt.Fprintf(&b, "%s: %d cycles; passed on postgres %d of %d, on tidb %d of %d", r.H.Name, len(r.Results), passed["postgres"], ran["postgres"], passed["tidb"], ran["tidb"])
	if r.TiDBStopped != 0 {
		fmt.Fprintf(&b, " (TiDB refuses the project's file of version %d)", r.TiDBStopped)
	}
	kept, stopped := r.rows()
	fmt.Fprintf(&b, "; %d rows kept, %d applies stopped by rows (applied without them); %d data migrations between two diffs", kept, stopped, r.backfills)
	for _, k := range kinds {
		fmt.Fprintf(&b, "\n  first %s: %s", k, first[k])
	}
	return b.String()
}
