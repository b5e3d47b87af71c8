package tidb

import (
	"errors"
	"strings"

	gomysql "github.com/go-sql-driver/mysql"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/revisions"
)

// Revisions implements dialects.Dialect: the Atlas CLI's revisions table,
// `atlas_schema_revisions`, in the connected database, where the CLI keeps
// it for a URL that names a database.
func (Dialect) Revisions(conn schema.ExecQuerier) dialects.Revisions {
	return revisions.New(revisionSpec, conn)
}

// revisionTableDDL is the table the Atlas CLI creates (through Ent) on the
// MySQL family.
const revisionTableDDL = "CREATE TABLE IF NOT EXISTS `" + dialects.RevisionTable + "` (" +
	"`version` varchar(255) NOT NULL, " +
	"`description` varchar(255) NOT NULL, " +
	"`type` bigint unsigned NOT NULL DEFAULT 2, " +
	"`applied` bigint NOT NULL DEFAULT 0, " +
	"`total` bigint NOT NULL DEFAULT 0, " +
	"`executed_at` timestamp NOT NULL, " +
	"`execution_time` bigint NOT NULL, " +
	"`error` longtext NULL, " +
	"`error_stmt` longtext NULL, " +
	"`hash` varchar(255) NOT NULL, " +
	"`partial_hashes` json NULL, " +
	"`operator_version` varchar(255) NOT NULL, " +
	"PRIMARY KEY (`version`)" +
	") CHARSET utf8mb4 COLLATE utf8mb4_bin"

var revisionSpec = &revisions.Spec{
	Ident:  Ident,
	Param:  func(int) string { return "?" },
	Create: []string{revisionTableDDL},
	Exists: "SELECT COUNT(*) > 0 FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '" + dialects.RevisionTable + "'",
	// TIMESTAMP keeps whole seconds. FROM_UNIXTIME and UNIX_TIMESTAMP
	// convert through the session's time zone both ways, so the stored
	// instant is right whatever that zone is.
	TimeIn:  func(p string) string { return "FROM_UNIXTIME(" + p + " DIV 1000000)" },
	TimeOut: func(c string) string { return "CAST(UNIX_TIMESTAMP(" + c + ") AS SIGNED) * 1000000" },
	JSONIn:  func(p string) string { return "CAST(" + p + " AS JSON)" },
	JSONOut: func(c string) string { return "CAST(" + c + " AS CHAR)" },
	Upsert: func(columns []string) string {
		set := make([]string, len(columns))
		for i, c := range columns {
			set[i] = Ident(c) + " = VALUES(" + Ident(c) + ")"
		}
		return "ON DUPLICATE KEY UPDATE " + strings.Join(set, ", ")
	},
	// Error 1146: table doesn't exist.
	Missing: func(err error) bool {
		var me *gomysql.MySQLError
		return errors.As(err, &me) && me.Number == 1146
	},
}

// CountQuery implements dialects.RowCounter.
func (Dialect) CountQuery(table, column string) string {
	q := "SELECT COUNT(*) FROM " + Ident(table)
	if column != "" {
		q += " WHERE " + Ident(column) + " IS NOT NULL"
	}
	return q
}
