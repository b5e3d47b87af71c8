package migration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/migration/proof"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Planned is the migration planned for one target.
type Planned struct {
	Target Target
	Dir    *migrate.LocalDir
	Plan   *migrate.Plan // nil when the directory is up to date
	// Online is the file run after Plan outside a transaction (concurrent
	// index builds, validations); nil when none (see online.go).
	Online *migrate.Plan
	// Cached is set when the cache knew the directory to be up to date.
	Cached bool
	// FromProven is set when the directory's state was started from a
	// kept state (the generated DDL a migrate diff proved a prefix of its
	// files to reach, KeptState) instead of replaying every file.
	FromProven bool
	src        []byte
	exprs      *dialects.Exprs
	cache      *scratch.Cache
}

// Model is schema.hcl rendered for every dialect, by dialect name: what
// the generated files must hold, and the expression texts of that DDL.
type Model map[string]*dialects.Output

// StaleError is a generated file that does not hold what the model
// compiles to (or is missing).
type StaleError struct {
	Env, Src string
	Missing  bool
}

func (e *StaleError) Error() string {
	what := "is stale: schema.hcl compiles to something else"
	if e.Missing {
		what = "is missing"
	}
	return fmt.Sprintf("env %s: %s %s; run `schemagen generate` first, review and commit it", e.Env, e.Src, what)
}

// Generated reads a target's generated file and checks it against the
// model: a forgotten `schemagen generate` is refused with a *StaleError.
func Generated(t Target, model Model) ([]byte, error) {
	src, _, err := generated(t, model)
	return src, err
}

func generated(t Target, model Model) ([]byte, *dialects.Output, error) {
	if t.Env.Src == "" {
		return nil, nil, fmt.Errorf("env %q has no src", t.Env.Name)
	}
	out := model[t.Dialect.Name()]
	if out == nil {
		return nil, nil, fmt.Errorf("env %s: the model has no %s rendering", t.Env.Name, t.Dialect.Name())
	}
	src, err := os.ReadFile(t.Env.Src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, &StaleError{Env: t.Env.Name, Src: t.Env.Src, Missing: true}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("env %s: %w", t.Env.Name, err)
	}
	if !bytes.Equal(src, out.SQL) {
		return nil, nil, &StaleError{Env: t.Env.Name, Src: t.Env.Src}
	}
	return src, out, nil
}

// Plan computes, for every target, the migration from the state its
// directory produces to the state of its generated DDL, which must be what
// model renders. Nothing is written. The targets are planned concurrently;
// cache may be nil.
func Plan(ctx context.Context, dev *scratch.Dev, cache *scratch.Cache, targets []Target, model Model, name string, opts ...PlanOption) ([]*Planned, error) {
	out := make([]*Planned, len(targets))
	for i, t := range targets {
		dir, err := OpenDir(t.Env.Dir, true)
		if err != nil {
			return nil, err
		}
		if err := CheckSum(dir); err != nil {
			return nil, err
		}
		src, rendered, err := generated(t, model)
		if err != nil {
			return nil, err
		}
		out[i] = &Planned{Target: t, Dir: dir, src: src, exprs: rendered.Exprs}
	}
	errs := make([]error, len(out))
	var wg sync.WaitGroup
	for i, p := range out {
		wg.Go(func() {
			files, err := p.Dir.Files()
			if err != nil {
				errs[i] = err
				return
			}
			if err := CheckHistory(cache, p.Target, p.Dir.Path(), files); err != nil {
				errs[i] = fmt.Errorf("env %s: %w", p.Target.Env.Name, err)
				return
			}
			key, err := cache.Key(p.Target.Dialect, p.Target.Env.Dev, p.Dir, p.src)
			if err != nil {
				errs[i] = err
				return
			}
			if cache.InStep(key) {
				p.Cached = true
				return
			}
			p.cache = cache
			if p.Plan, p.Online, err = planTarget(ctx, dev, p, name, opts); err != nil {
				errs[i] = fmt.Errorf("env %s: %w", p.Target.Env.Name, err)
				return
			}
			if p.Plan == nil {
				cache.MarkInStep(key)
				if files, err := p.Dir.Files(); err == nil {
					Keep(cache, p.Target, p.Dir.Path(), files, p.src, nil)
				}
			}
		})
	}
	wg.Wait()
	if errs := distinct(errs); len(errs) > 0 {
		return nil, &PlanError{Errs: errs}
	}
	return out, nil
}

