// Package plantest is schemagen's plan oracle. It draws seeded random models
// with internal/difftest's generator and evolves each through steps of
// random edits (evolve.Kinds). At every step it generates the model's DDL, runs
// `migrate diff` (migration.Plan and migration.Write, what the command runs)
// into two migration directories, one planned online and one --plain, and
// applies each new migration with schemagen's apply and with Atlas's
// migrate.Executor to databases holding rows inserted at earlier steps, on
// the real PostgreSQL and TiDB (an evolution applies each directory with
// one of them, alternating by seed, so that every step runs both; Replay
// applies each with both). It then requires that:
//
//   - every file applies (rows that break a new constraint aside, which the
//     oracle then checks on a database without rows);
//   - Atlas's inspection of each database equals that of a fresh database
//     built from generated/ (and, on PostgreSQL, so do the foreign keys'
//     deferrability, which Atlas does not model);
//   - rows in the columns the step did not change are there, unchanged;
//   - on databases of both dialects that held the same rows, the step's
//     migration is stopped by the rows on both or on neither, and where it
//     applies the rows read the same on both afterwards (results.go); so
//     must the data migration placed before every other step, whose rows
//     are compared in every column (the values each database draws itself,
//     now() and uuid(), as being there or NULL).
//
// A failure is shrunk to a small model and one edit and printed as a test
// for regression_test.go.
//
// # Speed
//
// A step's cost is mostly DDL on the dev servers (TiDB runs every
// server's DDL one job at a time). Without changing what is checked, the
// oracle loads each step's generated DDL once for both lineages' plans and
// the comparison (migration.DesiredFrom), replays to a kept database only
// the files a step adds (migration.CurrentFrom; migrate diff replays the
// same files in the same order on a clean database), and reuses emptied
// PostgreSQL scratch databases (scratch.Dev.Reuse).
//
// # Where things are
//
// Package evolve holds what an evolution draws: the edit kinds (Kinds) and
// the drawing of a model and its steps, which need no database. This
// package runs the steps on the servers and compares (Runner, Evolve,
// Reproduce), and shrinks a failure to a regression test (Shrink).
package plantest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"ariga.io/atlas/sql/migrate"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/difftest/draw/datadraw"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/migration/portable"
	"github.com/schemagen/schemagen/internal/plantest/evolve"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Runner evolves models on one PostgreSQL and one TiDB server.
type Runner struct {
	// PostgresURL and TiDBURL are the servers' URLs: the dev databases of
	// the projects, and where the target databases are made.
	PostgresURL, TiDBURL string
	Dev                  *scratch.Dev
	// TempDir is where projects are written.
	TempDir string
	// RowsPerStep is how many INSERTs are tried after each step.
	RowsPerStep int
	// Kinds, when set, are the only edit kinds drawn, by name (a run
	// aimed at some constructs).
	Kinds map[string]bool
	// Only, when set, is the one dialect the runner migrates (for a change
	// the other refuses).
	Only string
	// Lint runs migrate lint on the files each online step writes, which
	// must hold no error (lintWritten).
	Lint bool

	mu    sync.Mutex
	Stats Stats
	// Refusals are migrate diff's refusals (hazard.Refusal, migration.
	// RawError), in the order met.
	Refusals []error
}

// Stats count a run's work.
type Stats struct {
	Evolutions, Steps, Edits, CompileRefused, DiffRefused, Files, DataRefused, RowsChecked int
	// RowsKept counts the rows compared before and after steps;
	// RowsCompared the steps whose rows were compared between dialects.
	RowsKept, RowsCompared int
	// Linted counts the files migrate lint checked (Runner.Lint).
	Linted int
	// DataMigrations are the data migrations placed between steps and
	// applied; DataMigrationsRefused those the checker refused.
	DataMigrations, DataMigrationsRefused int
	// DataReasons counts applies that existing rows stopped, by reason.
	DataReasons map[string]int
	// EditKinds counts the edits applied, by kind.
	EditKinds map[string]int
	// KindSteps counts, by edit kind, the steps holding an edit of that
	// kind that completed (applied, reached the model, kept the rows),
	// that migrate diff refused, and that failed: which kinds a run saw
	// through.
	KindSteps map[string]*[3]int
	// Time is the time spent, by phase of a step (plan, apply, compare,
	// rows), over every step run.
	Time map[string]time.Duration
}

func (r *Runner) count(f func(s *Stats)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Stats.DataReasons == nil {
		r.Stats.DataReasons, r.Stats.EditKinds, r.Stats.Time = map[string]int{}, map[string]int{}, map[string]time.Duration{}
		r.Stats.KindSteps = map[string]*[3]int{}
	}
	f(&r.Stats)
}

