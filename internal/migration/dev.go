package migration

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/redact"
)

// Dev hands out clean scratch databases on the dev servers: the URL an env
// configures, else an embedded server started on first use.
type Dev struct {
	Progress io.Writer
	mu       sync.Mutex
	servers  map[string]*devServer
	scratch  atomic.Int64
}

// Scratches is how many scratch databases Dev has made.
func (d *Dev) Scratches() int64 { return d.scratch.Load() }

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
	for _, s := range d.servers {
		if s.release != nil {
			s.release()
		}
	}
	d.servers = nil
}

func (d *Dev) server(ctx context.Context, dialect, configured string) (string, error) {
	d.mu.Lock()
	if d.servers == nil {
		d.servers = map[string]*devServer{}
	}
	key := dialect + "\x00" + configured
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
		s.url, s.release, s.err = devdb.Dev(ctx, dialect, configured, progress)
	})
	return s.url, s.err
}

// Scratch is a clean database on a dev server, dropped by Close.
type Scratch struct {
	*sql.DB
	URL  string
	drop func() error
}

// Close closes and drops the database.
func (s *Scratch) Close() error {
	return errors.Join(s.DB.Close(), s.drop())
}

// Scratch creates a clean database of dialect on the dev server.
func (d *Dev) Scratch(ctx context.Context, dialect, configured string) (*Scratch, error) {
	server, err := d.server(ctx, dialect, configured)
	if err != nil {
		return nil, err
	}
	d.scratch.Add(1)
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
	return &Scratch{DB: db, URL: u, drop: func() error {
		return devdb.DropDatabase(context.Background(), server, name)
	}}, nil
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

// execScript runs the statements of src one by one (TiDB runs DDL one
// statement at a time anyway, and errors then name the statement), split by
// the dialect's scanner as every command that reads migrations splits them.
func execScript(ctx context.Context, d dialects.Dialect, db schema.ExecQuerier, source, src string) error {
	stmts, err := d.ScanStmts(src)
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	for i, s := range stmts {
		if _, err := db.ExecContext(ctx, s.Text); err != nil {
			return &ExecError{Source: source, Stmt: i + 1, SQL: s.Text, Err: err}
		}
	}
	return nil
}

// inspect reads the schema of the database db is connected to, without a
// schema name, so that states of different databases compare.
func inspect(ctx context.Context, d dialects.Dialect, db schema.ExecQuerier) (migrate.Driver, *schema.Schema, error) {
	drv, err := d.OpenAtlas(db)
	if err != nil {
		return nil, nil, err
	}
	s, err := drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{dialects.RevisionTable}})
	if err != nil {
		return nil, nil, err
	}
	s.Name = ""
	return drv, s, nil
}