// PlanError is Plan failing for one target or more, each error once (its
// text is errors.Join's).
type PlanError struct{ Errs []error }

func (e *PlanError) Error() string { return errors.Join(e.Errs...).Error() }

// Unwrap returns the targets' errors.
func (e *PlanError) Unwrap() []error { return e.Errs }

// joinDistinct joins errs, leaving out those whose message an earlier one
// has: work done concurrently on one dev server fails alike, and the user
// should read the cause once.
func joinDistinct(errs ...error) error {
	if out := distinct(errs); len(out) > 0 {
		return errors.Join(out...)
	}
	return nil
}

func distinct(errs []error) []error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if err == nil || seen[err.Error()] {
			continue
		}
		seen[err.Error()] = true
		out = append(out, err)
	}
	return out
}

// planTarget diffs what the database reports for the replayed directory
// and for the generated DDL; both are normalised alike, so only real
// changes show. The statements are then planned with the generated DDL's
// own expression texts, never with the text the database printed back:
// PostgreSQL may normalise its printed text into something else again, and
// a directory replayed into a clean database would then differ from the
// generated DDL loaded into another, in Atlas's eyes.
func planTarget(ctx context.Context, dev *scratch.Dev, p *Planned, name string, opts []PlanOption) (_, _ *migrate.Plan, err error) {
	t := p.Target
	files, err := p.Dir.Files()
	if err != nil {
		return nil, nil, err
	}
	// The current and the desired state are built concurrently, each on its
	// own scratch database, kept until planning is done.
	var (
		current, desired *State
		errs             [2]error
		wg               sync.WaitGroup
	)
	defer func() {
		current.Close()
		desired.Close()
	}()
	var c planConfig
	for _, o := range opts {
		o(&c)
	}
	if len(files) == 0 {
		if plan, err := planFirst(ctx, dev, p, c, name); plan != nil || err != nil {
			return plan, nil, err
		}
	}
	wg.Go(func() {
		if c.current != nil {
			current, errs[0] = c.current(ctx, t, p.Dir.Path(), files)
			return
		}
		// The longest prefix of the files whose state is kept is loaded,
		// the files after it replayed; a clean database starts from the
		// latest checkpoint (checkpoint.go).
		current, p.FromProven, errs[0] = KeptState(ctx, dev, p.cache, t, p.Dir.Path(), files)
	})
	wg.Go(func() {
		if c.desired != nil {
			desired, errs[1] = c.desired(ctx, t, p.src)
			return
		}
		desired, errs[1] = SQLState(ctx, dev, t, t.Env.Src, p.src)
	})
	wg.Wait()
	if err := joinDistinct(errs[:]...); err != nil {
		return nil, nil, err
	}
	history, err := rawHistory(t.Dialect, files)
	if err != nil {
		return nil, nil, err
	}
	main, online, err := planStep(ctx, p, current, desired, history, name, opts)
	if err != nil {
		return nil, nil, err
	}
	return prove(ctx, p, current, desired, files, main, online, name, opts)
}

