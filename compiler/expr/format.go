package expr

import (
	"strings"
)

// String renders n in the portable syntax. Parentheses written in the source
// (Paren nodes) are kept, and any others the structure needs are added, so
// that parsing the text gives a tree with the same meaning: trees read back
// from a database have no Paren nodes. It is used for schema.hcl, messages
// and explanations, never as SQL.
func String(n Node) string {
	var b strings.Builder
	write(&b, n, precLowest)
	return b.String()
}

// Precedence levels of the portable grammar, loosest first.
const (
	precLowest = iota
	precOr
	precAnd
	precNot
	precPredicate // comparisons, IS, IN, LIKE, BETWEEN, regex, DISTINCT
	precAdditive  // + - ||
	precMultiplicative
	precUnary
	precPrimary
)

func prec(n Node) int {
	switch n := n.(type) {
	case *Binary:
		switch n.Op {
		case OpOr:
			return precOr
		case OpAnd:
			return precAnd
		case OpAdd, OpSub, OpConcat:
			return precAdditive
		case OpMul, OpMod:
			return precMultiplicative
		}
		return precPredicate
	case *Not:
		return precNot
	case *IsNull, *In, *Between, *JSONType:
		return precPredicate
	case *Neg:
		return precUnary
	}
	return precPrimary
}

// write writes n where the grammar expects at least precedence min,
// parenthesised when n binds looser.
func write(b *strings.Builder, n Node, min int) {
	if prec(n) < min {
		b.WriteString("(")
		write(b, n, precLowest)
		b.WriteString(")")
		return
	}
	switch n := n.(type) {
	case *Column:
		if reserved[n.Name] || n.Name != strings.ToLower(n.Name) || !plainIdent(n.Name) {
			b.WriteString(`"` + n.Name + `"`)
		} else {
			b.WriteString(n.Name)
		}
	case *Literal:
		switch n.Kind {
		case LitString:
			b.WriteString("'" + strings.ReplaceAll(n.Value, "'", "''") + "'")
		case LitNull:
			b.WriteString("NULL")
		case LitBool:
			b.WriteString(strings.ToUpper(n.Value))
		default:
			b.WriteString(n.Value)
		}
	case *Paren:
		b.WriteString("(")
		write(b, n.X, precLowest)
		b.WriteString(")")
	case *Not:
		b.WriteString("NOT ")
		write(b, n.X, precNot)
	case *Neg:
		// "--" would start a comment.
		var x strings.Builder
		write(&x, n.X, precUnary)
		s := x.String()
		if strings.HasPrefix(s, "-") {
			s = "(" + s + ")"
		}
		b.WriteString("-" + s)
	case *IsNull:
		write(b, n.X, precAdditive)
		if n.Not {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
	case *In:
		write(b, n.X, precAdditive)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i, x := range n.List {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, x, precAdditive)
		}
		b.WriteString(")")
	case *Between:
		write(b, n.X, precAdditive)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" BETWEEN ")
		write(b, n.Lo, precAdditive)
		b.WriteString(" AND ")
		write(b, n.Hi, precAdditive)
	case *Call:
		b.WriteString(n.Name + "(")
		for i, x := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, x, precLowest)
		}
		b.WriteString(")")
	case *JSONType:
		b.WriteString("json_type(")
		write(b, n.X, precLowest)
		b.WriteString(")")
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i, t := range n.Types {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("'" + t + "'")
		}
		b.WriteString(")")
	case *Binary:
		p := prec(n)
		left, right := p, p+1
		if p == precPredicate {
			// Predicates do not chain: both operands are additive.
			left, right = precAdditive, precAdditive
		}
		write(b, n.L, left)
		b.WriteString(" " + n.Op.String() + " ")
		write(b, n.R, right)
	}
}

func plainIdent(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentPart(s[i]) {
			return false
		}
	}
	return true
}
