package postgres

import (
	"net/url"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
)

// Schemes implements dialects.Database.
func (Dialect) Schemes() []string { return []string{"postgres", "postgresql"} }

// TransactionalDDL implements dialects.Database: PostgreSQL rolls DDL back.
func (Dialect) TransactionalDDL() bool { return true }

// CheckTarget implements dialects.Database: the revisions table has a
// schema of its own, any database will do.
func (Dialect) CheckTarget(*url.URL) string { return "" }

// Volatile implements dialects.Database: OIDs are one database's.
func (Dialect) Volatile(a schema.Attr) bool {
	_, ok := a.(*postgres.OID)
	return ok
}
