// Package drift compares live databases with what the migration directory
// and the model say they should be, read-only.
package drift

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/redact"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Status of a target, also its exit code.
const (
	NoDrift    = 0
	Drift      = 1
	CouldNotDo = 2
)

// Finding is one object that differs.
type Finding struct {
	// Change is "missing" (expected, not found), "extra" (found, not
	// expected) or "changed".
	Change string `json:"change"`
	// Kind is table, column, index, foreign_key, check, table_attribute,
	// extension, view or trigger.
	Kind     string `json:"kind"`
	Table    string `json:"table"`
	Name     string `json:"name,omitempty"`
	Expected string `json:"expected,omitempty"`
	Found    string `json:"found,omitempty"`
}

// Comparison is a database compared with one expected state.
type Comparison struct {
	// Against is "migrations" (the directory replayed to the database's
	// version) or "model" (the generated DDL of schema.hcl).
	Against  string    `json:"against"`
	Findings []Finding `json:"findings"`
	// Fix is the SQL that would bring the database to the expected state.
	Fix []string `json:"fix"`
}

// Report is the result for one target database.
type Report struct {
	Target  string `json:"target"` // the URL, password redacted
	Env     string `json:"env"`
	Dialect string `json:"dialect"`
	// Version is the last fully applied migration, "" when none.
	Version string `json:"version"`
	// Partial is a migration that failed part-way, if any.
	Partial *Partial `json:"partial,omitempty"`
	// Pending are the directory's files not applied yet.
	Pending        []string    `json:"pending"`
	ServerWarnings []string    `json:"server_warnings"`
	Migrations     *Comparison `json:"migrations,omitempty"`
	Model          *Comparison `json:"model,omitempty"`
	Error          string      `json:"error,omitempty"`
	Status         int         `json:"status"`
	Seconds        float64     `json:"seconds"`
}

// Partial is a partly applied migration file.
type Partial struct {
	Version string `json:"version"`
	Applied int    `json:"applied"`
	Total   int    `json:"total"`
	Error   string `json:"error,omitempty"`
}

// Options configure a drift check.
type Options struct {
	Target migration.Target
	Dev    *scratch.Dev
	// Ignore are table name patterns (globs) left out of the comparison,
	// besides the revisions table.
	Ignore []string
	// Timeout bounds each target's check; 0 for none.
	Timeout time.Duration
	// Parallel bounds how many targets are checked at once.
	Parallel int
	// Cache keeps the expected states between runs; nil for none.
	Cache *scratch.Cache
	// Model is schema.hcl compiled; the env's generated file must hold it.
	Model migration.Model
}

// Check checks every URL against the env's migration directory and model.
// Reports come back in the order of urls; one target's failure never hides
// another's result.
func Check(ctx context.Context, opts Options, urls []string) []*Report {
	c := &checker{opts: opts, states: map[string]*lazyState{}, ctx: ctx}
	reports := make([]*Report, len(urls))
	sem := make(chan struct{}, max(1, opts.Parallel))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			reports[i] = c.check(ctx, u)
		})
	}
	wg.Wait()
	return reports
}

type checker struct {
	opts Options
	// ctx builds the shared expected states, which must not fail with the
	// timeout of the target that happened to ask first.
	ctx    context.Context
	mu     sync.Mutex
	states map[string]*lazyState
}

// lazyState is an expected state built once and shared by all targets.
type lazyState struct {
	once  sync.Once
	state *scratch.StoredState
	err   error
}

// state returns the expected state identified by parts: from this run, else
// from the cache, else built on a dev database.
func (c *checker) state(parts []string, build func() (*schema.Schema, *dialects.Objects, error)) (*scratch.StoredState, error) {
	key := strings.Join(parts, "\x00")
	c.mu.Lock()
	s := c.states[key]
	if s == nil {
		s = &lazyState{}
		c.states[key] = s
	}
	c.mu.Unlock()
	s.once.Do(func() {
		s.state, s.err = c.opts.Cache.Stored(c.opts.Target.Dialect, c.opts.Target.Env.Dev, parts, build)
	})
	return s.state, s.err
}

// fromDev inspects a state built on a scratch dev database and drops it.
func fromDev(st *migration.State, err error) (*schema.Schema, *dialects.Objects, error) {
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	return st.Schema, st.Objects, nil
}

