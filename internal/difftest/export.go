package difftest

import (
	"context"
	"database/sql"
	"slices"

	"github.com/schemagen/schemagen/compiler"
)

// Reductions returns models with one part of m removed (what the shrinker
// tries).
func Reductions(m *Model) []*Model { return slices.Collect(reductions(m)) }

// DropColumn removes column i of t (a table of m) and everything that names it.
func DropColumn(m *Model, t *Table, i int) { dropColumn(m, t, i) }

// Classify names the kind of outcome of a statement: "ok", the constraint
// that rejected it ("not-null", "unique", "foreign-key", "check"), "data"
// for a value out of range or malformed, or the database's own code.
func Classify(err error) string { return classify(err) }

// Shape is the tables and column types of a compiled model.
func Shape(s *compiler.Schema) *Model { return shape(s) }

// Rows reads the rows of table t (its columns as t lists them) on the
// connection of dialect d as canonical text, sorted.
func Rows(ctx context.Context, conn *sql.Conn, d string, t *Table) ([]string, error) {
	return rows(ctx, conn, d, t)
}

// SQLOf renders s for dialect d over the shape m.
func SQLOf(s Stmt, d string, m *Model) (string, bool) { return s.SQL(d, m) }

// QuoteIdent writes a column reference of the expression language.
func QuoteIdent(s string) string { return quoteIdent(s) }

// String quotes s as an HCL string.
func String(s string) string { return hclString(s) }
