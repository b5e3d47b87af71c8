// Package deploy runs a migration directory on a database: Apply with its
// revision history, resuming a file an earlier apply left part-way,
// pre-checks of the rows a statement would fail on, interruption that
// cancels the statement on the server, a dry run, and ReadStatus.
//
// It stands alone because it is the one part of the workflow that changes
// a production database, and it needs nothing of planning: it reads the
// files migration wrote (and Atlas's CLI would read), so it can be
// reviewed and tested on its own.
package deploy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/online"
	"github.com/schemagen/schemagen/internal/redact"
)

// LockName is the advisory lock the Atlas CLI's `migrate apply` holds while
// it applies files. schemagen takes the same one (a PostgreSQL advisory lock,
// a TiDB GET_LOCK), so that no two applies, of either tool, run at once.
const LockName = "atlas_migrate_execute"

// OperatorVersion is what schemagen records in the revisions'
// operator_version column (the Atlas CLI records "Atlas CLI v…").
const OperatorVersion = "schemagen"

// DefaultLockTimeout is how long an apply waits for another one to finish.
const DefaultLockTimeout = time.Minute

// ApplyOptions configure Apply.
type ApplyOptions struct {
	// URL is the target database's URL.
	URL string
	// LockTimeout is how long to wait while another apply holds LockName;
	// 0 fails at once.
	LockTimeout time.Duration
	// Baseline, on a database that has tables but no revisions yet, records
	// the file of this version as applied without running it (nor the ones
	// before it), as the Atlas CLI's --baseline does.
	Baseline string
	// AllowDirty lets the first apply run every file on a database that
	// already has tables.
	AllowDirty bool
	// Progress receives a line per file and statement as they run.
	Progress io.Writer
	// Notices receives the message that the apply waits for the lock, and
	// what an interrupt does.
	Notices io.Writer
	// DryRun changes nothing: the result's Would lists the files and
	// statements the apply would run, with the pre-checks' findings.
	DryRun bool
}

// ApplyResult is what one Apply did.
type ApplyResult struct {
	// From and To are the versions of the last file applied before and after
	// this run ("" when none was).
	From, To string
	// Files are the files run to completion, in order.
	Files []AppliedFile
	// DryRun tells that nothing ran; Would are the files that would, in
	// order, and To the version the database would be at.
	DryRun bool
	Would  []WouldApply
}

// AppliedFile is one file run by Apply.
type AppliedFile struct {
	Name    string
	Version string
	// Stmts is the number of statements this run executed; Resumed the number
	// an earlier, failed run had applied already (TiDB), which were skipped.
	Stmts, Resumed int
	Took           time.Duration
}

// Apply runs the pending files of the target's migration directory on the
// database at opts.URL and records each in the Atlas CLI's revisions table.
//
// It refuses a directory that does not match its atlas.sum, and works under
// LockName, so that a concurrent apply waits for it and then finds nothing
// pending. On PostgreSQL each file runs in one transaction, rolled back
// entirely when a statement fails (a file with `-- atlas:txmode none` runs
// without one). TiDB commits DDL statement by statement: the revision records
// every statement applied, and the next apply resumes after the last one.
// A failed statement returns an *ApplyError.
//
// Cancelling ctx (an interrupt) stops the apply without leaving anything
// running on the server: the running statement is cancelled there, through
// another session, and Apply returns when the server has stopped it, with
// the revisions recording exactly what ran (an *ApplyError whose
// Interrupted is set); no statement starts after it (an *InterruptedError
// between files).
func Apply(ctx context.Context, t migration.Target, opts ApplyOptions) (*ApplyResult, error) {
	dir, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return nil, err
	}
	if err := migration.CheckSum(dir); err != nil {
		return nil, err
	}
	db, err := openTarget(ctx, t, opts.URL)
	if err != nil {
		return nil, err
	}
	// Closing the pool ends every session, and with them the lock, even when
	// unlocking failed (a cancelled context).
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
	if opts.DryRun {
		return dryRun(ctx, conn, t, dir, drv, opts)
	}
	unlock, err := lock(ctx, drv, opts)
	if err != nil {
		return nil, err
	}
	defer unlock()

	ss, _ := t.Dialect.(dialects.Sessions)
	stop, err := newStopper(ctx, ss, conn, db, opts.Notices)
	if err != nil {
		return nil, connError(opts.URL, err)
	}
	revs := t.Dialect.Revisions(conn)
	if err := revs.Init(ctx); err != nil {
		return nil, err
	}
	before, err := revs.ReadRevisions(ctx)
	if err != nil {
		return nil, err
	}
	ex, err := migrate.NewExecutor(drv, dir, revs, executorOptions(opts, dir, before)...)
	if err != nil {
		return nil, err
	}
	pending, err := ex.Pending(ctx)
	if err != nil && !errors.Is(err, migrate.ErrNoPendingFiles) {
		return nil, pendingError(opts.URL, err)
	}
	// Read after Pending, which may have written a baseline revision.
	done, rerr := revs.ReadRevisions(ctx)
	if rerr != nil {
		return nil, rerr
	}
	if err := Unchanged(dir, done); err != nil {
		return nil, err
	}
	res := &ApplyResult{From: currentVersion(done)}
	res.To = res.From
	// Statements run to their end or to their cancel on the server, and
	// the revisions are written after an interrupt: not under ctx.
	run := context.WithoutCancel(ctx)
	for _, f := range pending {
		if stop.stopped() {
			return res, &InterruptedError{Next: filepath.Join(dir.Path(), f.Name())}
		}
		a, err := applyFile(run, conn, t, dir, f, opts, stop)
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, a)
		res.To = f.Version()
	}
	return res, nil
}

