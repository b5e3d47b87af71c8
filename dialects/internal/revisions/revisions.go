// Package revisions reads and writes the Atlas CLI's revisions table
// (atlas_schema_revisions) over SQL, for every dialect: each dialect describes
// its table and the few expressions that differ, this package does the rest.
//
// The rows are those the Atlas CLI writes through Ent: the file's version as
// the key, executed_at the start of the last attempt, execution_time in
// nanoseconds (a time.Duration), error and error_stmt of a failed attempt,
// partial_hashes a JSON array of "h1:"-prefixed hashes of the statements
// applied so far while a file is incomplete. The row with the version
// ".atlas_cloud_identifier" is the CLI's identifier of the table, never a
// revision.
package revisions

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"github.com/schemagen/schemagen/dialects"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
)

// Name is the table's name (and, where the table has a schema of its own,
// the schema's).
const Name = dialects.RevisionTable

// identifierVersion is the version of the Atlas CLI's identifier row.
const identifierVersion = ".atlas_cloud_identifier"

// Spec is one dialect's revisions table.
type Spec struct {
	// Schema holds the table; empty for the connected database (MySQL
	// family), where the table is not schema-qualified.
	Schema string
	// Ident quotes an identifier.
	Ident func(string) string
	// Param is the n-th (1-based) query parameter: "$1" or "?".
	Param func(n int) string
	// Create creates the schema and the table when missing, in order.
	Create []string
	// Exists is a query of one boolean (or 0/1) row: whether the table
	// exists.
	Exists string
	// TimeIn turns a parameter holding microseconds since the Unix epoch
	// into an executed_at value; TimeOut turns the column back.
	TimeIn, TimeOut func(string) string
	// JSONIn turns a text parameter into a partial_hashes value; JSONOut
	// turns the column into text.
	JSONIn, JSONOut func(string) string
	// Upsert is the clause after INSERT ... VALUES (...) that replaces the
	// row of the same version with the given columns' new values.
	Upsert func(columns []string) string
	// Missing reports whether a query failed because the table (or its
	// schema) does not exist.
	Missing func(error) bool
}

// columns are the table's columns in the Atlas CLI's order.
var columns = []string{"version", "description", "type", "applied", "total", "executed_at", "execution_time", "error", "error_stmt", "hash", "partial_hashes", "operator_version"}

// Store is the revisions table of one connection.
type Store struct {
	spec  *Spec
	conn  schema.ExecQuerier
	table string
	// The statements, built once from spec.
	selectAll, selectOne, upsert, delete string
}

// New returns the revisions table of spec on conn (a *sql.DB, *sql.Conn or
// *sql.Tx).
func New(spec *Spec, conn schema.ExecQuerier) *Store {
	s := &Store{spec: spec, conn: conn, table: spec.Ident(Name)}
	if spec.Schema != "" {
		s.table = spec.Ident(spec.Schema) + "." + s.table
	}
	sel := make([]string, len(columns))
	for i, c := range columns {
		switch c {
		case "executed_at":
			sel[i] = spec.TimeOut(spec.Ident(c))
		case "partial_hashes":
			sel[i] = spec.JSONOut(spec.Ident(c))
		default:
			sel[i] = spec.Ident(c)
		}
	}
	version := spec.Ident("version")
	base := "SELECT " + strings.Join(sel, ", ") + " FROM " + s.table
	s.selectAll = base + " WHERE " + version + " <> " + spec.Param(1) + " ORDER BY " + version
	s.selectOne = base + " WHERE " + version + " = " + spec.Param(1)
	cols := make([]string, len(columns))
	vals := make([]string, len(columns))
	for i, c := range columns {
		cols[i] = spec.Ident(c)
		switch c {
		case "executed_at":
			vals[i] = spec.TimeIn(spec.Param(i + 1))
		case "partial_hashes":
			vals[i] = spec.JSONIn(spec.Param(i + 1))
		default:
			vals[i] = spec.Param(i + 1)
		}
	}
	s.upsert = "INSERT INTO " + s.table + " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(vals, ", ") + ") " + spec.Upsert(columns[1:])
	s.delete = "DELETE FROM " + s.table + " WHERE " + version + " = " + spec.Param(1)
	return s
}

// Ident implements migrate.RevisionReadWriter.
func (s *Store) Ident() *migrate.TableIdent {
	return &migrate.TableIdent{Name: Name, Schema: s.spec.Schema}
}

// Exists reports whether the table exists.
func (s *Store) Exists(ctx context.Context) (bool, error) {
	rows, err := s.conn.QueryContext(ctx, s.spec.Exists)
	if err != nil {
		return false, fmt.Errorf("looking for %s: %w", s.table, err)
	}
	defer rows.Close()
	var ok bool
	for rows.Next() {
		if err := rows.Scan(&ok); err != nil {
			return false, fmt.Errorf("looking for %s: %w", s.table, err)
		}
	}
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("looking for %s: %w", s.table, err)
	}
	return ok, nil
}

