package deploy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/online"
	"github.com/schemagen/schemagen/internal/scratch"
)

// DownOptions configure Down.
type DownOptions struct {
	URL         string
	LockTimeout time.Duration
	// Steps is the number of applied versions to revert (1 when neither it
	// nor To is set); To the version to revert to ("" with Steps).
	Steps int
	To    string
	// AllowDataLoss lets the down drop tables with rows and columns holding
	// values; without it they are refused (a *DataLossError).
	AllowDataLoss bool
	// DryRun plans, proves and runs the pre-checks, and changes nothing.
	DryRun bool
	// Dev gives the scratch databases the plan is built and proven on.
	Dev               *scratch.Dev
	Progress, Notices io.Writer
}

// DownResult is what one Down did, or would do (DryRun).
type DownResult struct {
	// From and To are the database's versions before and after ("" for
	// none).
	From, To string
	// Reverted are the files whose revisions are removed, newest first.
	Reverted []string
	// Stmts are the statements of the down plan, in order.
	Stmts []string
	// Lost names what the plan drops that holds data (allowed).
	Lost []string
	// Found are the pre-checks' findings: rows that would make a statement
	// of the plan fail.
	Found  []string
	DryRun bool
}

// DataLossError is a down refused because it would drop data.
type DataLossError struct {
	Lost []string
}

func (e *DataLossError) Error() string {
	return fmt.Sprintf("the down would lose data, so nothing is changed:\n  %s\nCopy what must be kept, or pass --allow-data-loss to drop it.", strings.Join(e.Lost, "\n  "))
}

// DownPrecheckError is a down refused because existing rows would make a
// statement of its plan fail.
type DownPrecheckError struct{ Found []string }

func (e *DownPrecheckError) Error() string {
	return fmt.Sprintf("the down would fail half-way on existing rows, so nothing is changed:\n  %s\nFix the rows, then run `schemagen migrate down` again.", strings.Join(e.Found, "\n  "))
}

// NotAtVersionError is a database whose schema is not the one its directory
// makes at its version: the down plan, computed from that version's state,
// would not fit it.
type NotAtVersionError struct {
	Version string
	Diff    []string
}

func (e *NotAtVersionError) Error() string {
	return fmt.Sprintf("the database's schema is not the state of the migration directory at version %s, which the down is planned and proven from:\n  %s\nRepair it (`schemagen drift` shows the difference), or record what it is with `schemagen migrate set`.",
		orNone(e.Version), strings.Join(e.Diff, "\n  "))
}

func orNone(v string) string {
	if v == "" {
		return "none"
	}
	return v
}

// DownError is a statement of the down plan that the database refused.
type DownError struct {
	Stmt       int
	SQL        string
	Err        error
	RolledBack bool
}

func (e *DownError) Error() string {
	what := "The statements before it stay applied (TiDB commits each DDL statement); the revisions are unchanged. Once the cause is fixed, run `schemagen migrate down` again, or finish by hand and run `schemagen migrate set VERSION`."
	if e.RolledBack {
		what = "The down ran in one transaction, which was rolled back: nothing is changed."
	}
	return fmt.Sprintf("statement %d of the down plan failed: %v\n\n    %s\n\n%s", e.Stmt, e.Err, strings.ReplaceAll(e.SQL, "\n", "\n    "), what)
}

func (e *DownError) Unwrap() error { return e.Err }

