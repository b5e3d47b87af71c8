package deploy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
)

// SetOptions configure Set.
type SetOptions struct {
	URL         string
	LockTimeout time.Duration
	// Version: every file up to and including it is recorded as applied,
	// every revision after it is removed. Exactly one of Version and Remove.
	Version string
	// Remove deletes the one revision of this version, which must exist.
	Remove string
	// Notices receives the message that set waits for the lock.
	Notices io.Writer
}

// SetResult is what Set changed in the revisions table.
type SetResult struct {
	// Marked are the versions recorded as applied (resolved) without
	// running; Fixed a failed or incomplete revision marked complete;
	// Removed the revisions deleted.
	Marked, Fixed, Removed []string
	// From and To are the database's version before and after.
	From, To string
}

// UnknownVersionError is a version the migration directory does not have.
type UnknownVersionError struct {
	Dir, Version string
	// Revision is set when the version was looked for among the revisions.
	Revision bool
}

func (e *UnknownVersionError) Error() string {
	if e.Revision {
		return fmt.Sprintf("the database has no revision of version %s; `schemagen migrate status` lists them", e.Version)
	}
	return fmt.Sprintf("%s has no migration of version %s; `ls %s` lists the versions", e.Dir, e.Version, e.Dir)
}

// Set edits the database's revisions, as the Atlas CLI's `migrate set`
// does, without running any statement: with Version, the files up to it
// count as applied (a revision of type resolved is written for each file
// after the last revision; a failed or incomplete revision of Version is
// marked complete, the file having been finished by hand) and the revisions
// after it are removed; with Remove, that one revision is deleted. It holds
// LockName, as Apply does, and changes the revisions in one transaction.
func Set(ctx context.Context, t migration.Target, opts SetOptions) (*SetResult, error) {
	if (opts.Version == "") == (opts.Remove == "") {
		return nil, errors.New("set: give a version, or one to remove")
	}
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
	if opts.Version != "" && migrate.FilesLastIndex(files, func(f migrate.File) bool { return f.Version() == opts.Version }) == -1 {
		return nil, &UnknownVersionError{Dir: dir.Path(), Version: opts.Version}
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
	unlock, err := lock(ctx, drv, ApplyOptions{URL: opts.URL, LockTimeout: opts.LockTimeout, Notices: opts.Notices})
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := t.Dialect.Revisions(conn).Init(ctx); err != nil {
		return nil, err
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, connError(opts.URL, err)
	}
	defer tx.Rollback() // after Commit, a no-op
	revs := t.Dialect.Revisions(tx)
	done, err := revs.ReadRevisions(ctx)
	if err != nil {
		return nil, err
	}
	res := &SetResult{From: currentVersion(done)}
	if opts.Remove != "" {
		found := false
		for _, r := range done {
			found = found || r.Version == opts.Remove
		}
		if !found {
			return nil, &UnknownVersionError{Version: opts.Remove, Revision: true}
		}
		if err := revs.DeleteRevision(ctx, opts.Remove); err != nil {
			return nil, err
		}
		res.Removed = []string{opts.Remove}
	} else if err := setTo(ctx, revs, dir, files, done, opts.Version, res); err != nil {
		return nil, err
	}
	after, err := revs.ReadRevisions(ctx)
	if err != nil {
		return nil, err
	}
	res.To = currentVersion(after)
	if err := tx.Commit(); err != nil {
		return nil, connError(opts.URL, err)
	}
	return res, nil
}

// setTo records the files up to version as applied and removes the
// revisions after it.
func setTo(ctx context.Context, revs migrate.RevisionReadWriter, dir *migrate.LocalDir, files []migrate.File, done []*migrate.Revision, version string, res *SetResult) error {
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	last := ""
	for _, r := range done {
		switch {
		case r.Version > version:
			if err := revs.DeleteRevision(ctx, r.Version); err != nil {
				return err
			}
			res.Removed = append(res.Removed, r.Version)
			continue
		case r.Error != "" || r.Applied != r.Total:
			// Finished (or undone) by hand: the file counts as applied.
			r.Type |= migrate.RevisionTypeResolved
			r.Applied, r.PartialHashes = r.Total, nil
			r.Error, r.ErrorStmt = "", ""
			r.OperatorVersion = OperatorVersion
			if err := revs.WriteRevision(ctx, r); err != nil {
				return err
			}
			res.Fixed = append(res.Fixed, r.Version)
		}
		last = max(last, r.Version)
	}
	// As the Atlas CLI's set: the files after the last revision, up to the
	// version; a checkpoint is marked only where it starts the history.
	for _, f := range files {
		if f.Version() <= last || f.Version() > version {
			continue
		}
		if ck, ok := f.(migrate.CheckpointFile); ok && ck.IsCheckpoint() && (last != "" || !lastCheckpointBefore(files, f, version)) {
			continue
		}
		h, err := sum.SumByName(f.Name())
		if err != nil {
			return err
		}
		r := &migrate.Revision{
			Version: f.Version(), Description: f.Desc(), Type: migrate.RevisionTypeResolved,
			ExecutedAt: time.Now(), Hash: h, OperatorVersion: OperatorVersion,
		}
		if err := revs.WriteRevision(ctx, r); err != nil {
			return err
		}
		res.Marked = append(res.Marked, f.Version())
	}
	return nil
}

// lastCheckpointBefore reports whether f is the last checkpoint at or
// before version: a new history starts there.
func lastCheckpointBefore(files []migrate.File, f migrate.File, version string) bool {
	lastCk := ""
	for _, g := range files {
		if ck, ok := g.(migrate.CheckpointFile); ok && ck.IsCheckpoint() && g.Version() <= version {
			lastCk = g.Version()
		}
	}
	return lastCk == f.Version()
}