func (c *checker) check(parent context.Context, rawURL string) *Report {
	start := time.Now()
	t := c.opts.Target
	r := &Report{Target: redact.URL(rawURL), Env: t.Env.Name, Dialect: t.Dialect.Name(), Pending: []string{}, ServerWarnings: []string{}}
	ctx := parent
	if c.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(parent, c.opts.Timeout)
		defer cancel()
	}
	err := c.run(ctx, rawURL, r)
	r.Seconds = time.Since(start).Seconds()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s: %w", c.opts.Timeout, err)
		}
		r.Error = redact.Secrets(err.Error(), redact.Password(rawURL))
		r.Status = CouldNotDo
		var sum *migration.SumError
		var edited *deploy.EditedError
		if errors.As(err, &sum) || errors.As(err, &edited) {
			// The history is wrong, not the check: a finding.
			r.Status = Drift
		}
		return r
	}
	if len(r.ServerWarnings) > 0 || r.Partial != nil ||
		r.Migrations != nil && len(r.Migrations.Findings) > 0 || r.Model != nil && len(r.Model.Findings) > 0 {
		r.Status = Drift
	}
	return r
}

func (c *checker) run(ctx context.Context, rawURL string, r *Report) error {
	t := c.opts.Target
	if d, err := devdb.DialectOf(rawURL); err != nil {
		return err
	} else if d != t.Dialect.Name() {
		return fmt.Errorf("env %s is %s, but the URL is %s", t.Env.Name, t.Dialect.Name(), d)
	}
	db, err := devdb.Open(rawURL)
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", devdb.Host(rawURL), err)
	}
	defer conn.Close()
	// One session reads everything, in as few round trips as the dialect
	// allows: a second session costs a connection, more than its queries
	// save by running beside the inspection.
	drv, err := t.Dialect.OpenAtlas(conn)
	if err != nil {
		return err
	}
	live, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: append([]string{dialects.RevisionTable}, c.opts.Ignore...)})
	if err != nil {
		return fmt.Errorf("inspecting %s: %w", devdb.Host(rawURL), err)
	}
	warnings, err := t.Dialect.ServerWarnings(ctx, conn)
	if err != nil {
		return err
	}
	r.ServerWarnings = nil
	for _, w := range warnings {
		r.ServerWarnings = append(r.ServerWarnings, w.Text)
	}
	files, err := c.history(ctx, conn, r)
	if err != nil {
		return err
	}
	if r.ServerWarnings == nil {
		r.ServerWarnings = []string{}
	}
	live.Name = ""
	var liveObjects *dialects.Objects
	if od, ok := t.Dialect.(dialects.ObjectDialect); ok {
		if liveObjects, err = od.ReadObjects(ctx, conn); err != nil {
			return fmt.Errorf("inspecting %s: %w", devdb.Host(rawURL), err)
		}
	}
	// Without drift the live state has the expected state's fingerprint, and
	// the comparison needs neither to read that back nor to diff.
	liveFP := scratch.Fingerprint(live)
	parts := []string{"migrations"}
	for _, f := range files {
		parts = append(parts, f.Name(), string(f.Bytes()))
	}
	atVersion, err := c.state(parts, func() (*schema.Schema, *dialects.Objects, error) {
		return fromDev(migration.DirState(c.ctx, c.opts.Dev, t, t.Env.Dir, files))
	})
	if err != nil {
		return err
	}
	model, err := c.model()
	if err != nil {
		return err
	}
	// Diffs and plans need no database: the live connection's driver does
	// them, and only reads. Fixes hold the model's expression texts, where
	// the state at the database's version holds the model's objects.
	atVersionExprs := func() (*dialects.Exprs, error) {
		s, err := atVersion.Schema()
		if err != nil {
			return nil, err
		}
		m, err := model.Schema()
		if err != nil {
			return nil, err
		}
		return migration.SameExprs(s, m, c.exprs()), nil
	}
	if r.Migrations, err = c.compare(ctx, "migrations", drv, live, liveFP, atVersion, atVersionExprs); err != nil {
		return err
	}
	c.compareObjects(r.Migrations, liveObjects, atVersion.Objects, model.Objects)
	if r.Model, err = c.compare(ctx, "model", drv, live, liveFP, model, func() (*dialects.Exprs, error) { return c.exprs(), nil }); err != nil {
		return err
	}
	c.compareObjects(r.Model, liveObjects, model.Objects, model.Objects)
	return nil
}

