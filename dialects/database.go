package dialects

import (
	"net/url"
)

// Database is what a dialect knows about connecting to and changing its
// databases, which shared code asks instead of naming the dialect.
type Database interface {
	Named
	// Schemes are the URL schemes of this dialect's databases, the first
	// the one messages suggest.
	Schemes() []string
	// DriverDSN returns the database/sql driver (which this dialect's
	// package registers) and data source name that open a URL of this
	// dialect. Its error may hold the URL's password: callers redact it.
	DriverDSN(u *url.URL) (driver, dsn string, err error)
	// DevServer is the kind of server on which scratch databases of this
	// dialect are made when no dev URL is configured: the embedded server
	// internal/devdb starts, "postgres" or "tidb" (a dialect that speaks to
	// another's server names that server).
	DevServer() string
	// TransactionalDDL reports whether DDL runs inside a transaction and
	// rolls back with it, so that a migration file can run in one.
	TransactionalDDL() bool
	// CheckTarget reports what a database URL of this dialect lacks to be
	// migrated (a URL that names no database where the revisions table
	// lives in the connected database), as a phrase following the URL, or
	// "".
	CheckTarget(u *url.URL) string
}

// ServerWarning is a server setting under which the generated DDL would not
// mean what it says.
type ServerWarning struct {
	Kind ServerWarningKind
	// Text says it in a sentence, with what to do.
	Text string
}

// ServerWarningKind tells what a server setting does to the DDL.
type ServerWarningKind int

// The kinds of server warnings.
const (
	// ChecksIgnored: the server accepts CHECK constraints and does not
	// enforce them.
	ChecksIgnored ServerWarningKind = iota + 1
	// CaseMappingDiffers: lower and upper change other letters than the
	// other dialects' do, so CHECKs, indexes and generated columns that
	// call them hold other values there.
	CaseMappingDiffers
)
