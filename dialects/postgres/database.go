package postgres

import "net/url"

// Schemes implements dialects.Database.
func (Dialect) Schemes() []string { return []string{"postgres", "postgresql"} }

// TransactionalDDL implements dialects.Database: PostgreSQL rolls DDL back.
func (Dialect) TransactionalDDL() bool { return true }

// CheckTarget implements dialects.Database: the revisions table has a
// schema of its own, any database will do.
func (Dialect) CheckTarget(*url.URL) string { return "" }
