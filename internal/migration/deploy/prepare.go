package deploy

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/online"
)

// prepareFile readies the session conn for a file about to run: when an
// earlier apply stopped in it, the dialect removes what an interrupted
// statement left (an invalid index) and restores the session settings of
// the statements skipped; then the pre-checks written above the statements
// still to run must find no offending rows, or nothing runs.
func prepareFile(ctx context.Context, conn schema.ExecQuerier, t migration.Target, path string, f migrate.File, log io.Writer) error {
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
	found, err := online.Prechecks(ctx, t.Online(), conn, todo)
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
	finished, err := online.Resume(ctx, t.Online(), conn, texts(stmts[:applied]), texts(todo))
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