// planStep plans the migration from current to desired (which it
// changes), history being what the directory ran of the raw blocks; nil
// plans when there is nothing to do.
func planStep(ctx context.Context, p *Planned, current, desired *State, history map[string]rawRun, name string, opts []PlanOption) (_, _ *migrate.Plan, err error) {
	t := p.Target
	drv := current.Driver
	var renames []schema.Change
	if p.exprs != nil {
		rb, _ := t.Dialect.(dialects.RuleBook)
		if renames, err = renameChanges(current.Schema, desired.Schema, p.exprs.Renames, foldsCase(rb)); err != nil {
			return nil, nil, err
		}
	}
	split := proof.SplitGenerated(current.Schema, desired.Schema)
	changes, err := drv.SchemaDiff(current.Schema, desired.Schema, schema.DiffNormalized())
	if err != nil {
		return nil, nil, err
	}
	changes = withSplit(changes, split, desired.Schema)
	changes = withRenames(renames, changes)
	objects, err := planObjects(t.Dialect, p.exprs, current.Objects, desired.Objects, history, changes)
	if err != nil {
		return nil, nil, err
	}
	if len(changes) == 0 && objects.empty() {
		return nil, nil, nil
	}
	main, online, err := planExprs(p.exprs, t.Dialect, name, changes, desired.Schema, func(changes []schema.Change) (*migrate.Plan, *migrate.Plan, error) {
		return planChanges(ctx, t, drv, name, changes, opts)
	})
	if err != nil {
		return nil, nil, err
	}
	main.Changes = append(append(objects.before, main.Changes...), objects.after...)
	return main, online, nil
}

// foldsCase reports whether a dialect of rules rb (nil: none) compares
// names without letter case.
func foldsCase(rb dialects.RuleBook) bool {
	return rb != nil && rb.Rules().FoldCase
}

// PlanWithExprs plans changes into to (the state the changes point into,
// which it changes) as Atlas plans them, with the source texts x holds for
// to's objects: every expression as x gives it, and every index x gives as
// a raw statement created by that statement.
func PlanWithExprs(ctx context.Context, d dialects.Atlas, drv migrate.Driver, name string, changes []schema.Change, to *schema.Schema, x *dialects.Exprs) (*migrate.Plan, error) {
	plan, _, err := planExprs(x, d, name, changes, to, func(changes []schema.Change) (*migrate.Plan, *migrate.Plan, error) {
		p, err := drv.PlanChanges(ctx, name, changes, PlanOptions)
		return p, nil, err
	})
	return plan, err
}

// planExprs puts x's texts on to's objects and plans the changes with plan,
// but for the indexes x gives as raw statements, which are added as written.
func planExprs(x *dialects.Exprs, d dialects.Atlas, name string, changes []schema.Change, to *schema.Schema, plan func([]schema.Change) (*migrate.Plan, *migrate.Plan, error)) (main, online *migrate.Plan, err error) {
	d.UseExprs(to, x)
	changes = hazard.RebuildOverRecreated(generatedByDropAdd(changes))
	changes, raw := rawIndexes(changes, x)
	if len(changes) > 0 {
		if main, online, err = plan(changes); err != nil {
			return nil, nil, err
		}
	}
	if main == nil {
		main = &migrate.Plan{Name: name}
	}
	main.Changes = withRaw(main.Changes, raw)
	return main, online, nil
}

// State is a schema as a scratch dev database reports it, with the Atlas
// driver opened there; Close drops the database.
type State struct {
	Schema *schema.Schema
	// Objects are what Atlas does not inspect (nil for a dialect without
	// them): extensions and views.
	Objects *dialects.Objects
	Driver  migrate.Driver
	db      *scratch.DB
	// of is the database of a state read again (Reread), which its Close
	// leaves alone.
	of *scratch.DB
}

// Close drops the state's scratch database; a nil State is fine.
func (s *State) Close() {
	if s != nil && s.db != nil {
		s.db.Close()
	}
}

// DirState replays migration files (of the directory at dirPath) on a new
// scratch database and inspects the result.
func DirState(ctx context.Context, dev *scratch.Dev, t Target, dirPath string, files []migrate.File) (*State, error) {
	return newState(ctx, dev, t, func(drv migrate.Driver) error {
		return replayFiles(ctx, t, drv, dirPath, files)
	})
}

