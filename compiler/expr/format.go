package expr

import (
	"strings"
)

// Syntax is what a dialect says about the parts of an expression that differ
// between dialects, for SQL.
type Syntax interface {
	Ident(name string) string
	String(s string) string
	// TextOperand renders a column used where a string is needed.
	TextOperand(sql string, k Kind) string
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
	TextCast(x string, k Kind) string
	// Now renders now(): the time the transaction started, to the microsecond.
	Now() string
}

// SelectSQL renders a query in a dialect's syntax.
func SelectSQL(s Syntax, q *Select) string { return SelectAs(s, q, nil) }

// SelectAs is SelectSQL with names for the values (SELECT x AS name, ...).
func SelectAs(s Syntax, q *Select, names []string) string {
	var b strings.Builder
	renderer{s, false, &b}.query(q, names...)
	return b.String()
}

// String renders n in the portable syntax. Parentheses written in the source
// (Paren nodes) are kept, and any others the structure needs are added, so
// that parsing the text gives a tree with the same meaning: trees read back
// from a database have no Paren nodes. It is used for schema.hcl, messages
// and explanations, never as SQL.
func String(n Node) string {
	var b strings.Builder
	renderer{portableSyntax{}, true, &b}.write(n, precLowest)
	return b.String()
}

// SQL renders n in a dialect's syntax. Every operand that is not atomic is
// parenthesised, so that the differences in operator precedence between
// dialects cannot change its meaning.
func SQL(s Syntax, n Node) string {
	var b strings.Builder
	renderer{s, false, &b}.node(n)
	return b.String()
}

// portableSyntax is the portable language's own spelling.
type portableSyntax struct{}