// EditedError is a file that the database applied in full and that has
// changed since (its hash is not the one recorded): the database did not
// run what the directory now says.
type EditedError struct {
	File, Version string
}

func (e *EditedError) Error() string {
	return fmt.Sprintf("%s changed after it was applied (version %s): a migration once applied must not change; restore the text that was applied and write the change as a new migration", e.File, e.Version)
}

// Unchanged refuses a directory in which a file applied in full (done: the
// database's revisions) has changed since, with an *EditedError: apply,
// status and drift agree on an edited history.
func Unchanged(dir *migrate.LocalDir, done []*migrate.Revision) error {
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	files, err := dir.Files()
	if err != nil {
		return err
	}
	byVersion := map[string]migrate.File{}
	for _, f := range files {
		byVersion[f.Version()] = f
	}
	for _, r := range done {
		f, ok := byVersion[r.Version]
		if !ok || r.Applied != r.Total || r.Error != "" || r.Hash == "" {
			continue
		}
		if h, err := sum.SumByName(f.Name()); err == nil && h != r.Hash {
			return &EditedError{File: filepath.Join(dir.Path(), f.Name()), Version: r.Version}
		}
	}
	return nil
}

func executorOptions(opts ApplyOptions, dir migrate.Dir, revs []*migrate.Revision) []migrate.ExecutorOption {
	o := []migrate.ExecutorOption{migrate.WithOperatorVersion(OperatorVersion)}
	if placedBefore(dir, revs) {
		o = append(o, migrate.WithExecOrder(migrate.ExecOrderNonLinear))
	}
	if opts.Baseline != "" {
		o = append(o, migrate.WithBaselineVersion(opts.Baseline))
	}
	if opts.AllowDirty {
		o = append(o, migrate.WithAllowDirty(true))
	}
	return o
}

// currentVersion is the version of the last revision fully applied.
func currentVersion(revs []*migrate.Revision) string {
	for i := len(revs) - 1; i >= 0; i-- {
		if r := revs[i]; r.Applied == r.Total && r.Error == "" {
			return r.Version
		}
	}
	return ""
}

// openTarget checks the URL against the target's dialect and connects.
func openTarget(ctx context.Context, t migration.Target, rawURL string) (*sql.DB, error) {
	if rawURL == "" {
		return nil, fmt.Errorf("env %q: no database URL", t.Env.Name)
	}
	// devdb opens it: it parses and has a host.
	if _, err := devdb.DialectOf(rawURL); err != nil {
		return nil, err
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	d := all.ForScheme(u.Scheme)
	if d == nil {
		return nil, fmt.Errorf("%s: no dialect reads %s:// URLs", redact.URL(rawURL), u.Scheme)
	}
	if d.Name() != t.Dialect.Name() {
		return nil, fmt.Errorf("env %q is %s, but %s is a %s URL", t.Env.Name, t.Dialect.Name(), redact.URL(rawURL), d.Name())
	}
	if lacks := d.CheckTarget(u); lacks != "" {
		return nil, fmt.Errorf("%s %s", redact.URL(rawURL), lacks)
	}
	db, err := devdb.Open(rawURL)
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, connError(rawURL, err)
	}
	return db, nil
}

