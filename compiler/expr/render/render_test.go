package render_test

import (
	"testing"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
)

// TestStringWithoutParens prints trees built without Paren nodes (as read
// back from a database) so that they parse to the same structure.
func TestStringWithoutParens(t *testing.T) {
	col := func(n string) expr.Node { return &expr.Column{Name: n} }
	lit := func(v string) expr.Node { return &expr.Literal{Kind: expr.LitNumber, Value: v} }
	cmp := func(c string) expr.Node { return &expr.Binary{Op: expr.OpEq, L: col(c), R: lit("1")} }
	cases := []struct {
		n    expr.Node
		want string
	}{
		{&expr.Binary{Op: expr.OpAnd, L: cmp("a"), R: &expr.Binary{Op: expr.OpOr, L: cmp("b"), R: cmp("c")}}, "a = 1 AND (b = 1 OR c = 1)"},
		{&expr.Binary{Op: expr.OpOr, L: &expr.Binary{Op: expr.OpAnd, L: cmp("a"), R: cmp("b")}, R: cmp("c")}, "a = 1 AND b = 1 OR c = 1"},
		{&expr.Binary{Op: expr.OpAnd, L: cmp("a"), R: &expr.Binary{Op: expr.OpAnd, L: cmp("b"), R: cmp("c")}}, "a = 1 AND (b = 1 AND c = 1)"},
		{&expr.Not{X: &expr.Binary{Op: expr.OpOr, L: cmp("a"), R: cmp("b")}}, "NOT (a = 1 OR b = 1)"},
		{&expr.Binary{Op: expr.OpMul, L: &expr.Binary{Op: expr.OpAdd, L: col("a"), R: lit("1")}, R: lit("2")}, "(a + 1) * 2"},
		{&expr.Binary{Op: expr.OpSub, L: col("a"), R: &expr.Binary{Op: expr.OpSub, L: col("b"), R: col("c")}}, "a - (b - c)"},
		{&expr.Binary{Op: expr.OpEq, L: &expr.IsNull{X: col("a")}, R: &expr.Literal{Kind: expr.LitBool, Value: "true"}}, "(a IS NULL) = TRUE"},
		{&expr.Neg{X: lit("-1")}, "-(-1)"},
	}
	for _, c := range cases {
		got := render.String(c.n)
		if got != c.want {
			t.Errorf("String = %q, want %q", got, c.want)
			continue
		}
		back, err := expr.Parse(got)
		if err != nil {
			t.Errorf("%q does not parse: %v", got, err)
			continue
		}
		if strip(back) != strip(c.n) {
			t.Errorf("%q parses to another structure", got)
		}
	}
}

// strip prints a tree's structure with every node parenthesised, ignoring
// Paren nodes.
func strip(n expr.Node) string {
	switch n := n.(type) {
	case *expr.Paren:
		return strip(n.X)
	case *expr.Binary:
		return "(" + strip(n.L) + " " + n.Op.String() + " " + strip(n.R) + ")"
	case *expr.Not:
		return "(NOT " + strip(n.X) + ")"
	case *expr.Neg:
		return "(-" + strip(n.X) + ")"
	case *expr.IsNull:
		return "(" + strip(n.X) + " IS NULL " + map[bool]string{true: "NOT", false: ""}[n.Not] + ")"
	}
	return render.String(n)
}
