package draw

import (
	"slices"

	"github.com/schemagen/schemagen/internal/difftest"
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
func (g *Gen) Model() *difftest.Model { return g.g.Model() }

// Stmts draws n random statements for m.
func (g *Gen) Stmts(m *difftest.Model, n int) []difftest.Stmt { return g.g.Stmts(m, n) }

// Type draws a column type; key types when key is set.
func (g *Gen) Type(key bool) difftest.Type {
	if key {
		return pick(g.g, keyTypes)
	}
	return pick(g.g, columnTypes)
}

// Default draws a default for a column of type t (as HCL).
func (g *Gen) Default(t difftest.Type) string { return g.g.defaultFor(t) }

// Override draws a per-dialect override of a column of type t, often none.
func (g *Gen) Override(t difftest.Type) string { return g.g.columnOverride(t) }

// Action draws a referential action for a foreign key (null: its columns
// may be NULL).
func (g *Gen) Action(null bool) string { return g.g.action(null) }

// Check draws a CHECK of table t named name.
func (g *Gen) Check(t *difftest.Table, name string) difftest.Check {
	return difftest.Check{Name: name, Expr: g.g.boolExpr(t, 2)}
}

// Index draws an index of table t named name.
func (g *Gen) Index(t *difftest.Table, name string) difftest.Index { return g.g.index(t, name) }

// Condition draws a boolean test of one column of t.
func (g *Gen) Condition(t *difftest.Table) string { return g.g.atom(t) }

// EnumValues draws the values of a new enum.
func (g *Gen) EnumValues() []string { return slices.Clone(pick(g.g, enumValues)) }

// Literal writes v as a literal of the expression language for type t; ok
// is false when v is a value the language writes no literal for.
func Literal(v difftest.Value, t difftest.Type) (lit string, ok bool) {
	if !literalFits(v, t) {
		return "", false
	}
	return literal(v, t), true
}

// SQLString quotes s as an SQL string literal.
func SQLString(s string) string { return sqlString(s) }
