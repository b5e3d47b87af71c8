package tidb

import (
	"errors"
	"regexp"
	"strconv"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	_ "ariga.io/atlas/sql/mysql/mysqlcheck" // registers Atlas's analyzers for MySQL/TiDB
	"ariga.io/atlas/sql/schema"
	gomysql "github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/dialects"
)

// AtlasLint implements dialects.Lint: Atlas's MySQL driver and analyzers.
func (Dialect) AtlasLint(conn schema.ExecQuerier) (string, migrate.Driver, error) {
	drv, err := mysql.Open(conn)
	return mysql.DriverName, drv, err
}

// Syntax implements dialects.Lint.
func (Dialect) Syntax() dialects.Syntax { return dialects.SyntaxMySQL }

// OneSchema implements dialects.Lint: a connection sees its database.
func (Dialect) OneSchema() bool { return true }

var syntaxAt = regexp.MustCompile(`line (\d+) column (\d+) near "((?s).*)"\s*$`)

// ReadError implements dialects.Lint: errors 1064 and 1149 are syntax
// errors, located by line, column and the text near.
func (Dialect) ReadError(err error) (dialects.StmtError, bool) {
	var me *gomysql.MySQLError
	if !errors.As(err, &me) {
		return dialects.StmtError{}, false
	}
	e := dialects.StmtError{Syntax: me.Number == 1064 || me.Number == 1149, Msg: me.Message}
	if !e.Syntax {
		return e, true
	}
	e.Msg = "syntax error"
	if m := syntaxAt.FindStringSubmatch(me.Message); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Col, _ = strconv.Atoi(m[2])
		e.Near = m[3]
	}
	return e, true
}

// LintCodes implements dialects.Lint.
func (Dialect) LintCodes() []dialects.LintCode {
	return []dialects.LintCode{
		{Code: "MY101", Source: "atlas", Analyzer: "data_depend (MySQL)",
			Title: "Adding a non-nullable column without a default fills existing rows implicitly (TiDB)",
			Help:  "TiDB writes the type's zero value (0, '', ...) into existing rows. Give the column an explicit DEFAULT or backfill it (see also SG102)."},
		{Code: "MY102", Source: "atlas", Analyzer: "inline_refs (MySQL)",
			Title: "Inline REFERENCES on a column is ignored (TiDB)",
			Help:  "Declare the foreign key as a table constraint. schemagen cannot report this one: Atlas finds it with the SQL parser of its CLI, which its library does not include."},
		{Code: "SG101", Source: "schemagen", Analyzer: "portability", Error: true,
			Title: "CHECK constraint silently ignored: tidb_enable_check_constraint is OFF",
			Help:  "TiDB accepts the CHECK but neither stores nor enforces it. Run SET GLOBAL tidb_enable_check_constraint = ON on that TiDB before applying."},
	}
}

// ChecksSetting implements dialects.Lint: with tidb_enable_check_constraint
// OFF, TiDB drops CHECKs silently.
func (Dialect) ChecksSetting() string { return "tidb_enable_check_constraint" }

// FillsColumn implements dialects.Lint: AUTO_INCREMENT columns.
func (Dialect) FillsColumn(a schema.Attr) bool {
	_, ok := a.(*mysql.AutoIncrement)
	return ok
}
