package postgres

import (
	"context"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres/internal/catalog"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lower"
)

// FixSerials implements the importer's serial reading. Atlas reads every
// column whose default is nextval('<x>_<y>_seq') as a serial; only a
// column that owns its sequence, used by its default alone, is one, and
// is one whatever the sequence is called (<t>_<c>_seq1). Another one (a sequence two tables
// share, one that starts at 1000) is its integer with its nextval default,
// so that the model does not make it a new sequence of its own. A
// sequence that is a serial's in all but the ownership (sequenceDefaults)
// stays a serial: the model's identity gives the same column and numbers,
// from a sequence the column owns, of the column's integer type; a note
// says so.
func (Dialect) FixSerials(ctx context.Context, conn schema.ExecQuerier, tables []*schema.Table) (map[string][]string, error) {
	return catalog.FixSerials(ctx, conn, tables)
}

// ReadRawObjects implements the importer's raw object reading: the
// sequences no column owns, the functions and the triggers of the current
// schema and its domains (not an extension's, nor the on_update triggers and functions
// schemagen makes for tables of the model, which tables marks), each with
// the statement that creates it; and what it cannot create, described.
func (Dialect) ReadRawObjects(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table) ([]dialects.RawObject, []string, error) {
	return catalog.ReadRawObjects(ctx, conn, tables, lower.OnUpdateName)
}

// ReadNotNulls implements the importer's reading of NOT NULL constraints.
// PostgreSQL 18 keeps each NOT NULL as a constraint (contype n) with a
// name, which the DDL may give (CONSTRAINT name NOT NULL) or a rename
// change, and a state (NOT VALID, NO INHERIT). The model's null = false
// makes one named <table>_<column>_not_null, valid and inherited: each
// other one is described, by table. Earlier versions have none.
func (Dialect) ReadNotNulls(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table) (map[string][]string, error) {
	return catalog.ReadNotNulls(ctx, conn, tables)
}
