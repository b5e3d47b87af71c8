package difftest

import (
	"context"
	"database/sql"
	"slices"

	"github.com/schemagen/schemagen/compiler"
)

// Gen draws random models and their parts from one seed, for other
// oracles (internal/plantest) that build on this generator. Its draws are
// the ones Random makes, so a part it draws is one this tester runs.
type Gen struct{ g *rnd }

// NewGen returns a generator of one seed.
func NewGen(seed uint64) *Gen { return &Gen{newRnd(seed)} }

// N returns a random whole number in [0, k).
func (g *Gen) N(k int) int { return g.g.n(k) }

// Chance reports true with probability p.
func (g *Gen) Chance(p float64) bool { return g.g.chance(p) }

// Model draws a random model.
func (g *Gen) Model() *Model { return g.g.Model() }

// Stmts draws n random statements for m.
func (g *Gen) Stmts(m *Model, n int) []Stmt { return g.g.Stmts(m, n) }

// Type draws a column type; key types when key is set.
func (g *Gen) Type(key bool) Type {
	if key {
		return pick(g.g, keyTypes)
	}
	return pick(g.g, columnTypes)
}

// Default draws a default for a column of type t (as HCL).
func (g *Gen) Default(t Type) string { return g.g.defaultFor(t) }

// Override draws a per-dialect override of a column of type t, often none.
func (g *Gen) Override(t Type) string { return g.g.columnOverride(t) }

// Action draws a referential action for a foreign key (null: its columns
// may be NULL).
func (g *Gen) Action(null bool) string { return g.g.action(null) }

// Check draws a CHECK of table t named name.
func (g *Gen) Check(t *Table, name string) Check {
	return Check{Name: name, Expr: g.g.boolExpr(t, 2)}
}

// Index draws an index of table t named name.
func (g *Gen) Index(t *Table, name string) Index { return g.g.index(t, name) }

// Condition draws a boolean test of one column of t.
func (g *Gen) Condition(t *Table) string { return g.g.atom(t) }

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

// EnumValues draws the values of a new enum.
func (g *Gen) EnumValues() []string { return slices.Clone(pick(g.g, enumValues)) }
