// Package render prints an expression tree (package expr) as text: String
// gives the portable form schema.hcl and diagnostics show, SQL and
// SelectSQL the SQL of one dialect through that dialect's Syntax.
//
// It stands alone because printing is the last step of the one-way flow
// (parse, analyze, lower, render) and nothing before it needs it: expr
// builds and checks trees without printing them.
package render

import (
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/parse"
)

// Syntax is what a dialect says about the parts of an expression that differ
// between dialects, for SQL.
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

// DataSyntax is what a dialect says about the parts of data statements'
// expressions that differ between dialects.
type DataSyntax interface {
	Syntax
	// TextCast renders x, of kind k, cast to text.
	TextCast(x string, k expr.Kind) string
	// Now renders now(): the time the transaction started, to the microsecond.
	Now() string
	// Func renders a call of one of expr.DataFunctions, whose arguments
	// are rendered (strings as TextOperand gives them) in args.
	Func(c *expr.Call, args []string) string
	// AddInterval renders x plus n units (n negative: minus).
	AddInterval(x string, n int64, unit string) string
	// CastTo renders x, of kind from, cast to a kind other than text (typ:
	// the type's name as written: integer, bigint, decimal(p,s), ...).
	CastTo(x string, from, to expr.Kind, typ string) string
}

// SelectSQL renders a query in a dialect's syntax.
func SelectSQL(s Syntax, q *expr.Select) string { return SelectAs(s, q, nil) }

// SelectAs is SelectSQL with names for the values (SELECT x AS name, ...).
func SelectAs(s Syntax, q *expr.Select, names []string) string {
	var b strings.Builder
	renderer{s, false, &b}.query(q, names...)
	return b.String()
}

// String renders n in the portable syntax. Parentheses written in the source
// (Paren nodes) are kept, and any others the structure needs are added, so
// that parsing the text gives a tree with the same meaning: trees read back
// from a database have no Paren nodes. It is used for schema.hcl, messages
// and explanations, never as SQL.
func String(n expr.Node) string {
	var b strings.Builder
	renderer{portableSyntax{}, true, &b}.write(n, precLowest)
	return b.String()
}

// SQL renders n in a dialect's syntax. Every operand that is not atomic is
// parenthesised, so that the differences in operator precedence between
// dialects cannot change its meaning.
func SQL(s Syntax, n expr.Node) string {
	var b strings.Builder
	renderer{s, false, &b}.node(n)
	return b.String()
}

// portableSyntax is the portable language's own spelling.
type portableSyntax struct{}

