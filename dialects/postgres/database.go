package postgres

import (
	"net/url"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Schemes implements dialects.Database.
func (Dialect) Schemes() []string { return []string{"postgres", "postgresql"} }

// DriverDSN implements dialects.Database: pgx reads the URL itself.
func (Dialect) DriverDSN(u *url.URL) (driver, dsn string, err error) {
	return "pgx", u.String(), nil
}

// DevServer implements dialects.Database.
func (Dialect) DevServer() string { return "postgres" }

// TransactionalDDL implements dialects.Database: PostgreSQL rolls DDL back.
func (Dialect) TransactionalDDL() bool { return true }

// CheckTarget implements dialects.Database: the revisions table has a
// schema of its own, any database will do.
func (Dialect) CheckTarget(*url.URL) string { return "" }