// Down reverts the last applied versions of the database at opts.URL: it
// plans, from the database's state, the change to the state the directory
// has at the target version (built on a scratch dev database), proves the
// plan on a scratch database holding the directory's state at the current
// version (it must reach the target's state exactly), runs the pre-checks
// (tables with rows and columns holding values that the plan drops are
// refused without AllowDataLoss), then applies it under LockName and
// removes the reverted files' revisions, as the Atlas CLI's migrate down
// does. On PostgreSQL the statements and the revisions change in one
// transaction.
func Down(ctx context.Context, t migration.Target, opts DownOptions) (*DownResult, error) {
	dir, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return nil, err
	}
	if err := migration.CheckSum(dir); err != nil {
		return nil, err
	}
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	db, err := openTarget(ctx, t, opts.URL)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, connError(opts.URL, err)
	}
	defer conn.Close()
	drv, err := t.Dialect.OpenAtlas(conn)
	if err != nil {
		return nil, connError(opts.URL, err)
	}
	if !opts.DryRun {
		unlock, err := lock(ctx, drv, ApplyOptions{URL: opts.URL, LockTimeout: opts.LockTimeout, Notices: opts.Notices})
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	done, _, err := t.Dialect.Revisions(conn).ReadIfExists(ctx)
	if err != nil {
		return nil, connError(opts.URL, err)
	}
	res := &DownResult{From: currentVersion(done), DryRun: opts.DryRun}
	if n := len(done); n > 0 && (done[n-1].Applied != done[n-1].Total || done[n-1].Error != "") {
		return nil, targetErr("the last apply stopped in version %s (%d of %d statements applied): finish it with `schemagen migrate apply`, or repair it and record it with `schemagen migrate set`, before a down", done[n-1].Version, done[n-1].Applied, done[n-1].Total)
	}
	target, reverted, err := downTarget(done, files, opts)
	if err != nil {
		return nil, err
	}
	res.To, res.Reverted = target, reverted
	plan, err := planDown(ctx, t, dir.Path(), files, res.From, target, conn, drv, opts)
	if err != nil {
		return nil, err
	}
	res.Stmts = plan.stmts
	if res.Lost, err = lostData(ctx, t, conn, plan.changes); err != nil {
		return nil, err
	}
	if len(res.Lost) > 0 && !opts.AllowDataLoss {
		return res, &DataLossError{Lost: res.Lost}
	}
	if res.Found, err = online.Prechecks(ctx, t.Online(), conn, plan.checked); err != nil {
		return res, fmt.Errorf("running the down's pre-checks: %w", err)
	}
	if len(res.Found) > 0 {
		return res, &DownPrecheckError{Found: res.Found}
	}
	if opts.DryRun {
		return res, nil
	}
	return res, runDown(ctx, t, conn, res, opts)
}

// DownTargetError is a down whose target the database's history does not
// have (nothing applied, too few versions, a version not applied), or whose
// last apply stopped part-way.
type DownTargetError struct{ Msg string }

func (e *DownTargetError) Error() string { return e.Msg }

func targetErr(format string, args ...any) error {
	return &DownTargetError{Msg: fmt.Sprintf(format, args...)}
}

// downTarget is the version to revert to and the versions reverted, newest
// first. A PostgreSQL online file (NAME_online, one second after its
// migration) is part of its migration: it is not counted in Steps, and
// --to a migration keeps its online file.
func downTarget(done []*migrate.Revision, files []migrate.File, opts DownOptions) (string, []string, error) {
	online := map[string]bool{}
	for i, f := range files {
		if migration.OnlinePart(files, i) {
			online[f.Version()] = true
		}
	}
	var applied []string
	for _, r := range done {
		applied = append(applied, r.Version)
	}
	if len(applied) == 0 {
		return "", nil, targetErr("the database has no applied migration to revert")
	}
	steps := max(opts.Steps, 1)
	i := len(applied)
	for n := 0; n < steps && i > 0; {
		i--
		if !online[applied[i]] {
			n++
		}
		if n < steps && i == 0 {
			i = -1
		}
	}
	if opts.To != "" {
		if opts.Steps > 0 {
			return "", nil, targetErr("give a number of versions or --to, not both")
		}
		i = slices.Index(applied, opts.To)
		if i < 0 {
			return "", nil, targetErr("the database has not applied version %s (it applied %s)", opts.To, strings.Join(applied, ", "))
		}
		i++ // the files after To
		for i < len(applied) && online[applied[i]] {
			i++
		}
		if i == len(applied) {
			return "", nil, targetErr("the database is at version %s already", opts.To)
		}
	}
	if i < 0 {
		n := 0
		for _, v := range applied {
			if !online[v] {
				n++
			}
		}
		return "", nil, targetErr("the database applied %d migrations, fewer than %d", n, opts.Steps)
	}
	target := ""
	if i > 0 {
		target = applied[i-1]
	}
	reverted := slices.Clone(applied[i:])
	slices.Reverse(reverted)
	return target, reverted, nil
}