func (portableSyntax) Ident(name string) string {
	if reserved[name] || name != strings.ToLower(name) || !plainIdent(name) {
		return `"` + name + `"`
	}
	return name
}
func (portableSyntax) String(s string) string                { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
func (portableSyntax) TextOperand(sql string, _ Kind) string { return sql }
func (portableSyntax) Bool(v bool) string                    { return strings.ToUpper(boolText[v]) }

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
	case *IsNull, *In, *Between, *JSONType, *InSelect:
		return precPredicate
	case *Neg:
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
func (r renderer) sub(n Node, min int) string {
	var b strings.Builder
	renderer{r.s, r.minimal, &b}.write(n, min)
	return b.String()
}

// write writes n where the portable grammar expects at least precedence
// min (SQL: as an operand, min above precLowest).
func (r renderer) write(n Node, min int) {
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

func atomic(n Node) bool {
	switch n.(type) {
	case *Column, *Literal, *Call, *Paren, *Exists, *Cast:
		return true
	}
	return false
}

// text renders n where a string is needed (SQL); arg tells that n is a
// function argument, which needs no parentheses.
func (r renderer) text(n Node, arg bool) string {
	if c, ok := Unparen(n).(*Column); ok {
		return r.s.TextOperand(r.column(c), c.Kind)
	}
	if arg {
		return r.sub(n, precLowest)
	}
	return r.sub(n, precAdditive)
}

func (r renderer) node(n Node) {
	b := r.b
	switch n := n.(type) {
	case *Column:
		b.WriteString(r.column(n))
	case *Exists:
		b.WriteString("EXISTS (")
		r.query(n.Sub)
		b.WriteByte(')')
	case *InSelect:
		r.write(n.X, precAdditive)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" IN (")
		r.query(n.Sub)
		b.WriteByte(')')
	case *Cast:
		x := r.sub(n.X, precLowest)
		if ds, ok := r.s.(DataSyntax); ok {
			b.WriteString(ds.TextCast(x, kindOf(n.X)))
		} else {
			b.WriteString("CAST(" + x + " AS text)")
		}
	case *Literal:
		switch n.Kind {
		case LitString:
			b.WriteString(r.s.String(n.Value))
		case LitNull:
			b.WriteString("NULL")
		case LitBool:
			b.WriteString(r.s.Bool(n.Value == "true"))
		default:
			b.WriteString(n.Value)
		}
	case *Paren:
		b.WriteByte('(')
		r.write(n.X, precLowest)
		b.WriteByte(')')
	case *Not:
		b.WriteString("NOT ")
		r.write(n.X, precNot)
	case *Neg:
		// "--" would start a comment.
		x := r.sub(n.X, precUnary)
		if strings.HasPrefix(x, "-") {
			x = "(" + x + ")"
		}
		b.WriteString("-" + x)
	case *IsNull:
		r.write(n.X, precAdditive)
		if n.Not {
			b.WriteString(" IS NOT NULL")
		} else {
			b.WriteString(" IS NULL")
		}
	case *In:
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
	case *Between:
		r.write(n.X, precAdditive)
		if n.Not {
			b.WriteString(" NOT")
		}
		b.WriteString(" BETWEEN ")
		r.write(n.Lo, precAdditive)
		b.WriteString(" AND ")
		r.write(n.Hi, precAdditive)
	case *Call:
		if ds, ok := r.s.(DataSyntax); ok && n.Name == "now" && !r.minimal {
			b.WriteString(ds.Now())
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
			if f := Functions[n.Name]; !r.minimal && i < len(f.Args) && f.Args[i] == KindString {
				b.WriteString(r.text(x, true))
			} else {
				r.write(x, precLowest)
			}
		}
		b.WriteByte(')')
	case *JSONType:
		b.WriteString(r.s.JSONType(r.sub(n.X, precLowest), n.Types, n.Not))
	case *Case:
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
	case *Binary:
		r.binary(n)
	}
}

func (r renderer) binary(n *Binary) {
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
	switch n.Op {
	case OpAnd, OpOr:
		r.logical(n.L, n.Op, false)
		b.WriteString(" " + n.Op.String() + " ")
		r.logical(n.R, n.Op, true)
	case OpRegex, OpNotRegex:
		b.WriteString(r.s.Regex(r.text(n.L, false), r.sub(n.R, precLowest), n.Op == OpNotRegex))
	case OpDistinct, OpNotDistinct:
		b.WriteString(r.s.Distinct(r.sub(n.L, precAdditive), r.sub(n.R, precAdditive), n.Op == OpNotDistinct))
	case OpConcat:
		b.WriteString(r.s.Concat(r.text(n.L, false), r.text(n.R, false)))
	case OpLike, OpNotLike:
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
func (r renderer) logical(n Node, op Op, right bool) {
	switch n := n.(type) {
	case *Binary:
		if (n.Op == OpAnd || n.Op == OpOr) && (n.Op != op || right) {
			r.b.WriteByte('(')
			r.node(n)
			r.b.WriteByte(')')
			return
		}
		r.node(n)
	case *Not, *In, *IsNull, *Between, *JSONType:
		r.node(n)
	default:
		r.write(n, precAdditive)
	}
}

// column renders a column reference, qualified when written so.
func (r renderer) column(c *Column) string {
	if c.Table != "" {
		return r.s.Ident(c.Table) + "." + r.s.Ident(c.Name)
	}
	return r.s.Ident(c.Name)
}

// query writes a SELECT.
func (r renderer) query(q *Select, names ...string) {
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

func (r renderer) tableRef(t *TableRef) {
	r.b.WriteString(r.s.Ident(t.Name))
	if t.Alias != "" {
		r.b.WriteString(" AS " + r.s.Ident(t.Alias))
	}
}

// kindOf is the kind of an analyzed expression's value, where renderers
// need it.
func kindOf(n Node) Kind {
	switch n := Unparen(n).(type) {
	case *Column:
		return n.Kind
	case *Literal:
		if n.Kind == LitNumber {
			return KindInteger
		}
		return KindString
	case *Case:
		return n.Kind
	}
	return KindUnknown
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
