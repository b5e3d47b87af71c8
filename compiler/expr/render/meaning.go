package render

import "github.com/schemagen/schemagen/compiler/expr"

// Meaning is the text of an expression's meaning, for pairing objects of
// two dialects: what the dialects write differently for the same thing
// (BETWEEN or >= AND <=, parentheses, the nesting of AND and OR) is written
// one way. "" for no expression.
func Meaning(n expr.Node) string {
	if n == nil {
		return ""
	}
	return String(meaningForm(n))
}

func meaningForm(n expr.Node) expr.Node {
	switch n := n.(type) {
	case *expr.Paren:
		return meaningForm(n.X)
	case *expr.Between:
		x, lo, hi := meaningForm(n.X), meaningForm(n.Lo), meaningForm(n.Hi)
		if n.Not {
			return &expr.Binary{Op: expr.OpOr, L: &expr.Binary{Op: expr.OpLt, L: x, R: lo}, R: &expr.Binary{Op: expr.OpGt, L: x, R: hi}}
		}
		return &expr.Binary{Op: expr.OpAnd, L: &expr.Binary{Op: expr.OpGe, L: x, R: lo}, R: &expr.Binary{Op: expr.OpLe, L: x, R: hi}}
	case *expr.Binary:
		l, r := meaningForm(n.L), meaningForm(n.R)
		if n.Op != expr.OpAnd && n.Op != expr.OpOr {
			return &expr.Binary{Op: n.Op, L: l, R: r}
		}
		// Left-nested chains: a AND (b AND c) is (a AND b) AND c.
		var terms []expr.Node
		var flat func(x expr.Node)
		flat = func(x expr.Node) {
			if b, ok := x.(*expr.Binary); ok && b.Op == n.Op {
				flat(b.L)
				flat(b.R)
				return
			}
			terms = append(terms, x)
		}
		flat(l)
		flat(r)
		out := terms[0]
		for _, t := range terms[1:] {
			out = &expr.Binary{Op: n.Op, L: out, R: t}
		}
		return out
	case *expr.Not:
		x := meaningForm(n.X)
		if inner, ok := x.(*expr.Not); ok {
			return inner.X
		}
		return &expr.Not{X: x}
	case *expr.Neg:
		return &expr.Neg{X: meaningForm(n.X)}
	case *expr.IsNull:
		return &expr.IsNull{X: meaningForm(n.X), Not: n.Not}
	case *expr.In:
		list := make([]expr.Node, len(n.List))
		for i, x := range n.List {
			list[i] = meaningForm(x)
		}
		return &expr.In{X: meaningForm(n.X), List: list, Not: n.Not}
	case *expr.Call:
		args := make([]expr.Node, len(n.Args))
		for i, x := range n.Args {
			args[i] = meaningForm(x)
		}
		return &expr.Call{Name: n.Name, Args: args}
	case *expr.JSONType:
		return &expr.JSONType{X: meaningForm(n.X), Types: n.Types, Not: n.Not}
	case *expr.Case:
		c := &expr.Case{}
		for _, w := range n.Whens {
			c.Whens = append(c.Whens, expr.When{Cond: meaningForm(w.Cond), Then: meaningForm(w.Then)})
		}
		// ELSE NULL is what no ELSE means.
		if lit, ok := n.Else.(*expr.Literal); n.Else != nil && !(ok && lit.Kind == expr.LitNull) {
			c.Else = meaningForm(n.Else)
		}
		return c
	}
	return n
}
