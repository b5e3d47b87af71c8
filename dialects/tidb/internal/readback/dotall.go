package readback

import (
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
)

// DotAll rewrites regex matches whose pattern has a `.` (outside a bracket
// expression) to start with (?s): PostgreSQL's `.` matches a newline, TiDB's
// (Go's RE2 syntax) does not unless the s flag is set. The model's tree is
// shared between dialects, so changed nodes are copies.
func DotAll(n expr.Node) (expr.Node, bool) {
	changed := false
	var walk func(n expr.Node) expr.Node
	walk = func(n expr.Node) expr.Node {
		switch x := n.(type) {
		case *expr.Binary:
			l, r := walk(x.L), walk(x.R)
			if x.Op == expr.OpRegex || x.Op == expr.OpNotRegex {
				if lit, ok := x.R.(*expr.Literal); ok && lit.Kind == expr.LitString && hasDot(lit.Value) {
					changed = true
					r = &expr.Literal{Kind: expr.LitString, Value: "(?s)" + lit.Value}
				}
			}
			if l != x.L || r != x.R {
				return &expr.Binary{Op: x.Op, L: l, R: r}
			}
		case *expr.Paren:
			if y := walk(x.X); y != x.X {
				return &expr.Paren{X: y}
			}
		case *expr.Not:
			if y := walk(x.X); y != x.X {
				return &expr.Not{X: y}
			}
		case *expr.Case:
			c := &expr.Case{Kind: x.Kind}
			same := true
			for _, w := range x.Whens {
				cond, then := walk(w.Cond), walk(w.Then)
				same = same && cond == w.Cond && then == w.Then
				c.Whens = append(c.Whens, expr.When{Cond: cond, Then: then})
			}
			if x.Else != nil {
				c.Else = walk(x.Else)
				same = same && c.Else == x.Else
			}
			if !same {
				return c
			}
		}
		return n
	}
	out := walk(n)
	return out, changed
}

// hasDot reports whether pattern has a `.` that matches any character.
func hasDot(p string) bool {
	inClass := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass && c == ']':
			inClass = false
		case !inClass && c == '[':
			inClass = true
			// A ] right after [ or [^ is a member.
			if strings.HasPrefix(p[i+1:], "^]") {
				i += 2
			} else if strings.HasPrefix(p[i+1:], "]") {
				i++
			}
		case !inClass && c == '.':
			return true
		}
	}
	return false
}

// UndoDotAll removes the (?s) DotAll added to a pattern with `.`, so that an
// expression TiDB reports back reads as the model wrote it. n is a tree just
// read, not shared.
func undoDotAll(n expr.Node) {
	expr.Walk(n, func(n expr.Node) bool {
		if b, ok := n.(*expr.Binary); ok && (b.Op == expr.OpRegex || b.Op == expr.OpNotRegex) {
			if lit, ok := b.R.(*expr.Literal); ok && lit.Kind == expr.LitString {
				if p, cut := strings.CutPrefix(lit.Value, "(?s)"); cut && hasDot(p) {
					lit.Value = p
				}
			}
		}
		return true
	})
}