type downPlan struct {
	stmts   []string
	changes []schema.Change
	checked []*migrate.Stmt // the statements with their comments
}

// upTo is what a clean database runs of files to reach version ("": none).
func upTo(files []migrate.File, version string) []migrate.File {
	var out []migrate.File
	for _, f := range files {
		if version != "" && f.Version() <= version {
			out = append(out, f)
		}
	}
	return migration.FromCheckpoint(out)
}

// planDown builds the states of the directory at the database's version and
// at the target on scratch databases, checks that the database has the
// first, plans the change to the second and proves it on the first.
func planDown(ctx context.Context, t migration.Target, dirPath string, files []migrate.File, from, to string, conn *sql.Conn, drv migrate.Driver, opts DownOptions) (*downPlan, error) {
	var (
		current, desired *migration.State
		errs             [2]error
		wg               sync.WaitGroup
	)
	defer func() {
		current.Close()
		desired.Close()
	}()
	wg.Go(func() { current, errs[0] = migration.DirState(ctx, opts.Dev, t, dirPath, upTo(files, from)) })
	wg.Go(func() { desired, errs[1] = migration.DirState(ctx, opts.Dev, t, dirPath, upTo(files, to)) })
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	live, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{dialects.RevisionTable}})
	if err != nil {
		return nil, connError(opts.URL, err)
	}
	live.Name = ""
	if scratch.Fingerprint(live) != scratch.Fingerprint(current.Schema) {
		diff, err := drv.SchemaDiff(live, current.Schema, schema.DiffNormalized())
		if err != nil {
			return nil, err
		}
		if len(diff) > 0 {
			// A down that stopped part-way and was finished by hand (or
			// whose last statement the server finished) leaves the
			// target's state: only the revisions are left to remove.
			if rest, err := drv.SchemaDiff(live, desired.Schema, schema.DiffNormalized()); err == nil && len(rest) == 0 {
				return &downPlan{}, nil
			}
			return nil, &NotAtVersionError{Version: from, Diff: describeChanges(t, diff)}
		}
	}
	// Planned from the database's state; it diffs equal to the scratch
	// copy's, whose driver plans without reading the database.
	changes, err := current.Driver.SchemaDiff(current.Schema, desired.Schema, schema.DiffNormalized())
	if err != nil {
		return nil, err
	}
	p := &downPlan{changes: changes}
	if len(changes) == 0 {
		return p, nil
	}
	plan, err := migration.PlanPlain(ctx, t, current.Driver, "down", changes, desired.Schema)
	if err != nil {
		return nil, fmt.Errorf("planning the down: %w", err)
	}
	for _, c := range plan.Changes {
		p.stmts = append(p.stmts, strings.TrimRight(strings.TrimSpace(c.Cmd), ";"))
		// The pre-check queries the dialect writes above a statement that
		// existing rows can make fail (a NOT NULL set again, a narrower
		// type), as apply reads them from a file.
		p.checked = append(p.checked, &migrate.Stmt{Text: c.Cmd, Comments: []string{"-- " + c.Comment}})
	}
	// Proven on the scratch copy: run, it must leave the target's state.
	script := strings.Join(p.stmts, ";\n") + ";\n"
	if err := scratch.Exec(ctx, current.Driver, "the down plan", []byte(script)); err != nil {
		return nil, fmt.Errorf("the down plan fails on a scratch copy of the database, so nothing is run:\n%w", err)
	}
	after, err := migration.Reread(ctx, t, current)
	if err != nil {
		return nil, err
	}
	left, err := current.Driver.SchemaDiff(after.Schema, desired.Schema, schema.DiffNormalized())
	if err != nil {
		return nil, err
	}
	if len(left) > 0 {
		return nil, fmt.Errorf("the down plan, run on a scratch copy of the database, does not reach the state of version %s; still different:\n  %s", orNone(to), strings.Join(describeChanges(t, left), "\n  "))
	}
	return p, nil
}

