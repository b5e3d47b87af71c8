package postgres

import (
	"context"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// OpenAtlas implements dialects.Dialect: Atlas's PostgreSQL driver sees
// every object the generated DDL declares, CHECKs included.
func (Dialect) OpenAtlas(conn schema.ExecQuerier) (migrate.Driver, error) {
	return postgres.Open(conn)
}

// Renormalizes implements dialects.Dialect: PostgreSQL's deparsed CHECKs,
// defaults and predicates are not always stable when parsed again.
func (Dialect) Renormalizes() bool { return true }

// ServerWarnings implements dialects.Dialect: no PostgreSQL setting changes
// what the generated DDL means.
func (Dialect) ServerWarnings(context.Context, schema.ExecQuerier) ([]string, error) {
	return nil, nil
}

// MarshalState implements dialects.Dialect.
func (Dialect) MarshalState(s *schema.Schema) ([]byte, error) {
	return sqltext.MarshalState(s, postgres.MarshalHCL)
}

// UnmarshalState implements dialects.Dialect.
func (Dialect) UnmarshalState(b []byte) (*schema.Schema, error) {
	return sqltext.UnmarshalState(b, postgres.EvalHCLBytes)
}