// kindSteps counts a step of edits in KindSteps' column i (0 completed,
// 1 refused by migrate diff, 2 failed), once for each kind it holds.
func (r *Runner) kindSteps(edits []*evolve.Edit, i int) {
	if len(edits) == 0 {
		edits = []*evolve.Edit{{Kind: "create"}}
	}
	r.count(func(s *Stats) {
		seen := map[string]bool{}
		for _, e := range edits {
			k := e.Kind
			if k == "" {
				k = "replayed"
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			if s.KindSteps[k] == nil {
				s.KindSteps[k] = &[3]int{}
			}
			s.KindSteps[k][i]++
		}
	})
}

// String summarises the stats.
func (s Stats) String() string {
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(s.EditKinds)) {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, s.EditKinds[k]))
	}
	var steps []string
	for _, k := range slices.Sorted(maps.Keys(s.KindSteps)) {
		n := s.KindSteps[k]
		steps = append(steps, fmt.Sprintf("%s %d/%d/%d", k, n[0], n[1], n[2]))
	}
	var reasons []string
	for _, k := range slices.Sorted(maps.Keys(s.DataReasons)) {
		reasons = append(reasons, fmt.Sprintf("%s %d", k, s.DataReasons[k]))
	}
	var times []string
	for _, k := range []string{"data", "plan", "apply", "compare", "rows"} {
		if d, ok := s.Time[k]; ok {
			times = append(times, fmt.Sprintf("%s %s", k, d.Round(time.Millisecond)))
		}
	}
	return fmt.Sprintf("%d evolutions, %d steps applied (%d edits: %s); steps by edit kind, completed/refused by migrate diff/failed: %s; %d edits refused by the compiler, %d steps refused by migrate diff; %d migration files applied; %d data migrations between steps (%d refused by the checker); %d applies stopped by existing rows or retried (%s) and checked without rows; %d tables' rows checked (%d rows); %d steps' rows compared between dialects; %d files linted; time by phase: %s",
		s.Evolutions, s.Steps, s.Edits, strings.Join(kinds, ", "), strings.Join(steps, ", "), s.CompileRefused, s.DiffRefused, s.Files, s.DataMigrations, s.DataMigrationsRefused, s.DataRefused, strings.Join(reasons, ", "), s.RowsChecked, s.RowsKept, s.RowsCompared, s.Linted, strings.Join(times, ", "))
}

// Failure is a step whose migration did not apply or did not reach the model.
type Failure struct {
	// Seed is the evolution's seed; RowSeed draws its rows.
	Seed, RowSeed uint64
	Step          int
	// Before is the model before the step; Edits the step's edits.
	Before *difftest.Model
	Edits  []*evolve.Edit
	// Kind classifies the failure, so that shrinking keeps the same one.
	Kind, What string
	// After is the model after the step, as HCL (set by Shrink).
	After string
	// Data is the data migration that failed, placed over Before, when
	// the failure is a data step's (Kind "data ...").
	Data string
	// Steps is the steps Evolve drew up to the failing one (the failure
	// of the evolution Seed comes back with Evolve(Seed, Steps)).
	Steps int
	// Unreproduced is set by Shrink when the step failed over its model
	// before and after alone, without the evolution's history (the rows
	// and data migrations of the steps before): the failure is printed as
	// the evolution replayed by its seed.
	Unreproduced bool
}

func (f *Failure) Error() string { return f.What }

// lineage is one migration directory (online or plain) with its databases.
type lineage struct {
	plain   bool
	dir     string
	targets []migration.Target
	now     time.Time
	// dbs are the target databases, by dialect: applied by schemagen [0]
	// and by Atlas's executor [1].
	dbs map[string]*[2]*scratch.DB
	// written are the files the last step wrote, by path.
	written map[string]bool
	// replaced are the databases (dialect and applier) that existing rows
	// stopped this step, replaced by ones without rows.
	replaced map[string]bool
	// stops are the errors that stopped them, by the same key.
	stops map[string]error
	// replays hold, by dialect, the directory replayed so far.
	replays Replays
	// transient are the replaced databases that an error of the shared
	// server stopped, not the rows.
	transient map[string]bool
}

// current is migrate diff's current state of target t's directory (at
// dirPath, holding files), replayed on the lineage's kept database.
func (l *lineage) current(ctx context.Context, dev *scratch.Dev, t migration.Target, dirPath string, files []migrate.File) (*migration.State, error) {
	return l.replays.Current(ctx, dev, t, dirPath, files)
}

func (l *lineage) name() string {
	if l.plain {
		return "plain"
	}
	return "online"
}

// evolution is one model's history.
type evolution struct {
	r        *Runner
	lineages []*lineage
	shape    *difftest.Model // the compiled model of the last step
	// parts are the part names of the last step's partitioned tables.
	parts   map[string][]string
	rowSeed uint64
	step    int
	// refused is set when migrate diff refused the last step.
	refused bool
	// data is the model of the last step, over which a data migration is
	// drawn before the next one (nil: none, as when reproducing).
	data *difftest.Model
	// dataSQL, when set, is the data migration placed before the next
	// step instead of one drawn, over the model dataHCL (ReproduceData).
	dataSQL, dataHCL string
	mu               sync.Mutex
}

// Evolve draws a model of seed and evolves it through steps steps. It
// returns the first failure (not shrunk), or an error when the oracle
// itself failed.
func (r *Runner) Evolve(ctx context.Context, seed uint64, steps int) (*Failure, error) {
	g, m := evolve.First(seed)
	if m == nil {
		r.count(func(s *Stats) { s.CompileRefused++ })
		return nil, nil
	}
	r.count(func(s *Stats) { s.Evolutions++ })
	ev, err := r.start(ctx, seed, false)
	if err != nil {
		return nil, err
	}
	defer ev.close()
	if f, err := ev.run(ctx, []byte(m.HCL()), nil); f != nil || err != nil {
		if f != nil {
			r.kindSteps(nil, 2)
			f.Seed, f.Before = seed, &difftest.Model{UUIDCheck: m.UUIDCheck, ExactStrings: m.ExactStrings, ValueDomains: m.ValueDomains}
			f.Edits = []*evolve.Edit{evolve.WholeModel(m)}
		}
		return f, err
	}
	for step := 1; step <= steps; step++ {
		ev.data = m
		next, edits, refused := evolve.Step(g, m, r.Kinds)
		if refused > 0 {
			r.count(func(s *Stats) { s.CompileRefused += refused })
		}
		if next == nil {
			continue
		}
		f, err := ev.run(ctx, []byte(next.HCL()), edits)
		if err != nil {
			return nil, err
		}
		if f != nil {
			f.Seed, f.Before, f.Edits, f.Steps = seed, m, edits, step
			r.kindSteps(edits, 2)
			return f, nil
		}
		if ev.refused {
			ev.refused = false
			continue
		}
		m = next
	}
	return nil, nil
}