// describeChanges names changes in a line each.
func describeChanges(t migration.Target, changes []schema.Change) []string {
	var out []string
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.AddTable:
			out = append(out, "table "+c.T.Name+" is missing")
		case *schema.DropTable:
			out = append(out, "table "+c.T.Name+" is extra")
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				out = append(out, fmt.Sprintf("table %s: %s", c.T.Name, changeName(sc)))
			}
		default:
			out = append(out, fmt.Sprintf("%T", c))
		}
	}
	return out
}

func changeName(c schema.Change) string {
	switch c := c.(type) {
	case *schema.AddColumn:
		return "column " + c.C.Name + " is missing"
	case *schema.DropColumn:
		return "column " + c.C.Name + " is extra"
	case *schema.ModifyColumn:
		return "column " + c.To.Name + " differs"
	case *schema.AddIndex:
		return "index " + c.I.Name + " is missing"
	case *schema.DropIndex:
		return "index " + c.I.Name + " is extra"
	case *schema.ModifyIndex:
		return "index " + c.To.Name + " differs"
	default:
		return strings.TrimPrefix(fmt.Sprintf("%T", c), "*schema.")
	}
}

// lostData names the tables with rows and the columns holding values that
// changes drop, counted on the database.
func lostData(ctx context.Context, t migration.Target, conn *sql.Conn, changes []schema.Change) ([]string, error) {
	rc, ok := t.Dialect.(dialects.RowCounter)
	if !ok {
		return nil, nil
	}
	count := func(table, column string) (int64, error) {
		var n int64
		err := conn.QueryRowContext(ctx, rc.CountQuery(table, column)).Scan(&n)
		return n, err
	}
	var lost []string
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.DropTable:
			n, err := count(c.T.Name, "")
			if err != nil {
				return nil, fmt.Errorf("counting the rows of %s: %w", c.T.Name, err)
			}
			if n > 0 {
				lost = append(lost, fmt.Sprintf("table %s is dropped with its %d row%s", c.T.Name, n, plural(n)))
			}
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				dc, ok := sc.(*schema.DropColumn)
				if !ok {
					continue
				}
				n, err := count(c.T.Name, dc.C.Name)
				if err != nil {
					return nil, fmt.Errorf("counting the values of %s.%s: %w", c.T.Name, dc.C.Name, err)
				}
				if n > 0 {
					lost = append(lost, fmt.Sprintf("column %s.%s is dropped with the values of %d row%s", c.T.Name, dc.C.Name, n, plural(n)))
				}
			}
		}
	}
	return lost, nil
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// runDown runs the plan on the database and removes the reverted
// revisions: in one transaction where the dialect's DDL is transactional,
// else statement by statement, then the revisions.
func runDown(ctx context.Context, t migration.Target, conn *sql.Conn, res *DownResult, opts DownOptions) error {
	run := context.WithoutCancel(ctx)
	var on schema.ExecQuerier = conn
	var tx *sql.Tx
	useTx := t.Dialect.TransactionalDDL()
	if useTx {
		var err error
		if tx, err = conn.BeginTx(run, nil); err != nil {
			return connError(opts.URL, err)
		}
		defer tx.Rollback()
		on = tx
	}
	for i, s := range res.Stmts {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "  -> %s\n", strings.ReplaceAll(s, "\n", "\n     "))
		}
		if _, err := on.ExecContext(run, s); err != nil {
			return &DownError{Stmt: i + 1, SQL: s, Err: err, RolledBack: useTx}
		}
	}
	if !useTx {
		var err error
		if tx, err = conn.BeginTx(run, nil); err != nil {
			return connError(opts.URL, err)
		}
		defer tx.Rollback()
	}
	revs := t.Dialect.Revisions(tx)
	for _, v := range res.Reverted {
		if err := revs.DeleteRevision(run, v); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return connError(opts.URL, err)
	}
	return nil
}

// RevertedNames are the reverted versions' file names in dir (for
// messages), the version where the file is gone.
func RevertedNames(dir string, versions []string) []string {
	d, err := migration.OpenDir(dir, false)
	if err != nil {
		return versions
	}
	files, _ := d.Files()
	out := make([]string, 0, len(versions))
	for _, v := range versions {
		name := v
		for _, f := range files {
			if f.Version() == v {
				name = filepath.Base(f.Name())
			}
		}
		out = append(out, name)
	}
	return out
}