// ReplayOn replays more files of the directory at dirPath on the database
// of state s, after those it holds, as DirState would (Reread then reads
// it). On an error the database is left as the failed file left it.
func ReplayOn(ctx context.Context, t Target, s *State, dirPath string, files []migrate.File) error {
	return replayFiles(ctx, t, s.Driver, dirPath, files)
}

func replayFiles(ctx context.Context, t Target, drv migrate.Driver, dirPath string, files []migrate.File) error {
	if len(files) == 0 {
		return nil
	}
	sources := make([]string, len(files))
	for i, f := range files {
		sources[i] = filepath.Join(dirPath, f.Name())
	}
	Replayed(dirPath, files...)
	if err := scratch.Replay(ctx, drv, files, sources); err != nil {
		var ee *scratch.ExecError
		if errors.As(err, &ee) {
			return ReplayFailure(t.Env.Name, err)
		}
		return fmt.Errorf("replaying the migration directory: %w", err)
	}
	return nil
}

// SQLState runs a DDL script (a generated file named source) on a new
// scratch database and inspects the result.
func SQLState(ctx context.Context, dev *scratch.Dev, t Target, source string, sql []byte) (*State, error) {
	return newState(ctx, dev, t, func(drv migrate.Driver) error {
		if err := scratch.Exec(ctx, drv, source, sql); err != nil {
			return fmt.Errorf("loading the generated schema: %w", err)
		}
		return nil
	})
}

