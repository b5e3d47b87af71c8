// Package sqltext holds rendering helpers shared by the dialect packages:
// the walk over portable expressions, with hooks where dialects differ.
package sqltext

import (
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
)

// Syntax is what a dialect says about the parts of an expression that differ
// between dialects.
type Syntax interface {
	Ident(name string) string
	String(s string) string
	// TextOperand renders a column used where a string is needed.
	TextOperand(sql string, k expr.Kind) string
	Regex(x, pattern string, not bool) string
	Distinct(l, r string, not bool) string
	Concat(l, r string) string
	JSONType(x string, types []string, not bool) string
	Bool(v bool) string
}

// Expr renders a portable expression in a dialect's syntax. Every operand that
// is not atomic is parenthesised, so that the differences in operator
// precedence between dialects cannot change its meaning.
func Expr(s Syntax, n expr.Node) string {
	var b strings.Builder
	r := renderer{s, &b}
	r.node(n)
	return b.String()
}

type renderer struct {
	s Syntax
	b *strings.Builder
}

// sub renders n on its own, for the dialect hooks that take strings.
func (r renderer) sub(n expr.Node) string {
	var b strings.Builder
	renderer{r.s, &b}.node(n)
	return b.String()
}

func atomic(n expr.Node) bool {
	switch n.(type) {
	case *expr.Column, *expr.Literal, *expr.Call, *expr.Paren:
		return true
	}
	return false
}

// operand writes n, in parentheses unless it is atomic.
func (r renderer) operand(n expr.Node) {
	if atomic(n) {
		r.node(n)
		return
	}
	r.b.WriteByte('(')
	r.node(n)
	r.b.WriteByte(')')
}

func (r renderer) operandString(n expr.Node) string {
	if atomic(n) {
		return r.sub(n)
	}
	return "(" + r.sub(n) + ")"
}

// text renders n where a string is needed; arg tells that n is a function
// argument, which needs no parentheses.
func (r renderer) text(n expr.Node, arg bool) string {
	if c, ok := unparen(n).(*expr.Column); ok {
		return r.s.TextOperand(r.s.Ident(c.Name), c.Kind)
	}
	if arg {
		return r.sub(n)
	}
	return r.operandString(n)
}

func unparen(n expr.Node) expr.Node {
	for {
		p, ok := n.(*expr.Paren)
		if !ok {
			return n
		}
		n = p.X
	}
}

func (r renderer) node(n expr.Node) {
	b := r.b
	switch n := n.(type) {
	case *expr.Column:
		b.WriteString(r.s.Ident(n.Name))
	case *expr.Literal:
		switch n.Kind {
		case expr.LitString:
			b.WriteString(r.s.String(n.Value))
		case expr.LitNull:
			b.WriteString("NULL")
		case expr.LitBool:
			b.WriteString(r.s.Bool(n.Value == "true"))
		default:
			b.WriteString(n.Value)
		}
	case *expr.Paren:
		b.WriteByte('(')
		r.node(n.X)
		b.WriteByte(')')
	case *expr.Not:
		b.WriteString("NOT ")
		r.operand(n.X)
	case *expr.Neg:
		// "--" would start a comment.
		x := r.operandString(n.X)
		if strings.HasPrefix(x, "-") {
			x = "(" + x + ")"
		}
		b.WriteString("-" + x)
	case *expr.IsNull:
		r.operand(n.X)
		if n.Not {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
	case *expr.In:
		r.operand(n.X)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i, x := range n.List {
			if i > 0 {
				b.WriteString(", ")
			}
			r.operand(x)
		}
		b.WriteByte(')')
	case *expr.Between:
		r.operand(n.X)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" BETWEEN ")
		r.operand(n.Lo)
		b.WriteString(" AND ")
		r.operand(n.Hi)
	case *expr.Call:
		b.WriteString(strings.ToUpper(n.Name))
		b.WriteByte('(')
		for i, x := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if f := expr.Functions[n.Name]; i < len(f.Args) && f.Args[i] == expr.KindString {
				b.WriteString(r.text(x, true))
			} else {
				r.node(x)
			}
		}
		b.WriteByte(')')
	case *expr.JSONType:
		b.WriteString(r.s.JSONType(r.sub(n.X), n.Types, n.Not))
	case *expr.Binary:
		r.binary(n)
	}
}

func (r renderer) binary(n *expr.Binary) {
	switch n.Op {
	case expr.OpAnd, expr.OpOr:
		r.logical(n.L, n.Op, false)
		r.b.WriteString(" " + n.Op.String() + " ")
		r.logical(n.R, n.Op, true)
	case expr.OpRegex, expr.OpNotRegex:
		r.b.WriteString(r.s.Regex(r.text(n.L, false), r.sub(n.R), n.Op == expr.OpNotRegex))
	case expr.OpDistinct, expr.OpNotDistinct:
		r.b.WriteString(r.s.Distinct(r.operandString(n.L), r.operandString(n.R), n.Op == expr.OpNotDistinct))
	case expr.OpConcat:
		r.b.WriteString(r.s.Concat(r.text(n.L, false), r.text(n.R, false)))
	case expr.OpLike, expr.OpNotLike:
		r.b.WriteString(r.text(n.L, false))
		r.b.WriteString(" " + n.Op.String() + " ")
		r.operand(n.R)
	default:
		r.operand(n.L)
		r.b.WriteString(" " + n.Op.String() + " ")
		r.operand(n.R)
	}
}

// logical writes an operand of AND/OR: a chain of the same operator and
// predicates need no parentheses, anything else that is not atomic does. The
// same operator on the right (a tree without Paren nodes, as read back from a
// database) is parenthesised, so that the database sees the tree's grouping.
func (r renderer) logical(n expr.Node, op expr.Op, right bool) {
	switch n := n.(type) {
	case *expr.Binary:
		if (n.Op == expr.OpAnd || n.Op == expr.OpOr) && (n.Op != op || right) {
			r.b.WriteByte('(')
			r.node(n)
			r.b.WriteByte(')')
			return
		}
		r.node(n)
	case *expr.Not, *expr.In, *expr.IsNull, *expr.Between, *expr.JSONType:
		r.node(n)
	default:
		r.operand(n)
	}
}

// UsesAsText reports whether n applies a string operation (LIKE, regex, ||,
// a string function) directly to a column of kind k.
func UsesAsText(n expr.Node, k expr.Kind) bool {
	found := false
	isK := func(x expr.Node) bool {
		c, ok := unparen(x).(*expr.Column)
		return ok && c.Kind == k
	}
	expr.Walk(n, func(n expr.Node) bool {
		switch n := n.(type) {
		case *expr.Binary:
			switch n.Op {
			case expr.OpLike, expr.OpNotLike, expr.OpRegex, expr.OpNotRegex:
				found = found || isK(n.L)
			case expr.OpConcat:
				found = found || isK(n.L) || isK(n.R)
			}
		case *expr.Call:
			f := expr.Functions[n.Name]
			for i, a := range n.Args {
				found = found || i < len(f.Args) && f.Args[i] == expr.KindString && isK(a)
			}
		}
		return !found
	})
	return found
}
