// Package scratch makes scratch databases: clean, throw-away databases on a
// dev server (the env's dev URL, else an embedded server started on first
// use) on which schemagen replays migration directories and loads generated
// DDL, to read back the schema a database of the dialect reports for them.
// Atlas plans and compares those states, never the text they come from.
//
// Replaying takes seconds on TiDB, so the package also caches what replays
// found (Cache), keyed by the hash of everything they depend on, and
// fingerprints states (Fingerprint) so that equal ones are known equal
// without a diff.
package scratch

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/redact"
)

// Dev hands out clean scratch databases on the dev servers: the URL an env
// configures, else an embedded server started on first use.
type Dev struct {
	Progress io.Writer
	// Reuse keeps the scratch databases that can be emptied cheaply
	// (devdb.Emptiable: PostgreSQL's) when they are closed, emptied and
	// checked as clean as a new one (devdb.Empty), for the next Scratch on
	// their server; one that is not is dropped. Close drops them all. For
	// runs that make many (the plan oracle).
	Reuse   bool
	mu      sync.Mutex
	servers map[string]*devServer
	// pool are the emptied databases kept for reuse, by server URL.
	pool    map[string][]*pooled
	scratch atomic.Int64
	reused  atomic.Int64
}

// pooled is an emptied database kept for reuse.
type pooled struct {
	name, url, clean string
}

// Scratches is how many scratch databases Dev has handed out.
func (d *Dev) Scratches() int64 { return d.scratch.Load() }

// Reused is how many of them were emptied databases (Reuse).
func (d *Dev) Reused() int64 { return d.reused.Load() }

type devServer struct {
	once    sync.Once
	url     string
	release func()
	err     error
}

// Close stops the embedded servers Dev started.
func (d *Dev) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for server, ps := range d.pool {
		for _, p := range ps {
			devdb.DropDatabase(context.Background(), server, p.name)
		}
	}
	d.pool = nil
	for _, s := range d.servers {
		if s.release != nil {
			s.release()
		}
	}
	d.servers = nil
}

// server returns the URL of the dev server for dialect: the configured one,
// else the embedded server of the kind the dialect names, which dialects
// naming one kind share.
func (d *Dev) server(ctx context.Context, dialect dialects.Database, configured string) (string, error) {
	if err := CheckDevURL(dialect, configured); err != nil {
		return "", err
	}
	kind := dialect.DevServer()
	key := kind + "\x00" + configured
	d.mu.Lock()
	if d.servers == nil {
		d.servers = map[string]*devServer{}
	}
	s := d.servers[key]
	if s == nil {
		s = &devServer{}
		d.servers[key] = s
	}
	d.mu.Unlock()
	s.once.Do(func() {
		progress := d.Progress
		if progress == nil {
			progress = io.Discard
		}
		s.url, s.release, s.err = devdb.Dev(ctx, kind, configured, progress)
		// A configured server that cannot be reached fails here, once for
		// every scratch database wanted on it, with what went wrong.
		if s.err == nil && configured != "" {
			if err := devdb.Ping(ctx, s.url); err != nil {
				s.err = fmt.Errorf("dev database %s: cannot connect: %s", redact.URL(configured),
					redact.Secrets(err.Error(), redact.Password(configured)))
			}
		}
	})
	return s.url, s.err
}

// CheckDevURL checks, before anything connects, that a configured dev URL
// is one of dialect's (or of a dialect on the same kind of server): a
// PostgreSQL URL given as TiDB's dev database would otherwise fail with
// whatever the other database answers to the first query.
func CheckDevURL(dialect dialects.Database, configured string) error {
	if configured == "" {
		return nil
	}
	name, err := devdb.DialectOf(configured)
	if err != nil {
		return fmt.Errorf("dev database: %w", err)
	}
	if name == dialect.Name() {
		return nil
	}
	if other := all.Get(name); other != nil && other.DevServer() == dialect.DevServer() {
		return nil
	}
	return fmt.Errorf("dev database %s is a %s URL, but the env is %s: give it a %s server's URL (%s://...)",
		redact.URL(configured), name, dialect.Name(), dialect.Name(), dialect.Schemes()[0])
}

// DB is a clean database on a dev server, dropped by Close.
type DB struct {
	*sql.DB
	URL  string
	drop func() error
	// keep, when set, empties the database for reuse and reports whether
	// it was kept (else it is dropped).
	keep   func() bool
	closed atomic.Bool
}

// Close closes and drops the database (or, with Dev.Reuse, empties it for
// the next Scratch).
func (s *DB) Close() error {
	if s.closed.Swap(true) {
		return nil // a database kept twice would be handed out twice
	}
	err := s.DB.Close()
	if s.keep != nil && s.keep() {
		return err
	}
	return errors.Join(err, s.drop())
}