func (portableSyntax) Ident(name string) string {
	if parse.Portable.Keywords[name] || name != strings.ToLower(name) || !parse.PlainIdent(name) {
		return `"` + name + `"`
	}
	return name
}
func (portableSyntax) String(s string) string                     { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
func (portableSyntax) TextOperand(sql string, _ expr.Kind) string { return sql }
func (portableSyntax) Bool(v bool) string                         { return strings.ToUpper(boolText[v]) }

// String writes operators itself (see binary): these are never called.
func (portableSyntax) Regex(x, p string, not bool) string    { return "" }
func (portableSyntax) Distinct(l, r string, not bool) string { return "" }
func (portableSyntax) Concat(l, r string) string             { return "" }
func (s portableSyntax) JSONType(x string, types []string, not bool) string {
	q := make([]string, len(types))
	for i, t := range types {
		q[i] = s.String(t)
	}
	in := " IN ("
	if not {
		in = " NOT IN ("
	}
	return "json_type(" + x + ")" + in + strings.Join(q, ", ") + ")"
}

var boolText = map[bool]string{true: "true", false: "false"}

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

func prec(n expr.Node) int {
	switch n := n.(type) {
	case *expr.Binary:
		switch n.Op {
		case expr.OpOr:
			return precOr
		case expr.OpAnd:
			return precAnd
		case expr.OpAdd, expr.OpSub, expr.OpConcat:
			return precAdditive
		case expr.OpMul, expr.OpMod:
			return precMultiplicative
		}
		return precPredicate
	case *expr.Not:
		return precNot
	case *expr.IsNull, *expr.In, *expr.Between, *expr.JSONType, *expr.InSelect:
		return precPredicate
	case *expr.Neg:
		return precUnary
	}
	return precPrimary
}

// renderer writes expressions. Minimal: parenthesise by the portable
// grammar's precedences (String); otherwise every operand that is not
// atomic (SQL).
type renderer struct {
	s       Syntax
	minimal bool
	b       *strings.Builder
}

// sub renders n on its own, for the dialect hooks that take strings.
func (r renderer) sub(n expr.Node, min int) string {
	var b strings.Builder
	renderer{r.s, r.minimal, &b}.write(n, min)
	return b.String()
}

// write writes n where the portable grammar expects at least precedence
// min (SQL: as an operand, min above precLowest).
func (r renderer) write(n expr.Node, min int) {
	wrap := prec(n) < min
	if !r.minimal {
		wrap = min > precLowest && !atomic(n)
	}
	if wrap {
		r.b.WriteByte('(')
		r.node(n)
		r.b.WriteByte(')')
		return
	}
	r.node(n)
}

func atomic(n expr.Node) bool {
	switch n.(type) {
	case *expr.Column, *expr.Literal, *expr.Call, *expr.Paren, *expr.Exists, *expr.Cast, *expr.Subquery:
		return true
	}
	return false
}

// text renders n where a string is needed (SQL); arg tells that n is a
// function argument, which needs no parentheses.
func (r renderer) text(n expr.Node, arg bool) string {
	if c, ok := expr.Unparen(n).(*expr.Column); ok {
		return r.s.TextOperand(r.column(c), c.Kind)
	}
	if arg {
		return r.sub(n, precLowest)
	}
	return r.sub(n, precAdditive)
}

func (r renderer) node(n expr.Node) {
	b := r.b
	switch n := n.(type) {
	case *expr.Column:
		b.WriteString(r.column(n))
	case *expr.Exists:
		b.WriteString("EXISTS (")
		r.query(n.Sub)
		b.WriteByte(')')
	case *expr.InSelect:
		r.write(n.X, precAdditive)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		r.query(n.Sub)
		b.WriteByte(')')
	case *expr.Subquery:
		b.WriteByte('(')
		r.query(n.Sub)
		b.WriteByte(')')
	case *expr.Cast:
		x := r.sub(n.X, precLowest)
		if ds, ok := r.s.(DataSyntax); ok && n.To != expr.KindString && n.To != expr.KindUnknown {
			b.WriteString(ds.CastTo(x, kindOf(n.X), n.To, n.Type))
		} else if ds, ok := r.s.(DataSyntax); ok {
			b.WriteString(ds.TextCast(x, kindOf(n.X)))
		} else {
			typ := n.Type
			if typ == "" {
				typ = map[expr.Kind]string{expr.KindDate: "date", expr.KindTime: "timestamp"}[n.To]
			}
			if typ == "" {
				typ = "text"
			}
			b.WriteString("CAST(" + x + " AS " + typ + ")")
		}
	case *expr.Interval:
		b.WriteString("INTERVAL '" + strconv.FormatInt(n.N, 10) + " " + n.Unit + "'")
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
		r.write(n.X, precLowest)
		b.WriteByte(')')
	case *expr.Not:
		b.WriteString("NOT ")
		r.write(n.X, precNot)
	case *expr.Neg:
		// "--" would start a comment.
		x := r.sub(n.X, precUnary)
		if strings.HasPrefix(x, "-") {
			x = "(" + x + ")"
		}
		b.WriteString("-" + x)
	case *expr.IsNull:
		r.write(n.X, precAdditive)
		if n.Not {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
	case *expr.In:
		r.write(n.X, precAdditive)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		for i, x := range n.List {
			if i > 0 {
				b.WriteString(", ")
			}
			r.write(x, precAdditive)
		}
		b.WriteByte(')')
	case *expr.Between:
		r.write(n.X, precAdditive)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" BETWEEN ")
		r.write(n.Lo, precAdditive)
		b.WriteString(" AND ")
		r.write(n.Hi, precAdditive)
	case *expr.Call:
		if ds, ok := r.s.(DataSyntax); ok && n.Name == "now" && !r.minimal {
			b.WriteString(ds.Now())
			return
		}
		if ds, ok := r.s.(DataSyntax); ok && expr.DataFunctions[n.Name] && !r.minimal {
			args := make([]string, len(n.Args))
			for i, x := range n.Args {
				if k := kindOf(x); k == expr.KindString || k == expr.KindUUID || k == expr.KindEnum {
					args[i] = r.text(x, true)
				} else {
					args[i] = r.sub(x, precLowest)
				}
			}
			b.WriteString(ds.Func(n, args))
			return
		}
		name := n.Name
		if !r.minimal {
			name = strings.ToUpper(name)
		}
		b.WriteString(name + "(")
		for i, x := range n.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			if f := expr.Functions[n.Name]; !r.minimal && i < len(f.Args) && f.Args[i] == expr.KindString {
				b.WriteString(r.text(x, true))
			} else {
				r.write(x, precLowest)
			}
		}
		b.WriteByte(')')
	case *expr.JSONType:
		b.WriteString(r.s.JSONType(r.sub(n.X, precLowest), n.Types, n.Not))
	case *expr.Case:
		// Both dialects write the searched CASE alike; its keywords delimit
		// the operands.
		b.WriteString("CASE")
		for _, w := range n.Whens {
			b.WriteString(" WHEN ")
			r.write(w.Cond, precLowest)
			b.WriteString(" THEN ")
			r.write(w.Then, precLowest)
		}
		if n.Else != nil {
			b.WriteString(" ELSE ")
			r.write(n.Else, precLowest)
		}
		b.WriteString(" END")
	case *expr.Binary:
		r.binary(n)
	}
}