// start makes an evolution's projects and target databases: with full
// set, each lineage's files are applied by both schemagen and Atlas's
// executor; else by one each, schemagen's apply running the online files
// of odd seeds and the plain ones of even seeds (Atlas's executor the
// others), which halves the databases while every seed still applies each
// plan with one and every step runs both.
func (r *Runner) start(ctx context.Context, seed uint64, full bool) (*evolution, error) {
	ev := &evolution{r: r, rowSeed: seed*7919 + 1}
	for li, plain := range []bool{false, true} {
		dir, err := os.MkdirTemp(r.TempDir, "plantest-")
		if err != nil {
			return nil, err
		}
		l := &lineage{plain: plain, dir: dir, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), dbs: map[string]*[2]*scratch.DB{}}
		ev.lineages = append(ev.lineages, l)
		cfgPath := filepath.Join(dir, "atlas.hcl")
		if err := os.WriteFile(cfgPath, []byte(atlasHCL(r.PostgresURL, r.TiDBURL)), 0o644); err != nil {
			ev.close()
			return nil, err
		}
		cfg, diags := atlasconf.Load(cfgPath, nil)
		if diags.HasErrors() {
			ev.close()
			return nil, diags
		}
		if l.targets, err = migration.Targets(cfg, nil); err != nil {
			ev.close()
			return nil, err
		}
		if r.Only != "" {
			l.targets = slices.DeleteFunc(l.targets, func(t migration.Target) bool { return t.Dialect.Name() != r.Only })
		}
		for _, t := range l.targets {
			var pair [2]*scratch.DB
			for i := range pair {
				if !full && i != (li+int(seed%2))%2 {
					continue
				}
				if pair[i], err = r.Dev.Scratch(ctx, t.Dialect, t.Env.Dev); err != nil {
					ev.close()
					return nil, err
				}
			}
			l.dbs[t.Dialect.Name()] = &pair
		}
	}
	return ev, nil
}

func (ev *evolution) close() {
	for _, l := range ev.lineages {
		l.replays.Close()
		for _, pair := range l.dbs {
			for _, db := range pair {
				if db != nil {
					db.Close()
				}
			}
		}
		os.RemoveAll(l.dir)
	}
}

func atlasHCL(pg, ti string) string {
	return fmt.Sprintf(`
env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = %q
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = %q
  migration {
    dir = "file://migrations/tidb"
  }
}
`, pg, ti)
}

