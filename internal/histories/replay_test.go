package histories_test

import (
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
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/histories"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/plantest"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

// Failure is one thing a cycle found, of a kind ("diff tidb", "apply
// postgres", "reach tidb", "original postgres", "rows tidb", "import",
// "compile") with what happened.
type Failure struct{ Kind, What string }

// Cycle is what one cycle, after version V, found.
type Cycle struct {
	V        histories.Version
	Dialects []string // the dialects the cycle ran on
	Failures []Failure
	Notes    []string
}

// Replay is the replay of one history.
type Replay struct {
	H *histories.History
	// Cycles are the versions after which a cycle runs (by N).
	Cycles map[int]bool
	// TiDBStopped is the version whose MySQL file TiDB refused (0: none):
	// from it on, the cycles run on PostgreSQL alone.
	TiDBStopped int
	TiDBError   error
	Results     []*Cycle

	t       *testing.T
	dev     *scratch.Dev
	dir     string
	targets map[string]migration.Target
	replays plantest.Replays
	// sides are each dialect's databases, made before the cycles: the
	// cycle's goroutines only read the map.
	sides map[string]*side
	now   time.Time
	// planned is the version (N) of the last cycle whose files every
	// dialect kept: the renames since are the model's renamed_from.
	planned int
}

// side is one dialect's databases and what its cycles counted.
type side struct {
	orig, migrated *scratch.DB
	// shape is the model the migrated database was last migrated to (nil:
	// none yet).
	shape                 *difftest.Model
	rowsKept, rowsStopped int
}

// run replays r.H: every version's files applied to the originals, and a
// cycle after each version of r.Cycles.
func (r *Replay) run(ctx context.Context) {
	t := r.t
	r.dev = &scratch.Dev{Reuse: true}
	r.dir = t.TempDir()
	r.now = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	defer func() {
		r.replays.Close()
		for _, sd := range r.sides {
			sd.orig.Close()
			sd.migrated.Close()
		}
		r.dev.Close()
	}()
	cfg := filepath.Join(r.dir, "atlas.hcl")
	if err := os.WriteFile(cfg, []byte(testproject.AtlasHCL(dbtest.ServerURL(t, histories.Postgres), dbtest.ServerURL(t, histories.TiDB))), 0o644); err != nil {
		t.Fatal(err)
	}
	conf, diags := atlasconf.Load(cfg, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	targets, err := migration.Targets(conf, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.targets = map[string]migration.Target{}
	r.sides = map[string]*side{}
	for _, tg := range targets {
		d := tg.Dialect.Name()
		r.targets[d] = tg
		sd := &side{}
		r.sides[d] = sd
		if sd.orig, err = r.dev.Scratch(ctx, tg.Dialect, tg.Env.Dev); err != nil {
			t.Fatal(err)
		}
		if sd.migrated, err = r.dev.Scratch(ctx, tg.Dialect, tg.Env.Dev); err != nil {
			t.Fatal(err)
		}
	}
	last := slices.Max(slices.Collect(maps.Keys(r.Cycles)))
	for _, v := range r.H.Versions[:last] {
		for _, d := range r.dialects() {
			stmts, err := v.Statements(d)
			if err != nil {
				t.Fatal(err)
			}
			if err := runStatements(ctx, r.sides[d].orig, stmts); err != nil {
				if d == histories.Postgres {
					t.Fatalf("%s %s: the project's own PostgreSQL file fails: %v", r.H.Name, v.Name, err)
				}
				r.TiDBStopped, r.TiDBError = v.N, err
				t.Logf("%s: TiDB refuses the project's own file of version %d (%s), the cycles go on with PostgreSQL alone: %v", r.H.Name, v.N, v.Name, err)
			}
		}
		if r.Cycles[v.N] {
			c := r.cycle(ctx, v)
			r.Results = append(r.Results, c)
			t.Log(c)
		}
	}
}

// dialects are the dialects the history still runs on.
func (r *Replay) dialects() []string {
	if r.TiDBStopped != 0 {
		return []string{histories.Postgres}
	}
	return []string{histories.Postgres, histories.TiDB}
}

func runStatements(ctx context.Context, db *scratch.DB, stmts []string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for i, s := range stmts {
		_, err := conn.ExecContext(ctx, s)
		if err != nil && transient(err) {
			_, err = conn.ExecContext(ctx, s)
		}
		if err != nil {
			return fmt.Errorf("statement %d of %d: %w\n%.400s", i+1, len(stmts), err, s)
		}
	}
	return nil
}

func (c *Cycle) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "version %d (%s) on %s: ", c.V.N, c.V.Name, strings.Join(c.Dialects, ", "))
	if len(c.Failures) == 0 {
		b.WriteString("passes")
	}
	for i, f := range c.Failures {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "FAILS %s: %s", f.Kind, short(f.What))
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "\n    (%s)", n)
	}
	return b.String()
}