// compareObjects adds to cmp how the live database's extensions and views
// differ from the expected ones, with fixes: a missing extension is
// created; a view that is missing, differs or is not expected is dropped,
// and created by the model's statement where the expected view is the
// model's (model holds the model's objects). Extensions the database has
// beyond the expected ones are its operators' business, not drift.
func (c *checker) compareObjects(cmp *Comparison, live, want, model *dialects.Objects) {
	od, ok := c.opts.Target.Dialect.(dialects.ObjectDialect)
	if !ok || live == nil || want == nil {
		return
	}
	for _, e := range want.Extensions {
		if !slices.Contains(live.Extensions, e) {
			cmp.Findings = append(cmp.Findings, Finding{Change: "missing", Kind: "extension", Table: e, Expected: "installed"})
			cmp.Fix = append([]string{od.CreateExtension(e) + ";"}, cmp.Fix...)
		}
	}
	stmts := map[string]string{}
	if x := c.exprs(); x != nil {
		for _, r := range x.Raw {
			if v, ok := od.CreatedView(r.SQL); ok {
				stmts[v] = r.SQL
			}
		}
	}
	names := make([]string, 0, len(want.Views)+len(live.Views))
	for v := range want.Views {
		names = append(names, v)
	}
	for v := range live.Views {
		if _, ok := want.Views[v]; !ok {
			names = append(names, v)
		}
	}
	slices.Sort(names)
	for _, v := range names {
		def, expected := want.Views[v]
		found, there := live.Views[v]
		switch {
		case expected && !there:
			cmp.Findings = append(cmp.Findings, Finding{Change: "missing", Kind: "view", Table: v, Expected: def})
		case !expected:
			cmp.Findings = append(cmp.Findings, Finding{Change: "extra", Kind: "view", Table: v, Found: found})
		case def != found:
			cmp.Findings = append(cmp.Findings, Finding{Change: "changed", Kind: "view", Table: v, Expected: def, Found: found})
		default:
			continue
		}
		if there {
			cmp.Fix = append(cmp.Fix, od.DropView(v)+";")
		}
		if stmt, ok := stmts[v]; ok && expected && model != nil && model.Views[v] == def {
			cmp.Fix = append(cmp.Fix, stmt+";")
		}
	}
	c.compareTriggers(cmp, live, want, model)
}

// compareTriggers adds to cmp how the live database's triggers that the
// model writes (on_update) differ from the expected ones, with fixes: one
// that differs, is missing or is not expected is dropped with its function
// (where they exist), and the model's is created where the expected trigger
// is the model's.
func (c *checker) compareTriggers(cmp *Comparison, live, want, model *dialects.Objects) {
	td, ok := c.opts.Target.Dialect.(dialects.TriggerDialect)
	if !ok {
		return
	}
	var after map[string][]string
	if x := c.exprs(); x != nil {
		after = x.After
	}
	names := slices.Sorted(maps.Keys(want.Triggers))
	for n := range live.Triggers {
		if _, ok := want.Triggers[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		w, expected := want.Triggers[n]
		l, there := live.Triggers[n]
		switch {
		case expected && !there:
			cmp.Findings = append(cmp.Findings, Finding{Change: "missing", Kind: "trigger", Table: w.Table, Name: n, Expected: w.Def})
		case !expected:
			cmp.Findings = append(cmp.Findings, Finding{Change: "extra", Kind: "trigger", Table: l.Table, Name: n, Found: l.Def})
		case w != l:
			cmp.Findings = append(cmp.Findings, Finding{Change: "changed", Kind: "trigger", Table: w.Table, Name: n, Expected: w.Def, Found: l.Def})
		default:
			continue
		}
		// Dropped (IF EXISTS) also when missing: a trigger dropped by hand
		// leaves its function.
		table := l.Table
		if !there {
			table = w.Table
		}
		for _, stmt := range td.DropTrigger(table, n) {
			cmp.Fix = append(cmp.Fix, stmt+";")
		}
		if expected && model != nil && model.Triggers[n] == w {
			for _, stmt := range after[w.Table] {
				cmp.Fix = append(cmp.Fix, stmt+";")
			}
		}
	}
}

// history reads the applied version and returns the files up to it; the
// others are pending.
func (c *checker) history(ctx context.Context, conn schema.ExecQuerier, r *Report) ([]migrate.File, error) {
	t := c.opts.Target
	dir, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return nil, err
	}
	// A directory that does not match its atlas.sum, or whose files the
	// database applied have changed since, is not the history the database
	// ran: replaying it would report drift that is not there.
	if err := migration.CheckSum(dir); err != nil {
		return nil, err
	}
	all, err := dir.Files()
	if err != nil {
		return nil, err
	}
	applied, _, err := t.Dialect.Revisions(conn).ReadIfExists(ctx)
	if err != nil {
		return nil, err
	}
	if err := deploy.Unchanged(dir, applied); err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, rev := range applied {
		if rev.Applied < rev.Total || rev.Error != "" {
			r.Partial = &Partial{Version: rev.Version, Applied: rev.Applied, Total: rev.Total, Error: rev.Error}
			continue
		}
		done[rev.Version] = true
		if rev.Version > r.Version {
			r.Version = rev.Version
		}
	}
	// A database that started from a checkpoint never runs the files
	// before it; one with a history goes on after a checkpoint and never
	// runs it (Atlas's executor).
	started := ""
	for _, f := range all {
		if done[f.Version()] && migration.IsCheckpoint(f) {
			started = f.Version()
		}
	}
	var files []migrate.File
	for _, f := range all {
		switch {
		case done[f.Version()]:
			files = append(files, f)
		case len(done) > 0 && migration.IsCheckpoint(f), f.Version() < started:
		default:
			r.Pending = append(r.Pending, f.Name())
		}
	}
	return migration.FromCheckpoint(files), nil
}