func newState(ctx context.Context, dev *scratch.Dev, t Target, load func(migrate.Driver) error) (*State, error) {
	db, err := dev.Scratch(ctx, t.Dialect, t.Env.Dev)
	if err != nil {
		return nil, err
	}
	s := &State{db: db}
	if s.Driver, err = t.Dialect.OpenAtlas(db); err != nil {
		s.Close()
		return nil, err
	}
	if err := load(s.Driver); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.read(ctx, t); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// read inspects the state's database.
func (s *State) read(ctx context.Context, t Target) (err error) {
	if s.Schema, err = scratch.Inspect(ctx, s.Driver); err != nil {
		return err
	}
	if od, ok := t.Dialect.(dialects.ObjectDialect); ok {
		if s.Objects, err = od.ReadObjects(ctx, s.Driver); err != nil {
			return err
		}
	}
	return nil
}

// Reread inspects the database of state s again, for a caller that hands
// one loaded state to several plans (DesiredFrom): the State it returns is
// a new inspection, which a plan may change, and its Close leaves the
// database to s.
func Reread(ctx context.Context, t Target, s *State) (*State, error) {
	n := &State{Driver: s.Driver, of: s.DB()}
	if err := n.read(ctx, t); err != nil {
		return nil, err
	}
	return n, nil
}

// DB is the scratch database the state was read from.
func (s *State) DB() *scratch.DB {
	if s.db != nil {
		return s.db
	}
	return s.of
}

// PlanOptions are the options of every plan schemagen writes: no schema
// qualifier (a file applies to any database) and indented statements.
func PlanOptions(o *migrate.PlanOptions) {
	o.SchemaQualifier = new(string)
	o.Indent = "  "
}

// Write writes the planned files, all with one version, and updates each
// directory's atlas.sum. It returns the paths written. The directories then
// produce the generated DDL, which the cache (nil for none) remembers.
func Write(planned []*Planned, name string, now time.Time, cache *scratch.Cache) ([]string, error) {
	var dirs []*migrate.LocalDir
	for _, p := range planned {
		if p.Plan != nil {
			dirs = append(dirs, p.Dir)
		}
	}
	if len(dirs) == 0 {
		return nil, nil
	}
	version, err := NextVersion(now, dirs...)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, p := range planned {
		if p.Plan == nil {
			continue
		}
		p.Plan.Version, p.Plan.Name = version, name
		content, err := Format(p.Plan)
		if err != nil {
			return written, err
		}
		file := FileName(version, name)
		if err := p.Dir.WriteFile(file, content); err != nil {
			return written, err
		}
		written = append(written, filepath.Join(p.Dir.Path(), file))
		if p.Online != nil {
			path, err := writeOnline(p, version, name)
			if err != nil {
				return written, err
			}
			written = append(written, path)
		}
		if err := Hash(p.Dir); err != nil {
			return written, err
		}
		if key, err := cache.Key(p.Target.Dialect, p.Target.Env.Dev, p.Dir, p.src); err == nil {
			cache.MarkInStep(key)
		}
		// The file was proven: the directory now reaches the generated
		// DDL's state, which the next diff loads instead of replaying.
		if files, err := p.Dir.Files(); err == nil {
			var wrote []string
			for _, f := range files {
				if v := f.Version(); v == version {
					wrote = append(wrote, f.Name())
				}
			}
			Keep(cache, p.Target, p.Dir.Path(), files, p.src, wrote)
		}
	}
	return written, nil
}

// Format renders a plan exactly as the Atlas CLI writes migration files.
func Format(plan *migrate.Plan) ([]byte, error) {
	files, err := migrate.DefaultFormatter.Format(plan)
	if err != nil {
		return nil, err
	}
	if len(files) != 1 {
		return nil, fmt.Errorf("formatting plan %s: %d files", plan.Name, len(files))
	}
	return files[0].Bytes(), nil
}

// NewFile writes an empty migration file with one version in every
// directory (for data migrations) and updates their atlas.sum.
func NewFile(targets []Target, name string, now time.Time) ([]string, error) {
	var dirs []*migrate.LocalDir
	for _, t := range targets {
		dir, err := OpenDir(t.Env.Dir, true)
		if err != nil {
			return nil, err
		}
		if err := CheckSum(dir); err != nil {
			return nil, err
		}
		dirs = append(dirs, dir)
	}
	version, err := NextVersion(now, dirs...)
	if err != nil {
		return nil, err
	}
	var written []string
	for _, dir := range dirs {
		file := FileName(version, name)
		if err := dir.WriteFile(file, nil); err != nil {
			return written, err
		}
		written = append(written, filepath.Join(dir.Path(), file))
		if err := Hash(dir); err != nil {
			return written, err
		}
	}
	return written, nil
}

// withSplit adds the drop and add of the columns SplitGenerated took out
// first in their tables' changes, and puts the columns back into to.
func withSplit(changes []schema.Change, split map[string][]*schema.Column, to *schema.Schema) []schema.Change {
	for _, table := range slices.Sorted(maps.Keys(split)) {
		cols := split[table]
		var add []schema.Change
		for i := 0; i < len(cols); i += 2 {
			add = append(add, &schema.DropColumn{C: cols[i]}, &schema.AddColumn{C: cols[i+1]})
		}
		t, _ := to.Table(table)
		for i := 1; i < len(cols); i += 2 {
			t.Columns = append(t.Columns, cols[i])
		}
		found := false
		for _, ch := range changes {
			if mt, ok := ch.(*schema.ModifyTable); ok && mt.T.Name == table {
				mt.Changes = append(add, mt.Changes...)
				found = true
			}
		}
		if !found {
			changes = append(changes, &schema.ModifyTable{T: t, Changes: add})
		}
	}
	return changes
}

// generatedByDropAdd plans a plain column that becomes generated as a drop
// and an add of the column: neither database turns a plain column into a
// generated one in place, and its values are computed again from the
// expression (the rows are kept).
func generatedByDropAdd(changes []schema.Change) []schema.Change {
	return hazard.SplitModifies(changes, func(mc *schema.ModifyColumn) (schema.Change, schema.Change, bool) {
		return &schema.DropColumn{C: mc.From}, &schema.AddColumn{C: mc.To}, !proof.IsGenerated(mc.From) && proof.IsGenerated(mc.To)
	})
}