// ConnError is a database that could not be reached or read.
type ConnError struct {
	URL string // redacted
	Msg string // redacted
}

func (e *ConnError) Error() string {
	return fmt.Sprintf("cannot connect to %s: %s", e.URL, e.Msg)
}

func connError(rawURL string, err error) error {
	return &ConnError{URL: redact.URL(rawURL), Msg: redact.Secrets(err.Error(), redact.Password(rawURL))}
}

// LockError tells that another apply held LockName for the whole timeout.
type LockError struct {
	Timeout time.Duration
}

func (e *LockError) Error() string {
	return fmt.Sprintf("another migrate apply held the lock %q on the database for %s; try again later, or wait longer with --lock-timeout", LockName, e.Timeout)
}

func lock(ctx context.Context, drv migrate.Driver, opts ApplyOptions) (schema.UnlockFunc, error) {
	unlock, err := drv.Lock(ctx, LockName, 0)
	if errors.Is(err, schema.ErrLocked) && opts.LockTimeout > 0 {
		if opts.Notices != nil {
			fmt.Fprintf(opts.Notices, "another migrate apply holds the lock %q on %s; waiting up to %s\n", LockName, redact.URL(opts.URL), opts.LockTimeout)
		}
		unlock, err = drv.Lock(ctx, LockName, opts.LockTimeout)
	}
	if errors.Is(err, schema.ErrLocked) {
		return nil, &LockError{Timeout: opts.LockTimeout}
	}
	if err != nil {
		return nil, fmt.Errorf("taking the lock %q: %s", LockName, redact.Secrets(err.Error(), redact.Password(opts.URL)))
	}
	return unlock, nil
}

// pendingError explains why the pending files could not be computed.
func pendingError(rawURL string, err error) error {
	var nc *migrate.NotCleanError
	if errors.As(err, &nc) {
		return &NotCleanError{URL: redact.URL(rawURL), Reason: nc.Reason, Err: err}
	}
	return err
}

// NotCleanError is a first apply to a database that already has tables.
type NotCleanError struct {
	URL    string // redacted
	Reason string
	Err    error
}

func (e *NotCleanError) Error() string {
	return fmt.Sprintf("%s has no applied migrations yet but is not empty (%s): pass --baseline VERSION to record the files up to VERSION as applied without running them, or --allow-dirty to run every file on it", e.URL, e.Reason)
}

func (e *NotCleanError) Unwrap() error { return e.Err }

// txMode is how a file runs: in a transaction of its own unless its dialect
// cannot roll DDL back or the file says `-- atlas:txmode none`, as the
// Atlas CLI reads it.
func txMode(t migration.Target, f migrate.File) (bool, error) {
	if lf, ok := f.(*migrate.LocalFile); ok {
		switch ds := lf.Directive("txmode"); {
		case len(ds) > 1:
			return false, fmt.Errorf("%s: more than one atlas:txmode directive", f.Name())
		case len(ds) == 1 && ds[0] == "none":
			return false, nil
		case len(ds) == 1 && ds[0] == "file":
			// Asked for, as rendered data migrations do: the Atlas CLI runs
			// every file in a transaction unless told otherwise.
			return true, nil
		case len(ds) == 1 && ds[0] != "file":
			return false, fmt.Errorf("%s: atlas:txmode %q: want file or none", f.Name(), ds[0])
		}
	}
	return t.Dialect.TransactionalDDL(), nil
}