// Scratch creates a clean database of dialect on the dev server at the
// configured URL, or an embedded one when it is empty. (Atlas's library has
// no dev database of its own: its CLI asks for a URL or runs Docker.)
func (d *Dev) Scratch(ctx context.Context, dialect dialects.Database, configured string) (*DB, error) {
	server, err := d.server(ctx, dialect, configured)
	if err != nil {
		return nil, err
	}
	d.scratch.Add(1)
	if db := d.take(server); db != nil {
		return db, nil
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "schemagen_scratch_" + hex.EncodeToString(b)
	u, err := devdb.CreateDatabase(ctx, server, name)
	if err != nil {
		return nil, fmt.Errorf("dev database %s: %w (the dev user must be able to create databases)", redact.URL(server), err)
	}
	db, err := devdb.Open(u)
	if err != nil {
		devdb.DropDatabase(context.Background(), server, name)
		return nil, err
	}
	p := &pooled{name: name, url: u}
	if d.Reuse && devdb.Emptiable(server) {
		if p.clean, err = devdb.CleanState(ctx, u); err != nil {
			p.clean = "" // not reused
		}
	}
	return d.handOut(server, p, db), nil
}

// handOut makes the scratch DB of database p on server, open as db.
func (d *Dev) handOut(server string, p *pooled, db *sql.DB) *DB {
	s := &DB{DB: db, URL: p.url, drop: func() error {
		return devdb.DropDatabase(context.Background(), server, p.name)
	}}
	if p.clean != "" {
		s.keep = func() bool {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if ok, err := devdb.Empty(ctx, p.url, p.clean); err != nil || !ok {
				return false
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			if d.servers == nil {
				return false // Dev closed
			}
			if d.pool == nil {
				d.pool = map[string][]*pooled{}
			}
			d.pool[server] = append(d.pool[server], p)
			return true
		}
	}
	return s
}

// take returns an emptied database of server's pool, or nil.
func (d *Dev) take(server string) *DB {
	for {
		d.mu.Lock()
		ps := d.pool[server]
		if len(ps) == 0 {
			d.mu.Unlock()
			return nil
		}
		p := ps[len(ps)-1]
		d.pool[server] = ps[:len(ps)-1]
		d.mu.Unlock()
		db, err := devdb.Open(p.url)
		if err != nil {
			devdb.DropDatabase(context.Background(), server, p.name)
			continue
		}
		d.reused.Add(1)
		return d.handOut(server, p, db)
	}
}

// ExecError is a statement a database refused, with where it came from.
type ExecError struct {
	Source string // file name
	Stmt   int    // 1-based
	SQL    string
	Err    error
}

func (e *ExecError) Error() string {
	return fmt.Sprintf("%s: statement %d failed: %v\n%s", e.Source, e.Stmt, e.Err, e.SQL)
}

func (e *ExecError) Unwrap() error { return e.Err }

// Replay runs files, in order, on the database drv is connected to, with
// Atlas's migrate.Executor as the Atlas CLI replays a directory: statements
// split by the driver's scanner (the dialect's, see dialects.Atlas's
// ScanStmts), one at a time, no revisions written. sources names each file
// in errors (its path): a failure is an *ExecError naming the file and the
// statement.
func Replay(ctx context.Context, drv migrate.Driver, files []migrate.File, sources []string) error {
	local := make([]migrate.File, len(files))
	for i, f := range files {
		// A LocalFile: the executor splits only those with the driver's
		// scanner.
		local[i] = migrate.NewLocalFile(f.Name(), f.Bytes())
		// The executor's own scanning error names the file but not its
		// path; scanning is cheap beside executing.
		if _, err := migrate.FileStmtDecls(drv, local[i]); err != nil {
			return fmt.Errorf("%s: %w", sourceOf(sources, i, f), err)
		}
	}
	// The executor records each file's sum in the revision it writes, which
	// here it does not: a sum per name is all it needs.
	sum := make(migrate.HashFile, len(local))
	for i, f := range local {
		h := sha256.Sum256(f.Bytes())
		sum[i].N, sum[i].H = f.Name(), base64.StdEncoding.EncodeToString(h[:])
	}
	log := &stmtCounter{}
	ex, err := migrate.NewExecutor(drv, filesDir{&migrate.MemDir{}, sum}, migrate.NopRevisionReadWriter{}, migrate.WithLogger(log))
	if err != nil {
		return err
	}
	err = ex.ExecuteFiles(ctx, local)
	if se := (*migrate.StmtExecError)(nil); errors.As(err, &se) {
		name := se.File.Name()
		for i, f := range files {
			if f.Name() == se.File.Name() {
				name = sourceOf(sources, i, f)
			}
		}
		return &ExecError{Source: name, Stmt: log.stmt, SQL: se.Stmt.Text, Err: se.Err}
	}
	return err
}

// sourceOf is the name of file i in errors.
func sourceOf(sources []string, i int, f migrate.File) string {
	if i < len(sources) {
		return sources[i]
	}
	return f.Name()
}

// filesDir is the directory the executor reads the checksum of each file it
// runs from: the sums of the files replayed, computed once (a MemDir would
// hash them all again for every file, and skip files not named *.sql).
// Whether atlas.sum is current is checked where a directory is opened.
type filesDir struct {
	*migrate.MemDir
	sum migrate.HashFile
}

func (d filesDir) Checksum() (migrate.HashFile, error) { return d.sum, nil }

// stmtCounter numbers the statements of the file the executor runs, which
// its StmtExecError does not.
type stmtCounter struct{ stmt int }

func (c *stmtCounter) Log(e migrate.LogEntry) {
	switch e.(type) {
	case migrate.LogFile:
		c.stmt = 0
	case migrate.LogStmt:
		c.stmt++
	}
}

// Exec runs a DDL script named source (a generated schema file) on the
// database drv is connected to, as Replay runs a migration file.
func Exec(ctx context.Context, drv migrate.Driver, source string, src []byte) error {
	return Replay(ctx, drv, []migrate.File{migrate.NewLocalFile(filepath.Base(source), src)}, []string{source})
}

// Inspect reads the schema of the database drv is connected to, without a
// schema name, so that states of different databases compare.
func Inspect(ctx context.Context, drv migrate.Driver) (*schema.Schema, error) {
	s, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{dialects.RevisionTable}})
	if err != nil {
		return nil, err
	}
	s.Name = ""
	return s, nil
}
