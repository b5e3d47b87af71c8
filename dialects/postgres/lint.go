package postgres

import (
	"errors"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	_ "ariga.io/atlas/sql/postgres/postgrescheck" // registers Atlas's analyzers for PostgreSQL
	"ariga.io/atlas/sql/schema"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/dialects"
)

// AtlasLint implements dialects.Lint.
func (Dialect) AtlasLint(conn schema.ExecQuerier) (string, migrate.Driver, error) {
	drv, err := postgres.Open(conn)
	return postgres.DriverName, drv, err
}

// Syntax implements dialects.Lint.
func (Dialect) Syntax() dialects.Syntax { return dialects.SyntaxPostgreSQL }

// OneSchema implements dialects.Lint: a connection sees every schema of its
// database.
func (Dialect) OneSchema() bool { return false }

// ReadError implements dialects.Lint: SQLSTATE 42601 is a syntax error.
func (Dialect) ReadError(err error) (dialects.StmtError, bool) {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return dialects.StmtError{}, false
	}
	return dialects.StmtError{Syntax: pe.Code == "42601", Msg: pe.Message, Rune: int(pe.Position)}, true
}

// LintCodes implements dialects.Lint.
func (Dialect) LintCodes() []dialects.LintCode { return nil }

// ChecksSetting implements dialects.Lint: PostgreSQL always keeps CHECKs.
func (Dialect) ChecksSetting() string { return "" }

// FillsColumn implements dialects.Lint: identity columns.
func (Dialect) FillsColumn(a schema.Attr) bool {
	_, ok := a.(*postgres.Identity)
	return ok
}