func applyFile(ctx context.Context, conn *sql.Conn, t migration.Target, dir *migrate.LocalDir, f migrate.File, opts ApplyOptions, stop *stopper) (AppliedFile, error) {
	path := filepath.Join(dir.Path(), f.Name())
	useTx, err := txMode(t, f)
	if err != nil {
		return AppliedFile{}, err
	}
	if err := prepareFile(ctx, guarded{conn, stop}, t, path, f, opts.Progress); err != nil {
		return AppliedFile{}, err
	}
	var (
		on schema.ExecQuerier = conn
		tx *sql.Tx
	)
	if useTx {
		if tx, err = conn.BeginTx(ctx, nil); err != nil {
			return AppliedFile{}, connError(opts.URL, err)
		}
		defer tx.Rollback() // after Commit, a no-op
		on = tx
	}
	bt, _ := t.Dialect.(dialects.Batcher)
	drv, err := t.Dialect.OpenAtlas(batched(guarded{on, stop}, bt, f, opts.Progress))
	if err != nil {
		return AppliedFile{}, err
	}
	sum, err := dir.Checksum()
	if err != nil {
		return AppliedFile{}, err
	}
	hash, err := sum.SumByName(f.Name())
	if err != nil {
		return AppliedFile{}, fmt.Errorf("%s: %w", path, err)
	}
	rec := &recorder{Revisions: t.Dialect.Revisions(on), version: f.Version(), hash: hash}
	log := &progress{w: opts.Progress}
	ex, err := migrate.NewExecutor(drv, dir, rec, migrate.WithOperatorVersion(OperatorVersion), migrate.WithLogger(log))
	if err != nil {
		return AppliedFile{}, err
	}
	start := time.Now()
	err = ex.Execute(ctx, f)
	if err == nil && tx != nil {
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("%s: committing: %w", path, err)
		}
	}
	if err != nil {
		if tx != nil {
			tx.Rollback()
		}
		return AppliedFile{}, failed(ctx, conn, t, path, f, rec.last, tx != nil, err)
	}
	a := AppliedFile{Name: f.Name(), Version: f.Version(), Stmts: log.stmts, Resumed: log.skip, Took: time.Since(start)}
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "  ok: %s (%s)\n", statements(a.Stmts), a.Took.Round(time.Millisecond))
	}
	return a, nil
}

func statements(n int) string {
	if n == 1 {
		return "1 statement"
	}
	return fmt.Sprintf("%d statements", n)
}