// cycle imports the originals, generates, plans and applies to the
// migrated pair, and compares.
func (r *Replay) cycle(ctx context.Context, v histories.Version) *Cycle {
	c := &Cycle{V: v, Dialects: r.dialects()}
	var urls []string
	for _, d := range c.Dialects {
		urls = append(urls, r.sides[d].orig.URL)
	}
	imp, err := importer.Import(ctx, urls, nil)
	if err != nil {
		c.Failures = append(c.Failures, Failure{"import", err.Error()})
		return c
	}
	src, _ := imp.Written()
	// What a team writes in its model: the renames of the files since the
	// directory was last planned, as renamed_from (import cannot know them).
	renames, err := histories.ReadRenames(r.H.Versions[r.planned:v.N])
	if err != nil {
		r.t.Fatal(err)
	}
	if n := histories.RenamedFrom(imp.Schema, renames); n > 0 {
		src = compiler.Write(imp.Schema, imp.Notes)
		c.Notes = append(c.Notes, fmt.Sprintf("renamed_from written on %d tables and columns", n))
	}
	// generate, as the command does with the file import wrote.
	res := gen.CompileSource("schema.hcl", src)
	if res.Failed() {
		var msgs []string
		for _, d := range res.Diags {
			msgs = append(msgs, d.Error())
		}
		c.Failures = append(c.Failures, Failure{"compile", "the imported model does not compile: " + strings.Join(msgs, "; ")})
		return c
	}
	if err := os.WriteFile(filepath.Join(r.dir, "schema.hcl"), src, 0o644); err != nil {
		r.t.Fatal(err)
	}
	if err := gen.Write(filepath.Join(r.dir, "generated"), res.Files()); err != nil {
		r.t.Fatal(err)
	}
	r.now = r.now.Add(time.Minute)
	name := fmt.Sprintf("v%d", v.N)
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs []error
	)
	for _, d := range c.Dialects {
		wg.Go(func() {
			fs, notes, err := r.dialectCycle(ctx, r.targets[d], migration.Model(res.Outputs), shapeIn(res.Schema, d), name, v.N)
			mu.Lock()
			c.Failures = append(c.Failures, fs...)
			c.Notes = append(c.Notes, notes...)
			errs = append(errs, err)
			mu.Unlock()
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		r.t.Fatalf("%s version %d: %v", r.H.Name, v.N, err)
	}
	slices.SortFunc(c.Failures, func(a, b Failure) int { return strings.Compare(a.Kind, b.Kind) })
	slices.Sort(c.Notes)
	if !slices.ContainsFunc(c.Failures, func(f Failure) bool {
		return strings.HasPrefix(f.Kind, "diff ") || strings.HasPrefix(f.Kind, "apply ")
	}) {
		r.planned = v.N
	}
	return c
}

// shapeIn is the shape of the tables of s that dialect d has (import
// leaves a table that one database alone holds out of the other: the
// names of a backup table in PostgreSQL's lower case and TiDB's case are
// two tables), over which rows are inserted and compared.
func shapeIn(s *compiler.Schema, d string) *difftest.Model {
	in := *s
	in.Tables = slices.DeleteFunc(slices.Clone(s.Tables), func(t *compiler.Table) bool { return t.Overrides.Skipped(d) })
	return plantest.Shape(&in)
}

// dialectCycle is a cycle's work on one dialect: migrate diff, migrate
// apply to the migrated database (its rows read before and after), and the
// comparisons with a fresh database built from generated/. An error is
// the harness's own.
func (r *Replay) dialectCycle(ctx context.Context, t migration.Target, model migration.Model, shape *difftest.Model, name string, seed int) (fs []Failure, notes []string, _ error) {
	d := t.Dialect.Name()
	fail := func(kind, format string, args ...any) {
		fs = append(fs, Failure{kind + " " + d, fmt.Sprintf(format, args...)})
	}
	generated, err := migration.SQLState(ctx, r.dev, t, t.Env.Src, model[d].SQL)
	if err != nil {
		fail("generated", "the generated DDL does not load: %v", err)
		return fs, notes, nil
	}
	defer generated.Close()
	planned, err := migration.Plan(ctx, r.dev, nil, []migration.Target{t}, model, name,
		migration.DesiredFrom(func(ctx context.Context, t migration.Target, _ []byte) (*migration.State, error) {
			return migration.Reread(ctx, t, generated)
		}),
		migration.CurrentFrom(func(ctx context.Context, t migration.Target, dirPath string, files []migrate.File) (*migration.State, error) {
			return r.replays.Current(ctx, r.dev, t, dirPath, files)
		}))
	if err != nil {
		// The proof may have run statements on the replayed databases.
		r.replays.Close()
		fail("diff", "%v", err)
		return fs, notes, nil
	}
	written, err := migration.Write(planned, name, r.now, nil)
	if err != nil {
		return fs, notes, err
	}
	if err := r.replays.Proven(planned); err != nil {
		return fs, notes, err
	}
	sd := r.sides[d]
	kept, keptAfter := plantest.KeptColumns(sd.shape, shape)
	db := sd.migrated
	before, err := plantest.ReadRows(ctx, db.DB, d, kept)
	if err != nil {
		// A database an earlier cycle left short of its model.
		notes = append(notes, fmt.Sprintf("%s: rows not compared: %v", d, err))
		before = nil
	}
	sd.shape = shape
	if err := apply(ctx, t, db); err != nil {
		// Applied again to a database without rows: rows that break what
		// the file adds are the data's, not the plan's (as in the oracle).
		reason, data := plantest.DataError(err)
		if transient(err) {
			reason, data = "TiDB's 8028, a DDL elsewhere on the server", true
		}
		if data {
			ferr := error(nil)
			if db, ferr = r.replace(ctx, t, db); ferr == nil {
				sd.rowsStopped++
				notes = append(notes, fmt.Sprintf("%s: the apply stopped (%s), applied again to a database without rows", d, reason))
			} else {
				err = fmt.Errorf("on rows (%s: %v), then on a database without rows: %w", reason, err, ferr)
			}
		}
		if !data || db == nil {
			fail("apply", "%v", err)
			// What a team does with a file that does not apply: take it
			// out, so that later cycles plan from the directory before it.
			if err := unwrite(t, written); err != nil {
				return fs, notes, err
			}
			sd.shape = nil
			var ferr error
			if db, ferr = r.replace(ctx, t, sd.migrated); ferr != nil {
				fail("apply", "the directory without the file fails on a new database: %v", ferr)
				return fs, notes, nil
			}
		}
		before = nil
	}
	if diff, err := plantest.Compare(ctx, t.Dialect, db.DB, generated.DB().DB); err != nil {
		return fs, notes, err
	} else if diff != "" {
		fail("reach", "the migrated database does not reach the model: %s", diff)
	}
	if diff, err := plantest.Compare(ctx, t.Dialect, sd.orig.DB, generated.DB().DB); err != nil {
		return fs, notes, err
	} else if diff != "" {
		fail("original", "the original database differs from one built from generated/: %s", diff)
	}
	if before != nil {
		after, err := plantest.ReadRows(ctx, db.DB, d, keptAfter)
		if err != nil {
			fail("rows", "the columns the cycle kept cannot be read: %v", err)
			after = nil
		}
		for i, tb := range kept.Tables {
			if after == nil {
				break
			}
			old, now := before[tb.Name], after[keptAfter.Tables[i].Name]
			if !slices.Equal(old, now) {
				fail("rows", "table %s's rows changed in columns the cycle did not change:\n  before: %q\n  after:  %q", tb.Name, old, now)
				break
			}
			sd.rowsKept += len(old)
		}
	}
	n := plantest.InsertRows(ctx, db.DB, d, shape, uint64(seed), 3*len(shape.Tables))
	notes = append(notes, fmt.Sprintf("%s: %d files written, %d rows inserted", d, len(written), n))
	return fs, notes, nil
}

// replace applies t's directory to a new database, which replaces db as
// the migrated database of t's dialect; on an error nothing is replaced
// and the database is nil.
func (r *Replay) replace(ctx context.Context, t migration.Target, db *scratch.DB) (*scratch.DB, error) {
	fresh, err := r.dev.Scratch(ctx, t.Dialect, t.Env.Dev)
	if err != nil {
		return nil, err
	}
	if err := apply(ctx, t, fresh); err != nil {
		fresh.Close()
		return nil, err
	}
	db.Close()
	r.sides[t.Dialect.Name()].migrated = fresh
	return fresh, nil
}

// apply is `migrate apply` of t's directory to db.
func apply(ctx context.Context, t migration.Target, db *scratch.DB) error {
	_, err := deploy.Apply(ctx, t, deploy.ApplyOptions{URL: db.URL, LockTimeout: 10 * time.Minute})
	return err
}

// unwrite removes the files a migrate diff wrote and hashes the directory
// again.
func unwrite(t migration.Target, written []string) error {
	var errs []error
	for _, w := range written {
		errs = append(errs, os.Remove(w))
	}
	dir, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return err
	}
	errs = append(errs, migration.Hash(dir))
	return errors.Join(errs...)
}

var spaces = regexp.MustCompile(`\s+`)

// short is a failure's text on one line, cut: the summary has the first of
// each kind whole.
func short(s string) string {
	s = spaces.ReplaceAllString(s, " ")
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}

// rows are the rows found unchanged after the cycles' applies, and the
// applies that rows stopped (applied again to a database without rows).
func (r *Replay) rows() (kept, stopped int) {
	for _, sd := range r.sides {
		kept, stopped = kept+sd.rowsKept, stopped+sd.rowsStopped
	}
	return kept, stopped
}

// transient reports whether err is TiDB's "Information schema is changed
// during the execution of the statement" (8028), which a DDL elsewhere on
// a shared server causes: TiDB says to try again.
func transient(err error) bool { return strings.Contains(err.Error(), "Error 8028") }
