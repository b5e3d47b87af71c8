package postgres

import (
	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
)

// OpenAtlas implements dialects.Dialect: Atlas's PostgreSQL driver sees
// every object the generated DDL declares, CHECKs included.
func (Dialect) OpenAtlas(conn schema.ExecQuerier) (migrate.Driver, error) {
	return postgres.Open(conn)
}
