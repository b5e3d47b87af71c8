package expr

// Meaning is the text of an expression's meaning, for pairing objects of
// two dialects: what the dialects write differently for the same thing
// (BETWEEN or >= AND <=, parentheses, the nesting of AND and OR) is written
// one way. "" for no expression.
func Meaning(n Node) string {
	if n == nil {
		return ""
	}
	return String(meaningForm(n))
}

func meaningForm(n Node) Node {
	switch n := n.(type) {
	case *Paren:
		return meaningForm(n.X)
	case *Between:
		x, lo, hi := meaningForm(n.X), meaningForm(n.Lo), meaningForm(n.Hi)
		if n.Not {
			return &Binary{Op: OpOr, L: &Binary{Op: OpLt, L: x, R: lo}, R: &Binary{Op: OpGt, L: x, R: hi}}
		}
		return &Binary{Op: OpAnd, L: &Binary{Op: OpGe, L: x, R: lo}, R: &Binary{Op: OpLe, L: x, R: hi}}
	case *Binary:
		l, r := meaningForm(n.L), meaningForm(n.R)
		if n.Op != OpAnd && n.Op != OpOr {
			return &Binary{Op: n.Op, L: l, R: r}
		}
		// Left-nested chains: a AND (b AND c) is (a AND b) AND c.
		var terms []Node
		var flat func(x Node)
		flat = func(x Node) {
			if b, ok := x.(*Binary); ok && b.Op == n.Op {
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
			out = &Binary{Op: n.Op, L: out, R: t}
		}
		return out
	case *Not:
		x := meaningForm(n.X)
		if inner, ok := x.(*Not); ok {
			return inner.X
		}
		return &Not{X: x}
	case *Neg:
		return &Neg{X: meaningForm(n.X)}
	case *IsNull:
		return &IsNull{X: meaningForm(n.X), Not: n.Not}
	case *In:
		list := make([]Node, len(n.List))
		for i, x := range n.List {
			list[i] = meaningForm(x)
		}
		return &In{X: meaningForm(n.X), List: list, Not: n.Not}
	case *Call:
		args := make([]Node, len(n.Args))
		for i, x := range n.Args {
			args[i] = meaningForm(x)
		}
		return &Call{Name: n.Name, Args: args}
	case *JSONType:
		return &JSONType{X: meaningForm(n.X), Types: n.Types, Not: n.Not}
	case *Case:
		c := &Case{}
		for _, w := range n.Whens {
			c.Whens = append(c.Whens, When{Cond: meaningForm(w.Cond), Then: meaningForm(w.Then)})
		}
		// ELSE NULL is what no ELSE means.
		if lit, ok := n.Else.(*Literal); n.Else != nil && !(ok && lit.Kind == LitNull) {
			c.Else = meaningForm(n.Else)
		}
		return c
	}
	return n
}