func (r renderer) binary(n *expr.Binary) {
	b := r.b
	if r.minimal {
		p := prec(n)
		left, right := p, p+1
		if p == precPredicate {
			// Predicates do not chain: both operands are additive.
			left, right = precAdditive, precAdditive
		}
		r.write(n.L, left)
		b.WriteString(" " + n.Op.String() + " ")
		r.write(n.R, right)
		return
	}
	if iv, ok := n.R.(*expr.Interval); ok {
		if ds, ok := r.s.(DataSyntax); ok {
			v := iv.N
			if n.Op == expr.OpSub {
				v = -v
			}
			b.WriteString(ds.AddInterval(r.sub(n.L, precLowest), v, iv.Unit))
			return
		}
	}
	switch n.Op {
	case expr.OpAnd, expr.OpOr:
		r.logical(n.L, n.Op, false)
		b.WriteString(" " + n.Op.String() + " ")
		r.logical(n.R, n.Op, true)
	case expr.OpRegex, expr.OpNotRegex:
		b.WriteString(r.s.Regex(r.text(n.L, false), r.sub(n.R, precLowest), n.Op == expr.OpNotRegex))
	case expr.OpDistinct, expr.OpNotDistinct:
		b.WriteString(r.s.Distinct(r.sub(n.L, precAdditive), r.sub(n.R, precAdditive), n.Op == expr.OpNotDistinct))
	case expr.OpConcat:
		b.WriteString(r.s.Concat(r.text(n.L, false), r.text(n.R, false)))
	case expr.OpLike, expr.OpNotLike:
		b.WriteString(r.text(n.L, false))
		b.WriteString(" " + n.Op.String() + " ")
		r.write(n.R, precAdditive)
	default:
		r.write(n.L, precAdditive)
		b.WriteString(" " + n.Op.String() + " ")
		r.write(n.R, precAdditive)
	}
}

// logical writes an operand of AND/OR in SQL: a chain of the same operator
// and predicates need no parentheses, anything else that is not atomic
// does. The same operator on the right (a tree without Paren nodes, as read
// back from a database) is parenthesised, so that the database sees the
// tree's grouping.
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
		r.write(n, precAdditive)
	}
}

// column renders a column reference, qualified when written so.
func (r renderer) column(c *expr.Column) string {
	if c.Table != "" {
		return r.s.Ident(c.Table) + "." + r.s.Ident(c.Name)
	}
	return r.s.Ident(c.Name)
}

// query writes a SELECT.
func (r renderer) query(q *expr.Select, names ...string) {
	b := r.b
	b.WriteString("SELECT ")
	for i, x := range q.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		r.write(x, precLowest)
		if i < len(names) {
			b.WriteString(" AS " + r.s.Ident(names[i]))
		}
	}
	if q.From != nil {
		b.WriteString(" FROM ")
		r.tableRef(q.From)
	}
	for _, j := range q.Joins {
		if j.Left {
			b.WriteString(" LEFT JOIN ")
		} else {
			b.WriteString(" JOIN ")
		}
		r.tableRef(j.Table)
		b.WriteString(" ON ")
		r.write(j.On, precLowest)
	}
	if q.Where != nil {
		b.WriteString(" WHERE ")
		r.write(q.Where, precLowest)
	}
}

func (r renderer) tableRef(t *expr.TableRef) {
	r.b.WriteString(r.s.Ident(t.Name))
	if t.Alias != "" {
		r.b.WriteString(" AS " + r.s.Ident(t.Alias))
	}
}

// kindOf is the kind of an analyzed expression's value, where renderers
// need it.
func kindOf(n expr.Node) expr.Kind {
	switch n := expr.Unparen(n).(type) {
	case *expr.Column:
		return n.Kind
	case *expr.Literal:
		if n.Kind == expr.LitNumber {
			return expr.KindInteger
		}
		return expr.KindString
	case *expr.Case:
		return n.Kind
	case *expr.Cast:
		if n.To == expr.KindUnknown {
			return expr.KindString
		}
		return n.To
	case *expr.Subquery:
		if len(n.Sub.Kinds) == 1 {
			return n.Sub.Kinds[0]
		}
	case *expr.Call:
		if expr.DataFunctions[n.Name] {
			return n.Kind
		}
		if f, ok := expr.Functions[n.Name]; ok && !f.Variadic {
			return f.Result
		}
	case *expr.Binary:
		if n.Op == expr.OpConcat {
			return expr.KindString
		}
	}
	return expr.KindUnknown
}