// model is the state of the generated DDL, which must be what the model
// compiles to. Migrations hold the generated DDL's own text, so a database
// they built reports what this one does.
func (c *checker) model() (*scratch.StoredState, error) {
	t := c.opts.Target
	src, err := migration.Generated(t, c.opts.Model)
	if err != nil {
		return nil, err
	}
	return c.state([]string{"model", string(src)}, func() (*schema.Schema, *dialects.Objects, error) {
		return fromDev(migration.SQLState(c.ctx, c.opts.Dev, t, t.Env.Src, src))
	})
}

// ignored removes the ignored tables from an expected state (the live one
// was inspected without them).
func (c *checker) ignored(s *schema.Schema) *schema.Schema {
	if len(c.opts.Ignore) == 0 {
		return s
	}
	out := *s
	out.Tables = slices.DeleteFunc(slices.Clone(s.Tables), func(t *schema.Table) bool { return matchAny(c.opts.Ignore, t.Name) })
	return &out
}

// compare diffs the live state against an expected one.
// The fix is planned with the expression texts exprs returns, the source
// texts of the expected state's objects where known.
func (c *checker) compare(ctx context.Context, against string, drv migrate.Driver, live *schema.Schema, liveFP string, expected *scratch.StoredState, exprs func() (*dialects.Exprs, error)) (*Comparison, error) {
	if liveFP == expected.Fingerprint {
		return &Comparison{Against: against, Findings: []Finding{}, Fix: []string{}}, nil
	}
	want, err := expected.Schema()
	if err != nil {
		return nil, err
	}
	changes, err := drv.SchemaDiff(live, c.ignored(want), schema.DiffNormalized())
	if err != nil {
		return nil, err
	}
	cmp := &Comparison{Against: against, Findings: findings(c.opts.Target.Dialect, changes, live), Fix: []string{}}
	// What Atlas's diff does not see, as migrate diff's proof sees it.
	for _, d := range migration.Details(live, want) {
		if !slices.ContainsFunc(cmp.Findings, func(f Finding) bool { return f.Table == d.Table && f.Name == d.Column }) {
			cmp.Findings = append(cmp.Findings, Finding{Change: "changed", Kind: "column", Table: d.Table, Name: d.Column, Expected: d.Want, Found: d.Found})
		}
	}
	if len(changes) > 0 {
		// The fix holds the model's expression texts, as migrations do; the
		// expected state is shared by all targets, so it is set on a copy.
		x, err := exprs()
		if err != nil {
			return nil, err
		}
		d := c.opts.Target.Dialect
		b, err := d.MarshalState(want)
		if err != nil {
			return nil, err
		}
		own, err := d.UnmarshalState(b)
		if err != nil {
			return nil, err
		}
		if changes, err = drv.SchemaDiff(live, c.ignored(own), schema.DiffNormalized()); err != nil {
			return nil, err
		}
		plan, err := migration.PlanWithExprs(ctx, d, drv, "drift", changes, own, x)
		if err != nil {
			return nil, fmt.Errorf("planning the fix: %w", err)
		}
		for _, ch := range plan.Changes {
			cmp.Fix = append(cmp.Fix, strings.TrimRight(ch.Cmd, ";")+";")
		}
	}
	return cmp, nil
}

// exprs are the model's expression texts, nil without a model.
func (c *checker) exprs() *dialects.Exprs {
	if out := c.opts.Model[c.opts.Target.Dialect.Name()]; out != nil {
		return out.Exprs
	}
	return nil
}

// Describe describes a finding in one line.
func (f Finding) Describe() string {
	obj := strings.ReplaceAll(f.Kind, "_", " ") + " " + f.Table
	switch {
	case f.Table == "" && f.Name != "":
		obj += f.Name // an enum, a schema's object
	case f.Name != "":
		obj += "." + f.Name
	}
	switch f.Change {
	case "missing":
		return fmt.Sprintf("%s is missing (expected %s)", obj, f.Expected)
	case "extra":
		return fmt.Sprintf("%s is not expected (found %s)", obj, f.Found)
	}
	return fmt.Sprintf("%s differs: expected %s, found %s", obj, f.Expected, f.Found)
}