// Init creates the table, and its schema, when missing.
func (s *Store) Init(ctx context.Context) error {
	for _, stmt := range s.spec.Create {
		if _, err := s.conn.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("creating %s: %w", s.table, err)
		}
	}
	return nil
}

// ReadRevisions implements migrate.RevisionReadWriter: every revision, by
// version.
func (s *Store) ReadRevisions(ctx context.Context) ([]*migrate.Revision, error) {
	return s.readAll(ctx)
}

// ReadIfExists is ReadRevisions with exists false, and no revision, when the
// table does not exist: one query where Exists and ReadRevisions take two.
func (s *Store) ReadIfExists(ctx context.Context) (revs []*migrate.Revision, exists bool, err error) {
	revs, err = s.readAll(ctx)
	if err != nil && s.spec.Missing(err) {
		return nil, false, nil
	}
	return revs, err == nil, err
}

func (s *Store) readAll(ctx context.Context) ([]*migrate.Revision, error) {
	rows, err := s.conn.QueryContext(ctx, s.selectAll, identifierVersion)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.table, err)
	}
	defer rows.Close()
	var revs []*migrate.Revision
	for rows.Next() {
		r, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", s.table, err)
		}
		revs = append(revs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.table, err)
	}
	return revs, nil
}

// ReadRevision implements migrate.RevisionReadWriter; it returns
// migrate.ErrRevisionNotExist when there is no such version.
func (s *Store) ReadRevision(ctx context.Context, version string) (*migrate.Revision, error) {
	if version == identifierVersion {
		return nil, migrate.ErrRevisionNotExist
	}
	rows, err := s.conn.QueryContext(ctx, s.selectOne, version)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.table, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("reading %s: %w", s.table, err)
		}
		return nil, migrate.ErrRevisionNotExist
	}
	r, err := scan(rows)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.table, err)
	}
	return r, rows.Close()
}

// WriteRevision implements migrate.RevisionReadWriter: it inserts the
// revision or replaces the one of the same version.
func (s *Store) WriteRevision(ctx context.Context, r *migrate.Revision) error {
	if r.Version == identifierVersion {
		return fmt.Errorf("%s: version %q is reserved for the Atlas CLI", s.table, r.Version)
	}
	var partial any // NULL unless statements of an incomplete file are recorded
	if len(r.PartialHashes) > 0 {
		b, err := json.Marshal(r.PartialHashes)
		if err != nil {
			return err
		}
		partial = string(b)
	}
	_, err := s.conn.ExecContext(ctx, s.upsert,
		r.Version,
		r.Description,
		int64(r.Type),
		int64(r.Applied),
		int64(r.Total),
		r.ExecutedAt.UnixMicro(),
		int64(r.ExecutionTime),
		nullString(r.Error),
		nullString(r.ErrorStmt),
		r.Hash,
		partial,
		r.OperatorVersion,
	)
	if err != nil {
		return fmt.Errorf("writing revision %s to %s: %w", r.Version, s.table, err)
	}
	return nil
}

// DeleteRevision implements migrate.RevisionReadWriter.
func (s *Store) DeleteRevision(ctx context.Context, version string) error {
	if version == identifierVersion {
		return fmt.Errorf("%s: version %q is reserved for the Atlas CLI", s.table, version)
	}
	if _, err := s.conn.ExecContext(ctx, s.delete, version); err != nil {
		return fmt.Errorf("deleting revision %s from %s: %w", version, s.table, err)
	}
	return nil
}

func scan(rows *sql.Rows) (*migrate.Revision, error) {
	var (
		r                     migrate.Revision
		typ, applied, total   int64
		executedAt, execution int64
		errText, errStmt      sql.NullString
		partial               sql.NullString
	)
	if err := rows.Scan(&r.Version, &r.Description, &typ, &applied, &total, &executedAt, &execution,
		&errText, &errStmt, &r.Hash, &partial, &r.OperatorVersion); err != nil {
		return nil, err
	}
	r.Type = migrate.RevisionType(typ)
	r.Applied, r.Total = int(applied), int(total)
	r.ExecutedAt = time.UnixMicro(executedAt)
	r.ExecutionTime = time.Duration(execution)
	r.Error, r.ErrorStmt = errText.String, errStmt.String
	if partial.Valid && partial.String != "" && partial.String != "null" {
		if err := json.Unmarshal([]byte(partial.String), &r.PartialHashes); err != nil {
			return nil, fmt.Errorf("revision %s: partial_hashes: %w", r.Version, err)
		}
	}
	return &r, nil
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

var _ migrate.RevisionReadWriter = (*Store)(nil)
