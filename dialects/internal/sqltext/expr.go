// Package sqltext holds what the dialect packages share to lower a model to
// SQL text: the lowering walk, scripts and their rendering. Expressions are
// read and rendered by compiler/expr (one lexer, grammar and renderer).
package sqltext

import (
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
)

// Syntax is what a dialect says about the parts of an expression that differ
// between dialects.
type Syntax = render.Syntax

// Expr renders a portable expression in a dialect's syntax (render.SQL).
func Expr(s Syntax, n expr.Node) string { return render.SQL(s, n) }

// UsesAsText reports whether n applies a string operation (LIKE, regex, ||,
// a string function) directly to a column of kind k.
func UsesAsText(n expr.Node, k expr.Kind) bool {
	found := false
	isK := func(x expr.Node) bool {
		c, ok := expr.Unparen(x).(*expr.Column)
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

// Negation is NOT for a dialect that writes the negation of some binary
// operators as NOT over them: folds maps each such operator to its
// negation, into which NOT over it folds. NOT over anything else stays, so
// that the expression renders as the text it was read from.
func Negation(folds map[expr.Op]expr.Op) func(expr.Node) expr.Node {
	return func(x expr.Node) expr.Node {
		if b, ok := x.(*expr.Binary); ok {
			if op, ok := folds[b.Op]; ok {
				return &expr.Binary{Op: op, L: b.L, R: b.R}
			}
		}
		return &expr.Not{X: x}
	}
}
