package expr

import (
	"strings"
)

// String renders n in the portable syntax, with the parentheses that its
// structure needs. It is used for explanations and messages, never as SQL.
func String(n Node) string {
	var b strings.Builder
	write(&b, n)
	return b.String()
}

func write(b *strings.Builder, n Node) {
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
		write(b, n.X)
		b.WriteString(")")
	case *Not:
		b.WriteString("NOT ")
		write(b, n.X)
	case *Neg:
		// "--" would start a comment.
		x := String(n.X)
		if strings.HasPrefix(x, "-") {
			x = "(" + x + ")"
		}
		b.WriteString("-" + x)
	case *IsNull:
		write(b, n.X)
		if n.Not {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
	case *In:
		write(b, n.X)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i, x := range n.List {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, x)
		}
		b.WriteString(")")
	case *Between:
		write(b, n.X)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" BETWEEN ")
		write(b, n.Lo)
		b.WriteString(" AND ")
		write(b, n.Hi)
	case *Call:
		b.WriteString(n.Name + "(")
		for i, x := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, x)
		}
		b.WriteString(")")
	case *JSONType:
		b.WriteString("json_type(")
		write(b, n.X)
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
		write(b, n.L)
		b.WriteString(" " + n.Op.String() + " ")
		write(b, n.R)
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
