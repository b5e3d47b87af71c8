package dialects

import "net/url"

// Database is what a dialect knows about connecting to and changing its
// databases, which shared code asks instead of naming the dialect.
type Database interface {
	// Schemes are the URL schemes of this dialect's databases, the first
	// the one messages suggest.
	Schemes() []string
	// TransactionalDDL reports whether DDL runs inside a transaction and
	// rolls back with it, so that a migration file can run in one.
	TransactionalDDL() bool
	// CheckTarget reports what a database URL of this dialect lacks to be
	// migrated (a URL that names no database where the revisions table
	// lives in the connected database), as a phrase following the URL, or
	// "".
	CheckTarget(u *url.URL) string
}