// failed turns the executor's error into an *ApplyError and, when the file's
// transaction was rolled back, records the failure outside it: no statement
// applied, with the error and the statement, so that `migrate status` shows
// it and the next apply runs the whole file.
func failed(ctx context.Context, conn *sql.Conn, t migration.Target, path string, f migrate.File, last *migrate.Revision, rolledBack bool, err error) error {
	var se *migrate.StmtExecError
	if !errors.As(err, &se) || last == nil {
		var hc migrate.HistoryChangedError
		if errors.As(err, &hc) {
			return &HistoryError{File: path, Stmt: hc.Stmt}
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	ed, _ := t.Dialect.(dialects.ErrorDetailer)
	e := &ApplyError{
		File:        path,
		Version:     f.Version(),
		Stmt:        last.Applied + 1,
		Total:       last.Total,
		Line:        lineOf(f.Bytes(), se.Stmt.Pos),
		SQL:         se.Stmt.Text,
		Err:         se.Err,
		Applied:     last.Applied,
		RolledBack:  rolledBack,
		Hint:        online.ExplainError(t.Online(), se.Err),
		Detail:      dialects.ErrorDetail(ed, se.Err),
		Interrupted: interrupted(se.Err),
	}
	if rolledBack {
		e.Applied = 0
		r := *last
		r.Applied, r.PartialHashes = 0, nil
		r.Error, r.ErrorStmt = se.Err.Error(), se.Stmt.Text
		r.OperatorVersion = OperatorVersion
		if werr := t.Dialect.Revisions(conn).WriteRevision(context.WithoutCancel(ctx), &r); werr != nil {
			e.RecordErr = werr
		}
	}
	return e
}

// lineOf is the line of the first non-blank character at or after pos.
func lineOf(b []byte, pos int) int {
	if pos < 0 || pos > len(b) {
		return 0
	}
	for pos < len(b) && (b[pos] == ' ' || b[pos] == '\t' || b[pos] == '\n' || b[pos] == '\r') {
		pos++
	}
	return strings.Count(string(b[:pos]), "\n") + 1
}

// ApplyError is a statement of a migration file that the database refused.
type ApplyError struct {
	File    string // path of the file
	Version string
	Stmt    int // 1-based number of the statement in the file
	Total   int // statements in the file
	Line    int // line of the file the statement starts on
	SQL     string
	Err     error // the database's error
	// Applied is the number of the file's statements that stay applied (and
	// are recorded): those before Stmt on TiDB, none after a rollback.
	Applied int
	// RolledBack tells that the file ran in a transaction, rolled back.
	RolledBack bool
	// RecordErr is set when the failure could not be recorded in the
	// revisions table.
	RecordErr error
	// Hint is the dialect's advice for the error (a lock timeout), or "".
	Hint string
	// Interrupted tells that an interrupt stopped the statement (cancelled
	// on the server) or kept it from starting.
	Interrupted bool
	// Detail is what the database said beyond its message (PostgreSQL's
	// DETAIL and HINT lines), or "".
	Detail string
}

func (e *ApplyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d: statement %d of %d failed: %v\n", e.File, e.Line, e.Stmt, e.Total, e.Err)
	if e.Detail != "" {
		b.WriteString(e.Detail + "\n")
	}
	b.WriteString("\n")
	for _, l := range strings.Split(e.SQL, "\n") {
		b.WriteString("    " + l + "\n")
	}
	b.WriteString("\n")
	switch {
	case e.Interrupted && e.RolledBack:
		b.WriteString("The file ran in one transaction, which was rolled back: none of its statements is applied.\n" +
			"Nothing of it runs on the server. Run `schemagen migrate apply` again to run the whole file.")
	case e.Interrupted:
		applied := "No statement of the file is applied"
		switch {
		case e.Applied == 1:
			applied = "Statement 1 of the file is applied"
		case e.Applied > 1:
			applied = fmt.Sprintf("Statements 1 to %d of the file are applied", e.Applied)
		}
		fmt.Fprintf(&b, "%s, as %s records; nothing of the apply runs on the server.\n"+
			"Run `schemagen migrate apply` again: it resumes at statement %d.", applied, dialects.RevisionTable, e.Stmt)
	case e.RolledBack:
		b.WriteString("The file ran in one transaction, which was rolled back: none of its statements is applied.\n" +
			"Fix the cause, then run `schemagen migrate apply` again to run the whole file.")
	case e.Applied > 0:
		stays := "Statement 1 of the file stays applied"
		if e.Applied > 1 {
			stays = fmt.Sprintf("Statements 1 to %d of the file stay applied", e.Applied)
		}
		fmt.Fprintf(&b, "%s (TiDB commits each DDL statement) and recorded in %s.\n"+
			"Fix the cause (the data, or statement %d and the ones after it, then `schemagen migrate hash`),\n"+
			"then run `schemagen migrate apply` again: it resumes at statement %d.", stays, dialects.RevisionTable, e.Stmt, e.Stmt)
	default:
		b.WriteString("No statement of the file is applied. Fix the cause, then run `schemagen migrate apply` again.")
	}
	if e.Hint != "" {
		b.WriteString("\n" + e.Hint)
	}
	if e.RecordErr != nil {
		fmt.Fprintf(&b, "\n(The failure could not be recorded: %v.)", e.RecordErr)
	}
	return b.String()
}

func (e *ApplyError) Unwrap() error { return e.Err }

// HistoryError is a partially applied file whose applied statements were
// edited since.
type HistoryError struct {
	File string
	Stmt int
}

func (e *HistoryError) Error() string {
	return fmt.Sprintf("%s: statement %d was applied by an earlier, failed apply but has been edited since; "+
		"restore the statements that were applied (see `schemagen migrate status`), then run `schemagen migrate hash`", e.File, e.Stmt)
}

// recorder passes revisions on and keeps a copy of the last one written,
// even when writing it failed (an aborted transaction). It records the
// file's hash as it is now: the executor keeps the hash a failed attempt
// recorded, from before the statements not yet applied were fixed.
type recorder struct {
	dialects.Revisions
	version, hash string
	last          *migrate.Revision
}

func (r *recorder) WriteRevision(ctx context.Context, rev *migrate.Revision) error {
	if rev.Version == r.version {
		rev.Hash = r.hash
	}
	c := *rev
	c.PartialHashes = append([]string(nil), rev.PartialHashes...)
	r.last = &c
	return r.Revisions.WriteRevision(ctx, rev)
}

// progress prints the files and statements the executor runs.
type progress struct {
	w           io.Writer
	stmts, skip int
}

func (p *progress) Log(e migrate.LogEntry) {
	switch e := e.(type) {
	case migrate.LogFile:
		p.skip = e.Skip
		if p.w == nil {
			return
		}
		if e.Skip > 0 {
			fmt.Fprintf(p.w, "resuming %s at statement %d (an earlier apply stopped there)\n", e.File.Name(), e.Skip+1)
		} else {
			fmt.Fprintf(p.w, "applying %s\n", e.File.Name())
		}
	case migrate.LogStmt:
		p.stmts++
		if p.w != nil {
			fmt.Fprintf(p.w, "  -> %s\n", strings.ReplaceAll(strings.TrimSpace(e.SQL), "\n", "\n     "))
		}
	}
}
