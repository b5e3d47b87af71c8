package dialects

import (
	"context"

	"ariga.io/atlas/sql/migrate"
)

// RevisionTable is the name of the table in which the Atlas CLI, and
// schemagen with it, records the migration files applied to a database.
const RevisionTable = "atlas_schema_revisions"

// Revisions is the migration history of one database, kept in the table the
// Atlas CLI keeps it in (RevisionTable), with the same columns and values, so
// that either tool can continue what the other applied. It is what Atlas's
// migrate.Executor reads and writes.
type Revisions interface {
	migrate.RevisionReadWriter
	// Exists reports whether the table exists.
	Exists(ctx context.Context) (bool, error)
	// ReadIfExists reads every revision, as ReadRevisions does, in one
	// round trip; exists is false, with no revision, when the table does
	// not exist.
	ReadIfExists(ctx context.Context) (revs []*migrate.Revision, exists bool, err error)
	// Init creates the table, and the schema holding it, when missing.
	Init(ctx context.Context) error
}

// RowCounter is a dialect that can tell what dropping an object would lose
// (migrate down refuses to drop a table with rows, or a column holding
// values, unless told to).
type RowCounter interface {
	// CountQuery is a query of one integer: the rows of table, or with a
	// column, the rows in which that column is not NULL.
	CountQuery(table, column string) string
}