// run makes one step to model m: generate, migrate diff for both
// lineages, apply, compare, check rows, insert rows.
func (ev *evolution) run(ctx context.Context, src []byte, edits []*evolve.Edit) (*Failure, error) {
	r := ev.r
	res := gen.CompileSource("schema.hcl", src)
	if res.Failed() {
		return nil, fmt.Errorf("plantest: the model does not compile: %v", res.Diags)
	}
	name := fmt.Sprintf("step%d", ev.step)
	fail := func(kind, format string, args ...any) *Failure {
		return &Failure{RowSeed: ev.rowSeed, Step: ev.step, Kind: kind, What: fmt.Sprintf("step %d (%s): ", ev.step, describe(edits)) + fmt.Sprintf(format, args...)}
	}
	model := migration.Model(res.Outputs)
	planned := make([][]*migration.Planned, len(ev.lineages))
	phase, began := "data", time.Now()
	lap := func(next string) {
		d := time.Since(began)
		r.count(func(s *Stats) { s.Time[phase] += d })
		phase, began = next, time.Now()
	}
	defer lap("")
	if f, err := ev.dataStep(ctx); f != nil || err != nil {
		if f != nil {
			f.RowSeed, f.Step = ev.rowSeed, ev.step
			f.What = fmt.Sprintf("before step %d (%s): ", ev.step, describe(edits)) + f.What
		}
		return f, err
	}
	lap("plan")
	// The generated DDL is loaded once for each dialect: both lineages'
	// plans and the comparison read the same database.
	generated, f, err := ev.loadGenerated(ctx, res, fail)
	defer func() {
		for _, st := range generated {
			st.Close()
		}
	}()
	if f != nil || err != nil {
		return f, err
	}
	desired := migration.DesiredFrom(func(ctx context.Context, t migration.Target, src []byte) (*migration.State, error) {
		d := t.Dialect.Name()
		if !bytes.Equal(src, res.Outputs[d].SQL) {
			return nil, fmt.Errorf("plantest: migrate diff of %s would load DDL that is not the model's", d)
		}
		return migration.Reread(ctx, t, generated[d])
	})
	// Both lineages are planned at once: the dev servers' latency, not
	// the CPU, bounds the work.
	errs := make([]error, len(ev.lineages))
	var pwg sync.WaitGroup
	for i, l := range ev.lineages {
		if err := os.WriteFile(filepath.Join(l.dir, "schema.hcl"), src, 0o644); err != nil {
			return nil, err
		}
		if err := gen.Write(filepath.Join(l.dir, "generated"), res.Files()); err != nil {
			return nil, err
		}
		pwg.Go(func() {
			planned[i], errs[i] = migration.Plan(ctx, r.Dev, nil, l.targets, model, name, migration.Plain(l.plain), desired,
				migration.CurrentFrom(func(ctx context.Context, t migration.Target, dirPath string, files []migrate.File) (*migration.State, error) {
					return l.current(ctx, r.Dev, t, dirPath, files)
				}))
		})
	}
	pwg.Wait()
	for i, l := range ev.lineages {
		if errs[i] != nil {
			// migrate diff's proof may have run statements on the
			// replayed databases: the next step replays anew.
			l.replays.Close()
		}
	}
	for i, l := range ev.lineages {
		if err := errs[i]; err != nil {
			if migration.Refused(err) {
				r.count(func(s *Stats) { s.DiffRefused++ })
				r.kindSteps(edits, 1)
				r.mu.Lock()
				r.Refusals = append(r.Refusals, err)
				r.mu.Unlock()
				ev.refused = true
				return nil, nil
			}
			return fail("diff "+l.name()+" "+errorKind(err), "migrate diff (%s) failed: %v", l.name(), err), nil
		}
	}
	lap("rows")
	// Rows before the step, in the columns the step keeps.
	newShape := stepShape(res)
	kept, keptAfter := keptColumns(ev.shape, newShape)
	// Tables that lose a part lose its rows (hazard TD110, PG107): their
	// rows after are some of those before.
	shrunk, newParts := map[string]bool{}, partNames(res.Schema)
	for t, ps := range ev.parts {
		shrunk[t] = slices.ContainsFunc(ps, func(p string) bool { return !slices.Contains(newParts[t], p) })
	}
	ev.parts = newParts
	before := map[string][]string{}
	if ev.shape != nil {
		if err := ev.eachDB(func(l *lineage, d string, i int, db *scratch.DB) error {
			rs, err := readRows(ctx, db, d, kept)
			if err != nil {
				return err
			}
			for t, v := range rs {
				before[fmt.Sprintf("%s %s %d %s", l.name(), d, i, t)] = v
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	for i, l := range ev.lineages {
		l.now = l.now.Add(time.Minute)
		written, err := migration.Write(planned[i], name, l.now, nil)
		if err != nil {
			return nil, err
		}
		l.written, l.replaced, l.transient, l.stops = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]error{}
		for _, w := range written {
			l.written[w] = true
		}
		if err := l.replays.Proven(planned[i]); err != nil {
			return nil, err
		}
		if f, err := ev.lintWritten(ctx, l, fail); err != nil || f != nil {
			return f, err
		}
		if f, err := dropsRenamed(written, ev.shape, newShape); err != nil || f != "" {
			if err != nil {
				return nil, err
			}
			return fail("rename drops", "%s: a rename is planned as a drop: %s", l.name(), f), nil
		}
		r.count(func(s *Stats) { s.Files += len(written) })
	}
	lap("apply")
	// Apply: schemagen's apply and Atlas's executor, both dialects at once.
	var (
		mu       sync.Mutex
		failures []*Failure
		wg       sync.WaitGroup
	)
	for _, l := range ev.lineages {
		for _, t := range l.targets {
			d := t.Dialect.Name()
			for i := range 2 {
				if l.dbs[d][i] == nil {
					continue
				}
				wg.Go(func() {
					f, err := ev.apply(ctx, l, t, i, name)
					if err != nil {
						f = fail("oracle", "%s %s: %v", l.name(), d, err)
					}
					if f != nil {
						f.Step, f.RowSeed = ev.step, ev.rowSeed
						f.What = fmt.Sprintf("step %d (%s): ", ev.step, describe(edits)) + f.What
						mu.Lock()
						failures = append(failures, f)
						mu.Unlock()
					}
				})
			}
		}
	}
	wg.Wait()
	if len(failures) > 0 {
		slices.SortFunc(failures, func(a, b *Failure) int { return strings.Compare(a.Kind, b.Kind) })
		return failures[0], nil
	}
	if f := ev.sameResult(before, fail); f != nil {
		return f, nil
	}
	lap("compare")
	// Compare with fresh databases built from generated/, both dialects at
	// once.
	targets := ev.lineages[0].targets
	found := make([]*Failure, len(targets))
	cerrs := make([]error, len(targets))
	var cwg sync.WaitGroup
	for k, t := range targets {
		cwg.Go(func() { found[k], cerrs[k] = ev.compare(ctx, t, generated[t.Dialect.Name()].DB(), fail) })
	}
	cwg.Wait()
	if err := errors.Join(cerrs...); err != nil {
		return nil, err
	}
	for _, f := range found {
		if f != nil {
			return f, nil
		}
	}
	lap("rows")
	// Rows kept.
	if ev.shape != nil {
		var lost *Failure
		if err := ev.eachDB(func(l *lineage, d string, i int, db *scratch.DB) error {
			rs, err := readRows(ctx, db, d, keptAfter)
			if err != nil {
				return err
			}
			rs = byOldName(rs, kept, keptAfter)
			for t, v := range rs {
				key := fmt.Sprintf("%s %s %d %s", l.name(), d, i, t)
				old, ok := before[key]
				if !ok || l.replaced[fmt.Sprint(d, i)] {
					continue
				}
				r.count(func(s *Stats) { s.RowsChecked++; s.RowsKept += len(old) })
				if !slices.Equal(old, v) && !(shrunk[t] && subset(v, old)) && lost == nil {
					lost = fail("rows "+d, "%s %s applied by %s: table %s's rows changed in columns the step did not change:\n  before: %q\n  after:  %q", l.name(), d, applier(i), t, old, v)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if lost != nil {
			return lost, nil
		}
		if f, err := ev.sameRows(ctx, before, res.Schema, fail); f != nil || err != nil {
			return f, err
		}
	}
	ev.shape = newShape
	ev.insertRows(ctx)
	ev.step++
	r.kindSteps(edits, 0)
	r.count(func(s *Stats) {
		s.Steps++
		s.Edits += len(edits)
		for _, e := range edits {
			s.EditKinds[e.Kind]++
		}
	})
	return nil, nil
}

// loadGenerated loads the generated DDL of every dialect on a new scratch
// database, as migrate diff would.
func (ev *evolution) loadGenerated(ctx context.Context, res *gen.Result, fail func(kind, format string, args ...any) *Failure) (map[string]*migration.State, *Failure, error) {
	targets := ev.lineages[0].targets
	states := make([]*migration.State, len(targets))
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	for i, t := range targets {
		wg.Go(func() {
			states[i], errs[i] = migration.SQLState(ctx, ev.r.Dev, t, t.Env.Src, res.Outputs[t.Dialect.Name()].SQL)
		})
	}
	wg.Wait()
	out := map[string]*migration.State{}
	for i, t := range targets {
		if states[i] != nil {
			out[t.Dialect.Name()] = states[i]
		}
	}
	for i, t := range targets {
		if errs[i] != nil {
			return out, fail("diff "+errorKind(errs[i]), "the generated DDL of %s does not load: %v", t.Dialect.Name(), errs[i]), nil
		}
	}
	return out, nil, nil
}

// compare reads again the database db holding the generated DDL of target
// t's dialect and compares every target database of that dialect with it,
// as migrate diff's proof compares (migration.Differences).
func (ev *evolution) compare(ctx context.Context, t migration.Target, db *scratch.DB, fail func(kind, format string, args ...any) *Failure) (*Failure, error) {
	wantDrv, err := t.Dialect.OpenAtlas(db.DB)
	if err != nil {
		return nil, err
	}
	for _, l := range ev.lineages {
		for i, db := range l.dbs[t.Dialect.Name()] {
			if db == nil {
				continue
			}
			drv, err := t.Dialect.OpenAtlas(db.DB)
			if err != nil {
				return nil, err
			}
			got, err := migration.Reread(ctx, t, &migration.State{Driver: drv})
			if err != nil {
				return nil, err
			}
			want, err := migration.Reread(ctx, t, &migration.State{Driver: wantDrv})
			if err != nil {
				return nil, err
			}
			diffs, err := migration.Differences(ctx, t, got, want)
			if err != nil {
				return nil, err
			}
			if len(diffs) == 0 {
				continue
			}
			kind := "reach "
			if diffs[0].Kind == "objects" {
				kind = "objects "
			}
			var left strings.Builder
			for _, d := range diffs {
				fmt.Fprintf(&left, "  %s\n", d.What)
			}
			return fail(kind+t.Dialect.Name(), "%s %s applied by %s does not reach the model; left to do:\n%s", l.name(), t.Dialect.Name(), applier(i), left.String()), nil
		}
	}
	return nil, nil
}

func applier(i int) string {
	if i == 0 {
		return "schemagen"
	}
	return "Atlas's executor"
}

func describe(edits []*evolve.Edit) string {
	if len(edits) == 0 {
		return "create the model"
	}
	var s []string
	for _, e := range edits {
		s = append(s, e.What)
	}
	return strings.Join(s, "; ")
}

// errorKind classifies an error for shrinking: the database's code when
// there is one.
func errorKind(err error) string {
	k := difftest.Classify(err)
	if strings.HasPrefix(k, "error: ") {
		return "other"
	}
	return k
}

// eachDB calls f for every target database.
func (ev *evolution) eachDB(f func(l *lineage, d string, i int, db *scratch.DB) error) error {
	for _, l := range ev.lineages {
		for _, d := range slices.Sorted(maps.Keys(l.dbs)) {
			for i, db := range l.dbs[d] {
				if db == nil {
					continue
				}
				if err := f(l, d, i, db); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// dataStep places a portable data migration between the last step and the
// next, as a user writes one: drawn by the data tester over the last
// step's model, written to migrations/portable at a version between the
// two steps' files, rendered by generate's portable.Render (checked against
// the schema the directory reaches at that version) and applied to every
// database, with its rows. It requires that the checker's verdict over the
// schema at the file's version is its verdict over the last step's model,
// and that the file applies or is stopped by the rows alone; later steps
// then plan and apply over directories holding it.
func (ev *evolution) dataStep(ctx context.Context) (*Failure, error) {
	// Before every other step: each replays the directories at the file's
	// version and applies it, on both lineages.
	if ev.shape == nil || ev.step%2 == 0 {
		return nil, nil
	}
	var text []byte
	var prevHCL string
	switch {
	case ev.dataSQL != "":
		text, prevHCL = []byte(ev.dataSQL), ev.dataHCL
	case ev.data != nil:
		text, prevHCL = []byte(datadraw.DataMigrations(ev.rowSeed+uint64(ev.step), ev.data, 1)[0].Text()), ev.data.HCL()
	default:
		return nil, nil
	}
	f, err := ev.placeData(ctx, text, prevHCL)
	if f != nil {
		f.Data = string(text)
	}
	return f, err
}

// placeData places the data migration text, checked against the model
// prevHCL of the last step, in both lineages and applies it.
func (ev *evolution) placeData(ctx context.Context, text []byte, prevHCL string) (*Failure, error) {
	prev := gen.CompileSource("schema.hcl", []byte(prevHCL))
	if prev.Failed() {
		return nil, fmt.Errorf("plantest: the last step's model does not compile: %v", prev.Diags)
	}
	_, want := datamig.Compile("data.sql", text, prev.Schema)
	name := fmt.Sprintf("data%d", ev.step)
	// The rows before, in every column (those each database draws itself
	// read as "(a time)" and the like): where a lineage's databases held
	// the same, the data migration must stop on all or none of them and
	// leave the same rows (evolution 61616184896: SET u0 = u0 beside
	// another column kept a NULL on TiDB alone, which the next step's NOT
	// NULL met there only).
	before := map[string][]string{}
	if err := ev.eachDB(func(l *lineage, d string, i int, db *scratch.DB) error {
		rs, err := readRows(ctx, db, d, difftest.Shape(prev.Schema))
		for t, v := range rs {
			before[fmt.Sprintf("%s %s %d %s", l.name(), d, i, t)] = v
		}
		return err
	}); err != nil {
		return nil, err
	}
	for _, l := range ev.lineages {
		l.replaced, l.transient, l.stops = map[string]bool{}, map[string]bool{}, map[string]error{}
	}
	for _, l := range ev.lineages {
		version := l.now.Add(30 * time.Second).Format("20060102150405")
		path := filepath.Join(l.dir, "migrations", "portable", version+"_"+name+".sql")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, text, 0o644); err != nil {
			return nil, err
		}
		rendered, diags, err := portable.Render(ctx, ev.r.Dev, l.targets)
		if err != nil {
			return &Failure{Kind: "data render", What: fmt.Sprintf("%s: generate could not render the data migration %s:\n%s\n%v", l.name(), path, text, err)}, nil
		}
		if diags.HasErrors() != want.HasErrors() {
			return &Failure{Kind: "data model", What: fmt.Sprintf("%s: the data migration\n%s\nchecked against the schema at version %s: %v; against the last step's model: %v", l.name(), text, version, diags, want)}, nil
		}
		if diags.HasErrors() {
			ev.r.count(func(s *Stats) { s.DataMigrationsRefused++ })
			if err := os.Remove(path); err != nil {
				return nil, err
			}
			continue
		}
		if err := gen.Write("", rendered.Files); err != nil {
			return nil, err
		}
		l.written, l.replaced, l.transient, l.stops = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]error{}
		for p := range rendered.Files {
			if filepath.Base(p) != migrate.HashFileName {
				l.written[p] = true
			}
		}
		ev.r.count(func(s *Stats) { s.DataMigrations++ })
		for _, t := range l.targets {
			for i := range 2 {
				if l.dbs[t.Dialect.Name()][i] == nil {
					continue
				}
				f, err := ev.apply(ctx, l, t, i, name)
				if err != nil {
					return nil, err
				}
				if f != nil {
					f.Kind = "data " + f.Kind
					f.What += "\nthe data migration:\n" + string(text)
					return f, nil
				}
			}
		}
	}
	fail := func(kind, format string, args ...any) *Failure {
		return &Failure{Kind: "data " + kind, What: fmt.Sprintf(format, args...) + "\nthe data migration:\n" + string(text)}
	}
	if f := ev.sameResult(before, fail); f != nil {
		return f, nil
	}
	return ev.sameRows(ctx, before, prev.Schema, fail)
}

// dataError reports whether err is rows breaking what a statement adds (a
// constraint, NOT NULL, a narrower type), or a pre-check finding such rows.
func dataError(err error) (string, bool) {
	var pe *deploy.PrecheckError
	if errors.As(err, &pe) {
		return "pre-check", true
	}
	// A data migration's guard that the rows make fail (PostgreSQL's
	// RAISE, TiDB's refused setting: see dialects/*/data.go).
	var pg *pgconn.PgError
	var my *mysql.MySQLError
	if errors.As(err, &pg) && pg.Code == "P0001" || errors.As(err, &my) && my.Number == 1231 {
		return "guard", true
	}
	switch k := difftest.Classify(err); k {
	case "not-null", "unique", "foreign-key", "check", "data":
		return k, true
	}
	msg := err.Error()
	// TiDB's errors for rows that break an added key or type.
	for _, s := range []string{"Error 1062", "Error 1265", "Error 1366", "Error 1292", "Error 1406", "Error 1264", "Error 1138", "Error 1452", "Error 3819", "Error 1690", "Error 8200"} {
		if strings.Contains(msg, s) && (s != "Error 8200" || strings.Contains(msg, "data")) {
			return strings.ToLower(s), true
		}
	}
	return "", false
}

// transient reports whether err is TiDB's "Information schema is changed
// during the execution of the statement" (8028), which a DDL elsewhere on
// the shared server causes, whatever the plan: TiDB says to try again.
func transient(err error) bool {
	return strings.Contains(err.Error(), "Error 8028")
}

// apply applies the pending files of lineage l for target t to its
// database i (0: schemagen's apply, 1: Atlas's executor). When existing
// rows stop it, the whole directory is applied to a new database without
// rows instead, which then replaces it.
func (ev *evolution) apply(ctx context.Context, l *lineage, t migration.Target, i int, name string) (*Failure, error) {
	d := t.Dialect.Name()
	db := l.dbs[d][i]
	err := applyTo(ctx, t, db, i, l.written)
	if err == nil {
		return nil, nil
	}
	reason, ok := dataError(err)
	if transient(err) {
		// Not the plan's: the whole directory is applied to a new
		// database instead.
		reason, ok = "transient "+errorKind(err), true
	}
	if !ok || ev.shape == nil && !transient(err) {
		return &Failure{Kind: fmt.Sprintf("apply %s %s %s", d, l.name(), errorKind(err)), What: fmt.Sprintf("%s %s: applying by %s failed: %v", l.name(), d, applier(i), err)}, nil
	}
	ev.r.count(func(s *Stats) { s.DataRefused++; s.DataReasons[d+" "+reason]++ })
	fresh, ferr := ev.r.Dev.Scratch(ctx, t.Dialect, t.Env.Dev)
	if ferr != nil {
		return nil, ferr
	}
	if err := applyTo(ctx, t, fresh, i, nil); err != nil {
		fresh.Close()
		return &Failure{Kind: fmt.Sprintf("apply %s %s %s", d, l.name(), errorKind(err)), What: fmt.Sprintf("%s %s: applying by %s failed on rows (%v) and then on a database without rows: %v", l.name(), d, applier(i), reason, err)}, nil
	}
	db.Close()
	l.dbs[d][i] = fresh
	ev.mu.Lock()
	l.replaced[fmt.Sprint(d, i)] = true
	l.stops[fmt.Sprint(d, i)] = err
	l.transient[fmt.Sprint(d, i)] = transient(err)
	ev.mu.Unlock()
	return nil, nil
}

// applyTo applies the pending files of t's directory to db: with
// schemagen's apply (i = 0) or Atlas's executor (i = 1), which tracks
// nothing: it runs the files of only (by path), every file when only is nil.
func applyTo(ctx context.Context, t migration.Target, db *scratch.DB, i int, only map[string]bool) error {
	if i == 0 {
		// TiDB's lock (GET_LOCK, as the Atlas CLI takes it) is the
		// server's, which every evolution and test on it shares.
		_, err := deploy.Apply(ctx, t, deploy.ApplyOptions{URL: db.URL, LockTimeout: 10 * time.Minute})
		return err
	}
	dir, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return err
	}
	files, err := dir.Files()
	if err != nil {
		return err
	}
	mem := &migrate.MemDir{}
	for _, f := range files {
		if only != nil && !only[filepath.Join(dir.Path(), f.Name())] {
			continue
		}
		if err := mem.WriteFile(f.Name(), f.Bytes()); err != nil {
			return err
		}
	}
	sum, err := mem.Checksum()
	if err != nil {
		return err
	}
	if err := migrate.WriteSumFile(mem, sum); err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	drv, err := t.Dialect.OpenAtlas(conn)
	if err != nil {
		return err
	}
	ex, err := migrate.NewExecutor(drv, mem, migrate.NopRevisionReadWriter{}, migrate.WithAllowDirty(true))
	if err != nil {
		return err
	}
	if err := ex.ExecuteN(ctx, 0); err != nil && !errors.Is(err, migrate.ErrNoPendingFiles) {
		return err
	}
	return nil
}

// shapeOf is the compiled model's tables, columns and keys: enough to
// draw rows and read them.
// partNames are the names of the parts of s's partitioned tables.
func partNames(s *compiler.Schema) map[string][]string {
	out := map[string][]string{}
	for _, t := range s.Tables {
		if p := t.Partition; p != nil {
			for _, part := range p.Parts {
				out[t.Name] = append(out[t.Name], part.Name)
			}
		}
	}
	return out
}

// subset reports whether every row of a is one of b's.
func subset(a, b []string) bool {
	return !slices.ContainsFunc(a, func(r string) bool { return !slices.Contains(b, r) })
}

func shapeOf(s *compiler.Schema) *difftest.Model {
	m := difftest.Shape(s)
	for i, t := range s.Tables {
		m.Tables[i].RenamedFrom = t.RenamedFrom
		for k, c := range t.Columns {
			// Rows are compared on one database, before and after: every
			// value exactly, those the database made (now(), uuid()) too.
			mc := m.Tables[i].Cols[k]
			mc.RenamedFrom, mc.Now, mc.Random = c.RenamedFrom, false, false
		}
		if t.PrimaryKey != nil {
			m.Tables[i].PK = slices.Clone(t.PrimaryKey.Columns)
		} else if len(t.Columns) > 0 {
			// Only for drawing: the UPDATEs drawn (and not run) name one.
			m.Tables[i].PK = []string{t.Columns[0].Name}
		}
		for _, fk := range t.ForeignKeys {
			m.Tables[i].FKs = append(m.Tables[i].FKs, difftest.FK{Name: fk.Name, Cols: fk.Columns, RefTable: fk.RefTable, RefCols: fk.RefColumns})
		}
	}
	return m
}

// stepShape is the shape of a step's compiled model, with the settings it
// turns off in any dialect, so that the rows drawn over it leave out the
// values those settings let the databases store or compare otherwise
// (Model.Differs), as the differential tester's rows do (evolution 99494298641: under
// exact_strings = false a key 'a ' was drawn, and a data migration's
// WHERE id0 = 'a' found it on TiDB alone, a documented difference).
func stepShape(res *gen.Result) *difftest.Model {
	m := shapeOf(res.Schema)
	off := func(name string) string {
		for _, o := range res.Outputs {
			if o.Render == nil {
				continue
			}
			if v, ok := o.Render().Settings[name].(bool); ok && !v {
				return "false"
			}
		}
		return ""
	}
	m.UUIDCheck, m.ExactStrings, m.ValueDomains = off("uuid_check"), off("exact_strings"), off("value_domains")
	return m
}

// keptColumns is, for every table of both shapes, the columns of old that
// new has with the same type: the ones whose rows the step must keep. A
// table or column new renames (renamed_from) is followed: after is the
// same tables and columns by their new names, in the same order.
func keptColumns(old, new *difftest.Model) (before, after *difftest.Model) {
	before, after = &difftest.Model{}, &difftest.Model{}
	if old == nil {
		return before, after
	}
	for _, ot := range old.Tables {
		nt := new.Table(ot.Name)
		if nt == nil || nt.RenamedFrom != "" && nt.RenamedFrom != ot.Name && old.Table(nt.RenamedFrom) != nil {
			nt = nil
			for _, t := range new.Tables {
				if t.RenamedFrom == ot.Name && old.Table(t.Name) == nil {
					nt = t
				}
			}
		}
		if nt == nil {
			continue
		}
		bt, at := &difftest.Table{Name: ot.Name}, &difftest.Table{Name: nt.Name}
		for _, oc := range ot.Cols {
			nc := nt.Col(oc.Name)
			if nc == nil || nc.RenamedFrom != "" && nc.RenamedFrom != oc.Name && ot.Col(nc.RenamedFrom) != nil {
				nc = nil
				for _, c := range nt.Cols {
					if c.RenamedFrom == oc.Name && ot.Col(c.Name) == nil {
						nc = c
					}
				}
			}
			// Generated values are computed again, from columns the step
			// may change; an on_update column keeps its values (a
			// migration's own UPDATE must not move them).
			if nc != nil && nc.Type.String() == oc.Type.String() && nc.As == "" && oc.As == "" {
				bt.Cols = append(bt.Cols, oc)
				at.Cols = append(at.Cols, nc)
			}
		}
		if len(bt.Cols) > 0 {
			before.Tables = append(before.Tables, bt)
			after.Tables = append(after.Tables, at)
		}
	}
	return before, after
}

// dropsRenamed returns the first statement of the files that drops a table
// or column the step renames ("" for none): a rename must keep the rows.
func dropsRenamed(files []string, old, new *difftest.Model) (string, error) {
	tables, cols := renamed(old, new)
	if len(tables) == 0 && len(cols) == 0 {
		return "", nil
	}
	quoted := func(s, name string) bool {
		return strings.Contains(s, `"`+name+`"`) || strings.Contains(s, "`"+name+"`")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		stmts, err := migrate.Stmts(string(b))
		if err != nil {
			return "", err
		}
		drops := func(s, what, name string) bool {
			return regexp.MustCompile(`(?i)DROP\s+` + what + `\s+(IF\s+EXISTS\s+)?(\S+\.)?["` + "`" + `]` + regexp.QuoteMeta(name) + `["` + "`" + `]`).MatchString(s)
		}
		for _, st := range stmts {
			for _, t := range tables {
				if drops(st.Text, "TABLE", t) {
					return st.Text, nil
				}
			}
			for _, c := range cols {
				if quoted(st.Text, c[0]) && drops(st.Text, "COLUMN", c[1]) {
					return st.Text, nil
				}
			}
		}
	}
	return "", nil
}

// byOldName keys rows read by the tables of after by the names before
// gives the same tables.
func byOldName(rows map[string][]string, before, after *difftest.Model) map[string][]string {
	out := map[string][]string{}
	for i, t := range after.Tables {
		if v, ok := rows[t.Name]; ok {
			out[before.Tables[i].Name] = v
		}
	}
	return out
}

// renamed is what a step renames: tables by their former names, and
// columns as table and former name, from shape old to shape new.
func renamed(old, new *difftest.Model) (tables []string, cols [][2]string) {
	if old == nil {
		return nil, nil
	}
	for _, nt := range new.Tables {
		if nt.RenamedFrom != "" && old.Table(nt.RenamedFrom) != nil && old.Table(nt.Name) == nil {
			tables = append(tables, nt.RenamedFrom)
		}
		for _, c := range nt.Cols {
			ot := old.Table(nt.Name)
			if ot == nil && nt.RenamedFrom != "" {
				ot = old.Table(nt.RenamedFrom)
			}
			if c.RenamedFrom != "" && ot != nil && ot.Col(c.RenamedFrom) != nil && ot.Col(c.Name) == nil {
				cols = append(cols, [2]string{nt.Name, c.RenamedFrom})
			}
		}
	}
	return tables, cols
}

func readRows(ctx context.Context, db *scratch.DB, d string, m *difftest.Model) (map[string][]string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	out := map[string][]string{}
	for _, t := range m.Tables {
		rs, err := difftest.Rows(ctx, conn, d, t)
		if err != nil {
			return nil, err
		}
		out[t.Name] = rs
	}
	return out, nil
}

// insertRows tries random INSERTs on every target database, the same on
// each; the ones a database refuses are left out.
func (ev *evolution) insertRows(ctx context.Context) {
	n := ev.r.RowsPerStep
	if n == 0 {
		n = 12
	}
	g := draw.NewGen(ev.rowSeed + uint64(ev.step))
	var stmts []difftest.Stmt
	for _, s := range g.Stmts(ev.shape, 3*n) {
		if s.Kind == "insert" && len(stmts) < n {
			stmts = append(stmts, s)
		}
	}
	var wg sync.WaitGroup
	for _, l := range ev.lineages {
		for d, pair := range l.dbs {
			for _, db := range pair {
				if db == nil {
					continue
				}
				wg.Go(func() {
					for _, s := range stmts {
						if q, ok := difftest.SQLOf(s, d, ev.shape); ok {
							db.ExecContext(ctx, q)
						}
					}
				})
			}
		}
	}
	wg.Wait()
}
