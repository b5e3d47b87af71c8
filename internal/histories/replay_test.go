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
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/corpora"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/histories"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/migration/portable"
	"github.com/schemagen/schemagen/internal/plantest"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

// families are the script families the histories are written in, with
// the dialect whose database runs each one's files (the MySQL files on
// TiDB): the one place where the replay maps families to the servers it
// opens, and to the statement rules that read each family's files.
var families = []struct{ family, dialect string }{
	{corpora.FamilyPostgres, devdb.Postgres},
	{corpora.FamilyMySQL, devdb.TiDB},
}

// familyOf is the script family whose files dialect d runs.
func familyOf(d string) string {
	for _, f := range families {
		if f.dialect == d {
			return f.family
		}
	}
	panic("histories: no script family runs on " + d)
}

// rules are the statement rules of each family: its dialect's.
func rules() histories.Rules {
	out := histories.Rules{}
	for _, f := range families {
		out[f.family] = all.Get(f.dialect)
	}
	return out
}

// statements are the statements of v that dialect d runs: those of its
// family's file. On TiDB, Authelia's utf8mb4_unicode_520_ci, which TiDB
// lacks, is utf8mb4_unicode_ci, as a team moving to TiDB writes it.
func statements(v histories.Version, d string) ([]string, error) {
	stmts, err := v.Statements(familyOf(d))
	if d == devdb.TiDB {
		for i, s := range stmts {
			stmts[i] = strings.ReplaceAll(s, "utf8mb4_unicode_520_ci", "utf8mb4_unicode_ci")
		}
	}
	return stmts, err
}

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
	// dialect kept: the renames since are the model's renamed_from, and
	// the UPDATEs since the data migrations of two-step columns.
	planned int
	// plannedModel is that cycle's model (nil: none yet), the state the
	// directories reach.
	plannedModel *compiler.Schema
	// backfills counts the data migrations the replay wrote between two
	// diffs (histories.TwoSteps).
	backfills int
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
	if err := os.WriteFile(cfg, []byte(testproject.AtlasHCL(dbtest.ServerURL(t, devdb.Postgres), dbtest.ServerURL(t, devdb.TiDB))), 0o644); err != nil {
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
			stmts, err := statements(v, d)
			if err != nil {
				t.Fatal(err)
			}
			if err := runStatements(ctx, r.sides[d].orig, stmts); err != nil {
				if d == devdb.Postgres {
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
		return []string{devdb.Postgres}
	}
	return []string{devdb.Postgres, devdb.TiDB}
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
	since := r.H.Versions[r.planned:v.N]
	renames, err := histories.ReadRenames(since, rules())
	if err != nil {
		r.t.Fatal(err)
	}
	if n := histories.RenamedFrom(imp.Schema, renames); n > 0 {
		src = compiler.Write(imp.Schema, imp.Notes)
		c.Notes = append(c.Notes, fmt.Sprintf("renamed_from written on %d tables and columns", n))
	}
	// generate, as the command does with the file import wrote.
	res, f := compile(src)
	if f != nil {
		c.Failures = append(c.Failures, *f)
		return c
	}
	r.now = r.now.Add(time.Minute)
	name := fmt.Sprintf("v%d", v.N)
	earlier := map[string][]string{}
	var filled map[string][]string
	// A column the history added nullable, filled with an UPDATE and made
	// NOT NULL, which import sees NOT NULL at once (migrate diff refuses
	// it, naming the two steps): the team's two diffs with the history's
	// UPDATEs as the data migration between.
	fills, err := histories.ReadFills(since, corpora.FamilyPostgres, rules()[corpora.FamilyPostgres])
	if err != nil {
		r.t.Fatal(err)
	}
	if cols := histories.TwoSteps(r.plannedModel, imp.Schema, fills); len(cols) > 0 {
		filled = cols
		if earlier, f = r.twoSteps(ctx, c, imp, cols, since, name); f != nil {
			c.Failures = append(c.Failures, *f)
			return c
		}
	}
	r.generate(src, res)
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs []error
	)
	for _, d := range c.Dialects {
		wg.Go(func() {
			fs, notes, err := r.dialectCycle(ctx, r.targets[d], migration.Model(res.Outputs), shapeIn(res.Schema, d), name, v.N, earlier[d], filled)
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
		r.planned, r.plannedModel = v.N, imp.Schema
	}
	return c
}

// generate writes the model's source src and what generate writes of it
// (res), as a team does before migrate diff.
func (r *Replay) generate(src []byte, res *gen.Result) {
	if err := os.WriteFile(filepath.Join(r.dir, "schema.hcl"), src, 0o644); err != nil {
		r.t.Fatal(err)
	}
	if err := gen.Write(filepath.Join(r.dir, "generated"), res.Files()); err != nil {
		r.t.Fatal(err)
	}
}

// compile is generate's compilation of a model's source; a model that
// does not compile is a failure.
func compile(src []byte) (*gen.Result, *Failure) {
	res := gen.CompileSource("schema.hcl", src)
	if !res.Failed() {
		return res, nil
	}
	var msgs []string
	for _, d := range res.Diags {
		msgs = append(msgs, d.Error())
	}
	return nil, &Failure{"compile", "the imported model does not compile: " + strings.Join(msgs, "; ")}
}

// twoSteps writes what a team writes for columns cols (by table) that
// the history added nullable, filled and made NOT NULL: a migrate diff to
// the model with them nullable (name_nullable), then the data migration
// that fills them (backfill); the cycle's diff then makes them NOT NULL.
// It returns the files written, by dialect.
func (r *Replay) twoSteps(ctx context.Context, c *Cycle, imp *importer.Result, cols map[string][]string, since []histories.Version, name string) (map[string][]string, *Failure) {
	src := compiler.Write(histories.Nullable(imp.Schema, cols), imp.Notes)
	res, f := compile(src)
	if f != nil {
		return nil, f
	}
	r.generate(src, res)
	written := map[string][]string{}
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		fails []Failure
	)
	for _, d := range c.Dialects {
		wg.Go(func() {
			w, f, err := r.diff(ctx, r.targets[d], migration.Model(res.Outputs), name+"_nullable")
			if err != nil {
				r.t.Errorf("%s: %v", d, err)
			}
			mu.Lock()
			defer mu.Unlock()
			written[d] = w
			if f != nil {
				fails = append(fails, *f)
			}
		})
	}
	wg.Wait()
	if len(fails) > 0 {
		return nil, &fails[0]
	}
	n := 0
	for _, cs := range cols {
		n += len(cs)
	}
	note, f := r.backfill(ctx, c, res.Schema, cols, since, name+"_backfill", written)
	if f != nil {
		return nil, f
	}
	c.Notes = append(c.Notes, fmt.Sprintf("%d columns made NOT NULL in two diffs: %s", n, note))
	return written, nil
}

// backfill writes the data migration between the two diffs of cols: the
// history's UPDATEs of them since the last planned cycle, read through
// each family's statement rules (histories.Backfill). A team writes it
// once, as a portable data migration (migrate new NAME --data, rendered
// for every database by generate's code), from the PostgreSQL file's
// statements; where the portable checker refuses them (it has no form
// for a JSON literal), it writes it by hand in each dialect's directory
// (migrate new NAME, then migrate hash), from that dialect's family's own
// statements, as the history did. The files written are added to
// written; the note says which.
func (r *Replay) backfill(ctx context.Context, c *Cycle, nullable *compiler.Schema, cols map[string][]string, since []histories.Version, name string, written map[string][]string) (string, *Failure) {
	stmts := map[string][]string{}
	for _, d := range c.Dialects {
		fills, err := histories.ReadFills(since, familyOf(d), rules()[familyOf(d)])
		if err != nil {
			r.t.Fatal(err)
		}
		stmts[d] = histories.Backfill(fills, cols)
	}
	if len(stmts[devdb.Postgres]) == 0 {
		return "no UPDATE of the history fills them (rows left NULL stop the second)", nil
	}
	r.backfills++
	var targets []migration.Target
	for _, d := range c.Dialects {
		targets = append(targets, r.targets[d])
	}
	text := strings.Join(stmts[devdb.Postgres], ";\n") + ";\n"
	// The checker's verdict over the model the first diff reached, which
	// generate gives at the file's version (portable.ModelAt) with a replay
	// of the directory: a file it refuses is not rendered.
	_, diags := datamig.Compile(name+".sql", []byte(text), nullable)
	if !diags.HasErrors() {
		path, err := portable.NewFile(targets, name, r.now)
		if err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
		var rendered *portable.Rendered
		rendered, diags, err = portable.Render(ctx, r.dev, targets)
		if err != nil {
			return "", &Failure{"data", fmt.Sprintf("generate does not render the data migration %s:\n%s\n%v", filepath.Base(path), text, err)}
		}
		if diags.HasErrors() {
			if err := os.Remove(path); err != nil {
				r.t.Fatal(err)
			}
			return "", &Failure{"data", fmt.Sprintf("generate refuses the data migration %s, which the model of the first diff takes:\n%s\n%v", filepath.Base(path), text, diags)}
		}
		if err := gen.Write("", rendered.Files); err != nil {
			r.t.Fatal(err)
		}
		for p := range rendered.Files {
			for _, t := range targets {
				if filepath.Dir(p) == filepath.Clean(t.Env.Dir) && filepath.Base(p) != migrate.HashFileName {
					written[t.Dialect.Name()] = append(written[t.Dialect.Name()], p)
				}
			}
		}
		return fmt.Sprintf("%d UPDATEs of the history between, a portable data migration", len(stmts[devdb.Postgres])), nil
	}
	files, err := migration.NewFile(targets, name, r.now)
	if err != nil {
		r.t.Fatal(err)
	}
	for i, t := range targets {
		d := t.Dialect.Name()
		body := "-- The history's UPDATEs, as its " + familyOf(d) + " files run them.\n"
		if len(stmts[d]) > 0 {
			body += strings.Join(stmts[d], ";\n") + ";\n"
		}
		if err := os.WriteFile(files[i], []byte(body), 0o644); err != nil {
			r.t.Fatal(err)
		}
		dir, err := migration.OpenDir(t.Env.Dir, false)
		if err != nil {
			r.t.Fatal(err)
		}
		if err := migration.Hash(dir); err != nil {
			r.t.Fatal(err)
		}
		written[d] = append(written[d], files[i])
	}
	return fmt.Sprintf("%d UPDATEs of the history between, written by hand for each database (the portable checker refuses them: %s)", len(stmts[devdb.Postgres]), strings.ReplaceAll(diags.Error(), "\n", " ")), nil
}

// diff is migrate diff of target t to model (name), the generated DDL
// loaded on a dev database as the desired state, with the directory's
// state replayed as r.replays keeps it. It returns the files written, or
// the failure (kinds "generated" and "diff"); an error is the harness's.
func (r *Replay) diff(ctx context.Context, t migration.Target, model migration.Model, name string) ([]string, *Failure, error) {
	d := t.Dialect.Name()
	generated, err := migration.SQLState(ctx, r.dev, t, t.Env.Src, model[d].SQL)
	if err != nil {
		return nil, &Failure{"generated " + d, fmt.Sprintf("the generated DDL does not load: %v", err)}, nil
	}
	defer generated.Close()
	return r.plan(ctx, t, model, generated, name)
}

// plan is diff's planning and writing over the desired state generated.
func (r *Replay) plan(ctx context.Context, t migration.Target, model migration.Model, generated *migration.State, name string) ([]string, *Failure, error) {
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
		return nil, &Failure{"diff " + t.Dialect.Name(), err.Error()}, nil
	}
	written, err := migration.Write(planned, name, r.now, nil)
	if err != nil {
		return nil, nil, err
	}
	return written, nil, r.replays.Proven(planned)
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
// comparisons with a fresh database built from generated/. earlier are
// the files the cycle wrote before (twoSteps), applied with the diff's;
// filled are the columns (by table) their data migration fills, whose rows
// it changes on purpose. An error is the harness's own.
func (r *Replay) dialectCycle(ctx context.Context, t migration.Target, model migration.Model, shape *difftest.Model, name string, seed int, earlier []string, filled map[string][]string) (fs []Failure, notes []string, _ error) {
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
	written, f, err := r.plan(ctx, t, model, generated, name)
	if f != nil || err != nil {
		if f != nil {
			fs = append(fs, *f)
		}
		return fs, notes, err
	}
	written = append(earlier, written...)
	sd := r.sides[d]
	kept, keptAfter := withoutColumns(plantest.KeptColumns(sd.shape, shape))(filled)
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

// withoutColumns takes the columns cols (by table, by their new names)
// out of the kept columns before and after a cycle (KeptColumns: the
// tables and columns of each in the same order).
func withoutColumns(before, after *difftest.Model) func(cols map[string][]string) (*difftest.Model, *difftest.Model) {
	return func(cols map[string][]string) (*difftest.Model, *difftest.Model) {
		b, a := &difftest.Model{}, &difftest.Model{}
		for i, at := range after.Tables {
			bt := before.Tables[i]
			nb, na := &difftest.Table{Name: bt.Name}, &difftest.Table{Name: at.Name}
			for j, c := range at.Cols {
				if !slices.Contains(cols[at.Name], c.Name) {
					nb.Cols, na.Cols = append(nb.Cols, bt.Cols[j]), append(na.Cols, c)
				}
			}
			if len(na.Cols) > 0 {
				b.Tables, a.Tables = append(b.Tables, nb), append(a.Tables, na)
			}
		}
		return b, a
	}
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
