package tidb

import (
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
)

// dataSyntax renders the expressions of data statements.
type dataSyntax struct{ syntax }

func (dataSyntax) TextCast(x string, _ expr.Kind) string { return "CAST(" + x + " AS CHAR)" }

// Now keeps microseconds, as PostgreSQL's now() does, in UTC: timestamp
// columns are DATETIME holding UTC, whatever the session's time zone.
func (dataSyntax) Now() string { return "UTC_TIMESTAMP(6)" }

// RenderData implements dialects.DataRenderer.
func (Dialect) RenderData(stmts []expr.Stmt, cat expr.Catalog) []string {
	sy := dataSyntax{}
	var out []string
	for _, s := range stmts {
		out = append(out, renderData(sy, s, cat))
	}
	return out
}

// rowsAlias names the derived table of INSERT ... ON DUPLICATE KEY UPDATE.
const rowsAlias = "schemagen_rows"

func renderData(sy dataSyntax, s expr.Stmt, cat expr.Catalog) string {
	var b strings.Builder
	switch s := s.(type) {
	case *expr.Insert:
		cols := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			cols[i] = Ident(c.Name)
		}
		b.WriteString("INSERT INTO " + Ident(s.Table.Name) + " (" + strings.Join(cols, ", ") + ")\n")
		if !s.DoNothing {
			b.WriteString(expr.SelectSQL(sy, s.Query))
			break
		}
		// INSERT IGNORE would also turn NOT NULL, CHECK, foreign key and
		// conversion errors into warnings. A duplicate key that updates a
		// column to itself changes nothing and counts no row, as PostgreSQL's
		// DO NOTHING, also for two rows of the query with one key (the first
		// is inserted); every other error stays an error. The derived table
		// names the values, so that the UPDATE's column is the target's
		// alone, and ends the query before ON, which a JOIN's ON would take.
		named := make([]string, len(s.Columns))
		names := make([]string, len(s.Columns))
		for i, c := range s.Columns {
			names[i] = c.Name
			named[i] = Ident(rowsAlias) + "." + Ident(c.Name)
		}
		inner := expr.SelectAs(sy, s.Query, names)
		b.WriteString("SELECT " + strings.Join(named, ", ") + " FROM (" + inner + ") AS " + Ident(rowsAlias))
		key := s.Columns[0].Name
		if t := cat(s.Table.Name); t != nil && len(t.Key) > 0 {
			key = t.Key[0]
		}
		k := Ident(s.Table.Name) + "." + Ident(key)
		b.WriteString("\nON DUPLICATE KEY UPDATE " + k + " = " + k)
	case *expr.Update:
		b.WriteString("UPDATE " + Ident(s.Table.Name) + " SET ")
		for i, a := range s.Set {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Ident(a.Column.Name) + " = " + expr.SQL(sy, a.Value))
		}
		where(&b, sy, s.Where)
	case *expr.Delete:
		b.WriteString("DELETE FROM " + Ident(s.Table.Name))
		where(&b, sy, s.Where)
	case *expr.Assert:
		b.WriteString(assertSQL(sy, s))
	}
	return b.String()
}

func where(b *strings.Builder, sy dataSyntax, w expr.Node) {
	if w != nil {
		b.WriteString(" WHERE " + expr.SQL(sy, w))
	}
}

// assertPrefix starts the value that TiDB refuses, so that no message is a
// valid setting.
const assertPrefix = "assertion failed: "

// MaxAssertMessage is the longest message TiDB's error shows in full: it
// cuts the value at 200 characters.
const MaxAssertMessage = 200 - len(assertPrefix)

// assertSQL fails, with the message in TiDB's error, only when the query
// finds a row: TiDB has no stored routines to raise an error with, and a
// temporary table's NOT NULL column (the hand-written way) loses the
// message. Setting a session variable to a value it refuses fails with
// error 1231, "Variable 'block_encryption_mode' can't be set to the value
// of '<the message>'"; when the query finds nothing, the variable is set
// to the value it holds.
func assertSQL(sy dataSyntax, s *expr.Assert) string {
	return "SET @@session.block_encryption_mode = (SELECT IF(EXISTS (" + expr.SelectSQL(sy, s.Query) + "), " +
		String(assertPrefix+s.Message) + ", @@session.block_encryption_mode))"
}
