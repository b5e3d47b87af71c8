package tidb

import (
	"net/url"
	"strings"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"
)

// Schemes implements dialects.Database.
func (Dialect) Schemes() []string { return []string{"mysql", "tidb"} }

// TransactionalDDL implements dialects.Database: TiDB commits each DDL
// statement on its own.
func (Dialect) TransactionalDDL() bool { return false }

// CheckTarget implements dialects.Database: the revisions table lives in
// the connected database, which the URL must name.
func (Dialect) CheckTarget(u *url.URL) string {
	if strings.Trim(u.Path, "/") == "" {
		return "names no database: use mysql://USER@HOST:PORT/DATABASE"
	}
	return ""
}

// Volatile implements dialects.Database: the AUTO_INCREMENT counter changes
// with the data, and the CREATE TABLE text repeats what the other attributes
// say along with that counter.
func (Dialect) Volatile(a schema.Attr) bool {
	switch a.(type) {
	case *mysql.AutoIncrement, *mysql.CreateStmt:
		return true
	}
	return false
}
