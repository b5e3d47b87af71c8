package deploy

import (
	"context"
	"errors"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/lifecycle"
	"github.com/schemagen/schemagen/internal/online"
	"github.com/schemagen/schemagen/internal/redact"
)

// The states of a database's migrations.
const (
	StateUpToDate = "up-to-date" // every file is applied
	StatePending  = "pending"    // files remain to apply
	StateFailed   = "failed"     // the last apply failed in a file
)

// Status is the migration state of one database: what its revisions table
// records against the env's migration directory.
type Status struct {
	Env string `json:"env"`
	Dir string `json:"dir"`
	URL string `json:"url"` // password redacted
	// State is StateUpToDate, StatePending or StateFailed.
	State string `json:"state"`
	// Current is the version of the last file fully applied, "" for none.
	Current string `json:"current_version"`
	// Applied are the files fully applied (baselines included), by version.
	Applied []FileStatus `json:"applied"`
	// Partial is the file the last apply left incomplete: failed, or
	// interrupted. It is also the first of Pending.
	Partial *FileStatus `json:"partial,omitempty"`
	// Pending are the files the next apply runs, in order.
	Pending []FileStatus `json:"pending"`
	// NotClean is set when nothing was applied yet but the database has
	// tables: the first apply needs --baseline or --allow-dirty.
	NotClean string `json:"not_clean,omitempty"`
	// Unfinished is what interrupted online statements left in the
	// database (invalid indexes, constraints not validated), one sentence
	// each.
	Unfinished []string `json:"unfinished,omitempty"`
	// Unpaired are the versions that this env's directory has and another
	// dialect's env lacks, or the other way round (set by the caller, which
	// knows the other envs).
	Unpaired []lifecycle.Unpaired `json:"unpaired,omitempty"`
}

// FileStatus is one migration file, or the revision of one.
type FileStatus struct {
	Version string `json:"version"`
	Name    string `json:"name"`
	// Missing marks a revision whose file is no longer in the directory.
	Missing bool `json:"missing,omitempty"`
	// Type is the revision's type as the Atlas CLI names it ("applied",
	// "baseline", …); empty for a file never run.
	Type string `json:"type,omitempty"`
	// Applied of Total statements.
	Applied    int       `json:"applied_statements"`
	Total      int       `json:"total_statements"`
	ExecutedAt time.Time `json:"executed_at,omitzero"`
	// Error and ErrorStmt are the last attempt's failure.
	Error     string `json:"error,omitempty"`
	ErrorStmt string `json:"error_statement,omitempty"`
}

// ReadStatus reads the migration state of the database at rawURL against
// the target's migration directory. It writes nothing: a database without a
// revisions table has every file pending.
func ReadStatus(ctx context.Context, t migration.Target, rawURL string) (*Status, error) {
	dir, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return nil, err
	}
	if err := migration.CheckSum(dir); err != nil {
		return nil, err
	}
	db, err := openTarget(ctx, t, rawURL)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	drv, err := t.Dialect.OpenAtlas(db)
	if err != nil {
		return nil, connError(rawURL, err)
	}
	// The history is read once (a database without the table has none)
	// and given to Atlas's executor, which reads it again to plan.
	store := t.Dialect.Revisions(db)
	done, _, err := store.ReadIfExists(ctx)
	if err != nil {
		return nil, connError(rawURL, err)
	}
	if err := Unchanged(dir, done); err != nil {
		return nil, err
	}
	revs := readRevisions{ident: store.Ident(), revs: done}
	s := &Status{Env: t.Env.Name, Dir: dir.Path(), URL: redact.URL(rawURL), Applied: []FileStatus{}, Pending: []FileStatus{}}
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	var order []migrate.ExecutorOption
	if placedBefore(dir, done) {
		order = append(order, migrate.WithExecOrder(migrate.ExecOrderNonLinear))
	}
	ex, err := migrate.NewExecutor(drv, dir, revs, order...)
	if err != nil {
		return nil, err
	}
	pending, err := ex.Pending(ctx)
	var nc *migrate.NotCleanError
	switch {
	case errors.Is(err, migrate.ErrNoPendingFiles):
	case errors.As(err, &nc):
		s.NotClean = nc.Reason
		pending = migrate.SkipCheckpointFiles(files)
	case err != nil:
		return nil, err
	}
	byVersion := map[string]migrate.File{}
	for _, f := range files {
		byVersion[f.Version()] = f
	}
	for _, r := range done {
		fs := FileStatus{
			Version: r.Version, Type: r.Type.String(), Applied: r.Applied, Total: r.Total,
			ExecutedAt: r.ExecutedAt.UTC(), Error: r.Error, ErrorStmt: r.ErrorStmt,
		}
		if f, ok := byVersion[r.Version]; ok {
			fs.Name = f.Name()
		} else {
			fs.Name, fs.Missing = migration.FileName(r.Version, r.Description), true
		}
		if r.Applied == r.Total && r.Error == "" {
			s.Applied = append(s.Applied, fs)
			s.Current = r.Version
		} else {
			s.Partial = &fs
		}
	}
	for _, f := range pending {
		if s.Partial != nil && f.Version() == s.Partial.Version {
			s.Pending = append(s.Pending, *s.Partial)
			continue
		}
		fs := FileStatus{Version: f.Version(), Name: f.Name()}
		if stmts, err := migrate.FileStmtDecls(drv, f); err == nil {
			fs.Total = len(stmts)
		}
		s.Pending = append(s.Pending, fs)
	}
	if s.Unfinished, err = online.Unfinished(ctx, t.Online(), db); err != nil {
		// A user allowed to read the revisions may not see DDL jobs.
		s.Unfinished = []string{"cannot tell what interrupted statements left: " + redact.Secrets(err.Error(), redact.Password(rawURL))}
	}
	switch {
	case s.Partial != nil && s.Partial.Error != "":
		s.State = StateFailed
	case len(s.Pending) > 0:
		s.State = StatePending
	default:
		s.State = StateUpToDate
	}
	return s, nil
}

// readRevisions is a history read before: migrate status only reads.
type readRevisions struct {
	ident *migrate.TableIdent
	revs  []*migrate.Revision
}

func (r readRevisions) Ident() *migrate.TableIdent { return r.ident }

func (r readRevisions) ReadRevisions(context.Context) ([]*migrate.Revision, error) {
	return r.revs, nil
}

func (r readRevisions) ReadRevision(_ context.Context, version string) (*migrate.Revision, error) {
	for _, rev := range r.revs {
		if rev.Version == version {
			return rev, nil
		}
	}
	return nil, migrate.ErrRevisionNotExist
}

func (readRevisions) WriteRevision(context.Context, *migrate.Revision) error {
	return errors.New("migrate status writes no revisions")
}

func (readRevisions) DeleteRevision(context.Context, string) error {
	return errors.New("migrate status writes no revisions")
}
