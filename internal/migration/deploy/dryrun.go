package deploy

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/online"
)

// WouldApply is a pending file as a dry run finds it.
type WouldApply struct {
	Name, Version string
	// Skip is the number of statements an earlier, failed apply applied
	// (TiDB): the apply would resume after them.
	Skip int
	// Stmts are the statements the apply would run.
	Stmts []string
	// Found are the pre-checks' findings: rows that would make a statement
	// fail, so that the apply would refuse the file.
	Found []string
	// Later is the number of pre-checks not run: they read the database as
	// the files before this one leave it, and run when the apply gets here.
	Later int
}

// dryRun computes what Apply would run, reading the revisions without
// creating their table and recording a baseline only in memory; it runs the
// pre-checks (queries) of the pending files and changes nothing.
func dryRun(ctx context.Context, conn *sql.Conn, t migration.Target, dir *migrate.LocalDir, drv migrate.Driver, opts ApplyOptions) (*ApplyResult, error) {
	revs := t.Dialect.Revisions(conn)
	done, _, err := revs.ReadIfExists(ctx)
	if err != nil {
		return nil, connError(opts.URL, err)
	}
	mem := &memRevisions{RevisionReadWriter: revs, revs: done}
	ex, err := migrate.NewExecutor(drv, dir, mem, executorOptions(opts, dir, done)...)
	if err != nil {
		return nil, err
	}
	pending, err := ex.Pending(ctx)
	if err != nil && !errors.Is(err, migrate.ErrNoPendingFiles) {
		return nil, pendingError(opts.URL, err)
	}
	res := &ApplyResult{From: currentVersion(mem.revs), DryRun: true}
	res.To = res.From
	refused := 0
	for _, f := range pending {
		path := filepath.Join(dir.Path(), f.Name())
		stmts, err := migrate.FileStmtDecls(drv, f)
		if err != nil {
			return res, fmt.Errorf("%s: %w", path, err)
		}
		skip := 0
		for _, r := range mem.revs {
			if r.Version == f.Version() {
				skip = min(r.Applied, len(stmts))
			}
		}
		w := WouldApply{Name: f.Name(), Version: f.Version(), Skip: skip}
		for _, s := range stmts[skip:] {
			w.Stmts = append(w.Stmts, s.Text)
		}
		if len(res.Would) == 0 {
			if w.Found, err = online.Prechecks(ctx, t.Online(), conn, stmts[skip:]); err != nil {
				return res, fmt.Errorf("%s: running its pre-checks: %w", path, err)
			}
		} else {
			w.Later = online.CountPrechecks(stmts[skip:])
		}
		if len(w.Found) > 0 {
			refused++
		}
		res.Would = append(res.Would, w)
		res.To = f.Version()
	}
	if refused > 0 {
		return res, &DryRunRefusedError{Files: refused}
	}
	return res, nil
}

// DryRunRefusedError tells that a dry run's pre-checks found rows that would
// make the apply refuse files.
type DryRunRefusedError struct{ Files int }

func (e *DryRunRefusedError) Error() string {
	if e.Files == 1 {
		return "migrate apply would refuse 1 file: existing rows would make it fail (see its pre-checks above)"
	}
	return fmt.Sprintf("migrate apply would refuse %d files: existing rows would make them fail (see their pre-checks above)", e.Files)
}

// memRevisions reads the revisions read before and keeps what the executor
// writes (a baseline) in memory.
type memRevisions struct {
	migrate.RevisionReadWriter
	revs []*migrate.Revision
}

func (m *memRevisions) ReadRevisions(context.Context) ([]*migrate.Revision, error) {
	return m.revs, nil
}

func (m *memRevisions) ReadRevision(_ context.Context, v string) (*migrate.Revision, error) {
	for _, r := range m.revs {
		if r.Version == v {
			return r, nil
		}
	}
	return nil, migrate.ErrRevisionNotExist
}

func (m *memRevisions) WriteRevision(_ context.Context, r *migrate.Revision) error {
	m.revs = append(m.revs, r)
	return nil
}

func (m *memRevisions) DeleteRevision(context.Context, string) error { return nil }
