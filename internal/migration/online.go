package migration

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/internal/online"
)

// PlanOption configures Plan.
type PlanOption func(*planConfig)

type planConfig struct {
	plain   bool
	desired func(ctx context.Context, t Target, src []byte) (*State, error)
	current func(ctx context.Context, t Target, dirPath string, files []migrate.File) (*State, error)
}

// CurrentFrom makes Plan take each target's current state from replay,
// given the directory's files, instead of replaying them all on a scratch
// database of its own: a caller that plans one directory step after step
// replays only the files each step adds (the plan oracle). Replay must
// fail as DirState does. The State it returns is the plan's to change and
// Close.
func CurrentFrom(replay func(ctx context.Context, t Target, dirPath string, files []migrate.File) (*State, error)) PlanOption {
	return func(c *planConfig) { c.current = replay }
}

// DesiredFrom makes Plan take each target's desired state from load, given
// the generated DDL src it would load, instead of loading src on a scratch
// database of its own: a caller that plans several directories to one
// model loads it once (the plan oracle; see Reread). The State load returns
// is the plan's to change and Close.
func DesiredFrom(load func(ctx context.Context, t Target, src []byte) (*State, error)) PlanOption {
	return func(c *planConfig) { c.desired = load }
}

// Plain plans what Atlas plans, statement by statement with its hazards,
// instead of the online plan (concurrent index builds, constraints added
// NOT VALID and validated afterwards, lock_timeout).
func Plain(plain bool) PlanOption { return func(c *planConfig) { c.plain = plain } }

// planChanges plans changes as the migration file and, for an online plan
// that needs one, the file run after it outside a transaction.
func planChanges(ctx context.Context, t Target, drv migrate.Driver, name string, changes []schema.Change, opts []PlanOption) (*migrate.Plan, *migrate.Plan, error) {
	var c planConfig
	for _, o := range opts {
		o(&c)
	}
	return online.Plan(ctx, t.Dialect, drv, name, changes, !c.plain, PlanOptions)
}

// writeOnline writes the online file of p one second after version, so that
// it runs after the file of version; it returns its path.
func writeOnline(p *Planned, version, name string) (string, error) {
	v, err := time.Parse(versionLayout, version)
	if err != nil {
		return "", fmt.Errorf("version %s: %w", version, err)
	}
	p.Online.Version, p.Online.Name = v.Add(time.Second).Format(versionLayout), name+"_online"
	content, err := Format(p.Online)
	if err != nil {
		return "", err
	}
	file := FileName(p.Online.Version, p.Online.Name)
	if err := p.Dir.WriteFile(file, content); err != nil {
		return "", err
	}
	return filepath.Join(p.Dir.Path(), file), nil
}

// OnlinePart reports whether files[i] is the online file of the migration
// before it (NAME_online, written with the next second's version): with it,
// one migration.
func OnlinePart(files []migrate.File, i int) bool {
	if i == 0 {
		return false
	}
	f, prev := files[i], files[i-1]
	if f.Desc() != prev.Desc()+"_online" {
		return false
	}
	v, err1 := time.Parse(versionLayout, f.Version())
	pv, err2 := time.Parse(versionLayout, prev.Version())
	return err1 == nil && err2 == nil && v.Sub(pv) == time.Second
}

// prepareFile readies the session conn for a file about to run: when an
// earlier apply stopped in it, the dialect removes what an interrupted
// statement left (an invalid index) and restores the session settings of
// the statements skipped; then the pre-checks written above the statements
// still to run must find no offending rows, or nothing runs.
func prepareFile(ctx context.Context, conn schema.ExecQuerier, t Target, path string, f migrate.File, log io.Writer) error {
	drv, err := t.Dialect.OpenAtlas(conn)
	if err != nil {
		return err
	}
	stmts, err := migrate.FileStmtDecls(drv, f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	applied := 0
	r, err := t.Dialect.Revisions(conn).ReadRevision(ctx, f.Version())
	switch {
	case errors.Is(err, migrate.ErrRevisionNotExist):
		r = nil
	case err != nil:
		return err
	default:
		applied = min(r.Applied, len(stmts))
	}
	todo := stmts[applied:]
	found, err := online.Prechecks(ctx, t.Dialect, conn, todo)
	if err != nil {
		return fmt.Errorf("%s: running its pre-checks: %w", path, err)
	}
	if len(found) > 0 {
		return &PrecheckError{File: path, Found: found}
	}
	texts := func(ss []*migrate.Stmt) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = s.Text
		}
		return out
	}
	finished, err := online.Resume(ctx, t.Dialect, conn, texts(stmts[:applied]), texts(todo))
	if err != nil {
		return fmt.Errorf("%s: resuming: %w", path, err)
	}
	// Statements the server finished after their apply stopped (died, or
	// was interrupted) are recorded as applied; never when the earlier
	// apply recorded another failure of the statement (an index of that
	// name that was there before).
	if finished > 0 && r != nil && (r.Error == "" || strings.HasPrefix(r.Error, interruptedPrefix)) {
		sums := stmtSums(stmts)
		for i := applied; i < applied+finished; i++ {
			r.PartialHashes = append(r.PartialHashes, "h1:"+sums[i])
		}
		r.Applied += finished
		r.Error, r.ErrorStmt = "", ""
		r.OperatorVersion = OperatorVersion
		if err := t.Dialect.Revisions(conn).WriteRevision(ctx, r); err != nil {
			return fmt.Errorf("%s: recording the statements the server finished: %w", path, err)
		}
		if log != nil {
			fmt.Fprintf(log, "%s: statement %d ran to completion on the server although its apply stopped; recorded as applied\n", f.Name(), applied+1)
		}
	}
	return nil
}

// stmtSums are the hashes Atlas's executor records for the statements
// applied of a partly applied file (Revision.PartialHashes, without "h1:").
func stmtSums(stmts []*migrate.Stmt) []string {
	sums := make([]string, len(stmts))
	h := sha256.New()
	for i, s := range stmts {
		h.Write([]byte(s.Text))
		sums[i] = base64.StdEncoding.EncodeToString(h.Sum(nil))
	}
	return sums
}

// PrecheckError is a file not run because existing rows would make one of
// its statements fail.
type PrecheckError struct {
	File  string
	Found []string
}

func (e *PrecheckError) Error() string {
	return fmt.Sprintf("%s: not applied, existing rows would make it fail half-way:\n  %s\nFix the rows, then run `schemagen migrate apply` again.",
		e.File, strings.Join(e.Found, "\n  "))
}
