package parse

import (
	"fmt"
	"strings"
)

// Error is a parse or analysis error at a byte offset of the expression source.
type Error struct {
	Offset, End int
	Msg         string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// TermKind tells what a Term is.
type TermKind int

const (
	TermColumn     TermKind = iota // Text: the column name
	TermString                     // Text: the decoded string
	TermNumber                     // Text: the number as written
	TermBool                       // Text: "true" or "false"
	TermNull                       //
	TermCall                       // Text: the lower-case function name; Args: the arguments
	TermUnary                      // Text: "not", "-" or "+"; Args[0]
	TermBinary                     // Text: the operator, keywords in lower case ("like", "not like", "is distinct from"); Args[0], Args[1]
	TermIsNull                     // Text: "is null" or "is not null"; Args[0]
	TermIn                         // Text: "in" or "not in"; Args[0] is the operand, the rest the list
	TermBetween                    // Text: "between" or "not between"; Args: operand, low, high
	TermCast                       // Text: the type as printed (lower case); Args[0]
	TermArray                      // Args: the elements of ARRAY[...]
	TermQuantified                 // Text: the comparison and "any" or "all" ("= any"); Args: operand, array
	TermCase                       // searched CASE; Args: condition, value pairs, then the ELSE value when Text is "else"
	TermExists                     // EXISTS (Sub) (Data)
	TermInSelect                   // Text: "in" or "not in"; Args[0] IN (Sub) (Data)
	TermSubquery                   // a scalar subquery (Sub) (Data)
	TermInterval                   // Text: the string of INTERVAL '...' (Data)
)

// Term is a node of an expression as a grammar reads it, before a Reader
// gives it a portable meaning. Off is the byte offset of its first token.
type Term struct {
	Kind TermKind
	Text string
	Args []*Term
	Off  int
	// Qual is the table or alias qualifying a column (Data).
	Qual string
	// Sub is the subquery of TermExists and TermInSelect.
	Sub *SelectTerm
	// Parens are the offsets of the parentheses written around the term,
	// outermost first.
	Parens []int
}

// Group reports whether the term was written in parentheses.
func (a *Term) Group() bool { return len(a.Parens) > 0 }

// Same reports whether a and b are the same expression, wherever they are
// written and however parenthesised.
func (a *Term) Same(b *Term) bool {
	if a.Kind != b.Kind || a.Text != b.Text || a.Qual != b.Qual || a.Sub != b.Sub || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		if !a.Args[i].Same(b.Args[i]) {
			return false
		}
	}
	return true
}

// ReadKeywords cannot be read as column names when unquoted in printed text.
var ReadKeywords = map[string]bool{
	"and": true, "or": true, "xor": true, "not": true, "is": true, "in": true, "like": true, "ilike": true,
	"similar": true, "regexp": true, "rlike": true, "between": true, "null": true, "true": true, "false": true,
	"case": true, "when": true, "then": true, "else": true, "end": true, "select": true, "exists": true,
	"array": true, "cast": true, "any": true, "all": true, "some": true, "distinct": true, "from": true,
	"collate": true, "escape": true, "interval": true, "with": true, "values": true, "row": true,
	"current_timestamp": true, "current_date": true, "current_time": true, "localtime": true,
	"localtimestamp": true, "current_user": true, "session_user": true, "user": true, "current_role": true,
	"div": true, "mod": true, "binary": true, "unknown": true, "default": true,
}

// valueKeywords are SQL functions written without parentheses.
var valueKeywords = map[string]bool{
	"current_timestamp": true, "current_date": true, "current_time": true, "localtime": true,
	"localtimestamp": true, "current_user": true, "session_user": true, "user": true, "current_role": true,
}

type parser struct {
	g     *Grammar
	kw    map[string]bool
	toks  []token
	i     int
	depth int
}

// Expr reads text with grammar g into a raw tree. Errors are *Error.
func Expr(g *Grammar, text string) (*Term, error) {
	l := &lexer{g: g, src: text}
	if err := l.lex(); err != nil {
		return nil, err
	}
	p := &parser{g: g, kw: g.Keywords, toks: l.toks}
	if p.kw == nil {
		p.kw = ReadKeywords
	}
	// pg_get_constraintdef and SHOW CREATE TABLE write CHECK (...).
	if !g.Authored && p.isWord(0, "check") && p.peekAt(1).kind == tLParen {
		p.i++
	}
	r, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if !g.Authored && (p.isWord(0, "not") && p.isWord(1, "valid") || p.isWord(0, "no") && p.isWord(1, "inherit")) {
			return nil, p.errAt(t, "%s %s is not part of the expression; read the constraint's expression alone", strings.ToUpper(t.text), strings.ToUpper(p.peekAt(1).text))
		}
		return nil, p.errAt(t, "unexpected %s after the end of the expression", p.describe(t))
	}
	return r, nil
}

func (p *parser) errAt(t token, format string, args ...any) error {
	end := t.end
	if end == t.off {
		end++
	}
	return &Error{t.off, end, fmt.Sprintf(format, args...)}
}

func (p *parser) describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tString:
		return fmt.Sprintf("string '%s'", t.text)
	case tIdent:
		if p.kw[t.text] && !p.g.Authored {
			return "keyword " + strings.ToUpper(t.text)
		}
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) peek() token        { return p.toks[p.i] }
func (p *parser) peekAt(k int) token { return p.toks[min(p.i+k, len(p.toks)-1)] }
func (p *parser) next() token        { t := p.toks[p.i]; p.i++; return t }

// isWord reports whether token k ahead is the unquoted word w.
func (p *parser) isWord(k int, w string) bool {
	t := p.peekAt(k)
	return t.kind == tIdent && t.text == w
}

func (p *parser) expect(kind tokKind, what string) (token, error) {
	t := p.next()
	if t.kind != kind {
		return t, p.errAt(t, "expected %s, found %s", what, p.describe(t))
	}
	return t, nil
}

// refused is the precedence of an operator that is an error where it
// would bind: it binds wherever an operator may.
const refused = 1 << 20

// infix describes the binary or postfix operator at the current token: its
// name, its binding power and how many tokens it takes. prec is 0 when the
// current token continues no expression; err is set (and prec is the
// binding power the operator would have) when the operator is refused.
func (p *parser) infix() (name string, prec, width int, err error) {
	t := p.peek()
	switch t.kind {
	case tOp:
		if t.text == ";" && p.g.Data {
			return "", 0, 0, nil
		}
		if t.text == "." {
			return "", refused, 0, p.errAt(t, "qualified names have no portable form")
		}
		if t.text == "::" {
			if p.g.CastPrec == 0 {
				return "", refused, 0, p.errAt(t, "unexpected ::")
			}
			return "::", p.g.CastPrec, 1, nil
		}
		if pr, ok := p.g.Precedence[t.text]; ok {
			return t.text, pr, 1, nil
		}
		if p.g.OtherPrec == 0 {
			return "", refused, 0, p.errAt(t, "the operator %s has no portable form", t.text)
		}
		return t.text, p.g.OtherPrec, 1, nil
	case tLBracket:
		return "", refused, 0, p.errAt(t, "array subscripts have no portable form")
	case tIdent:
	default:
		return "", 0, 0, nil
	}
	word := func(w string, k int) (string, int, int, error) {
		pr, ok := p.g.Precedence[w]
		if !ok {
			if p.g.Authored {
				return "", 0, 0, nil
			}
			return "", refused, 0, p.errAt(t, "%s has no portable form", strings.ToUpper(w))
		}
		return w, pr, k, nil
	}
	switch t.text {
	case "and", "or", "xor", "like", "ilike", "regexp", "rlike", "in", "between", "div", "mod":
		return word(t.text, 1)
	case "similar", "collate", "escape", "member", "sounds", "at":
		if p.g.Authored {
			return "", 0, 0, nil
		}
		return "", refused, 0, p.errAt(t, "%s has no portable form", strings.ToUpper(t.text))
	case "is":
		prec := p.g.Precedence["is"]
		switch {
		case p.isWord(1, "null"):
			return "is null", prec, 2, nil
		case p.isWord(1, "not") && p.isWord(2, "null"):
			return "is not null", prec, 3, nil
		case p.isWord(1, "distinct") && p.isWord(2, "from"):
			return "is distinct from", prec, 3, nil
		case p.isWord(1, "not") && p.isWord(2, "distinct") && p.isWord(3, "from"):
			return "is not distinct from", prec, 4, nil
		}
		if p.g.Authored {
			return "", prec, 0, p.errAt(p.peekAt(1), "expected NULL, NOT NULL or [NOT] DISTINCT FROM after IS, found %s", p.describe(p.peekAt(1)))
		}
		k := 1
		if p.isWord(1, "not") {
			k = 2
		}
		return "", refused, 0, p.errAt(t, "IS %s has no portable form", strings.ToUpper(p.peekAt(k).text))
	case "not":
		n := p.peekAt(1)
		if n.kind == tIdent {
			switch n.text {
			case "like", "ilike", "regexp", "rlike", "in", "between":
				name, prec, _, err := word(n.text, 2)
				if name == "" && err == nil {
					break
				}
				return "not " + name, prec, 2, err
			case "similar":
				if !p.g.Authored {
					return "", refused, 0, p.errAt(t, "NOT SIMILAR TO has no portable form")
				}
			}
		}
		if p.g.Authored && p.g.Predicates > 0 {
			return "", p.g.Predicates, 0, p.errAt(n, "expected IN, LIKE, REGEXP or BETWEEN after NOT, found %s", p.describe(n))
		}
	}
	return "", 0, 0, nil
}

func (p *parser) enter() error {
	p.depth++
	limit := p.g.MaxDepth
	if limit == 0 {
		limit = 500
	}
	if p.depth > limit {
		return p.errAt(p.peek(), "the expression nests too deeply")
	}
	return nil
}

// nonChaining reports whether an operator of precedence prec is a
// predicate that does not chain.
func (p *parser) nonChaining(prec int) bool { return p.g.Predicates > 0 && prec == p.g.Predicates }

// expr reads an expression whose operators bind tighter than min.
func (p *parser) expr(min int) (*Term, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	left, ceiling, err := p.prefix(min)
	if err != nil {
		return nil, err
	}
	for {
		name, prec, width, err := p.infix()
		// Where predicates do not chain, an operator binding tighter than the
		// one that made left cannot follow it (a = b + c stays, a IN (b) + c
		// is an error); elsewhere operands of postfix forms may (a IN (b) || c).
		if prec == 0 || prec <= min || p.g.Predicates > 0 && prec > ceiling && prec != refused {
			return left, nil
		}
		if err != nil {
			return nil, err
		}
		p.i += width
		ceiling = prec
		if p.nonChaining(prec) {
			ceiling = prec - 1
		}
		switch name {
		case "::":
			typ, err := p.typeName()
			if err != nil {
				return nil, err
			}
			left = &Term{Kind: TermCast, Text: typ, Args: []*Term{left}, Off: left.Off}
		case "is null", "is not null":
			left = &Term{Kind: TermIsNull, Text: name, Args: []*Term{left}, Off: left.Off}
		case "in", "not in":
			if p.g.Data && p.peek().kind == tLParen && (p.isWord(1, "select") || p.isWord(1, "with")) {
				sub, err := p.subSelect()
				if err != nil {
					return nil, err
				}
				left = &Term{Kind: TermInSelect, Text: name, Args: []*Term{left}, Sub: sub, Off: left.Off}
				continue
			}
			list, err := p.list(name, prec)
			if err != nil {
				return nil, err
			}
			left = &Term{Kind: TermIn, Text: name, Args: append([]*Term{left}, list...), Off: left.Off}
		case "between", "not between":
			lo, err := p.expr(prec)
			if err != nil {
				return nil, err
			}
			if !p.isWord(0, "and") {
				return nil, p.errAt(p.peek(), "expected AND in BETWEEN, found %s", p.describe(p.peek()))
			}
			p.i++
			hi, err := p.expr(prec)
			if err != nil {
				return nil, err
			}
			left = &Term{Kind: TermBetween, Text: name, Args: []*Term{left, lo, hi}, Off: left.Off}
		default:
			if p.g.Quantified && (p.isWord(0, "any") || p.isWord(0, "all") || p.isWord(0, "some")) && p.peekAt(1).kind == tLParen {
				q := p.next().text
				if q == "some" {
					q = "any"
				}
				p.i++ // (
				if p.isWord(0, "select") || p.isWord(0, "with") {
					return nil, p.errAt(p.peek(), "a subquery has no portable form")
				}
				arr, err := p.expr(0)
				if err != nil {
					return nil, err
				}
				if _, err := p.expect(tRParen, ")"); err != nil {
					return nil, err
				}
				left = &Term{Kind: TermQuantified, Text: name + " " + q, Args: []*Term{left, arr}, Off: left.Off}
				continue
			}
			// Left-associative: the right operand binds tighter.
			right, err := p.expr(prec)
			if err != nil {
				return nil, err
			}
			if (name == "like" || name == "not like") && p.isWord(0, "escape") && !p.g.Authored {
				return nil, p.errAt(p.peek(), "LIKE ... ESCAPE has no portable form")
			}
			left = &Term{Kind: TermBinary, Text: name, Args: []*Term{left, right}, Off: left.Off}
		}
	}
}

// subquery refuses SELECT (or WITH, VALUES) at the current token; read
// back, the error is at the token at.
func (p *parser) subquery(values bool, at token) error {
	if !p.isWord(0, "select") && !p.isWord(0, "with") && !(values && p.isWord(0, "values")) {
		return nil
	}
	if p.g.Data {
		return p.errAt(p.peek(), "a scalar subquery has no portable form; use EXISTS (SELECT ...), x IN (SELECT ...) or a join")
	}
	if p.g.Authored {
		return p.errAt(p.peek(), "subqueries are not allowed: a CHECK or index sees one row. List the values, as in x IN ('a', 'b'), or reference a table of allowed values with a foreign key")
	}
	return p.errAt(at, "a subquery has no portable form")
}

// list reads the parenthesised list after IN, whose elements bind tighter
// than prec when IN does not chain.
func (p *parser) list(op string, prec int) ([]*Term, error) {
	if p.g.Authored {
		op = "in"
	}
	if _, err := p.expect(tLParen, "( after "+strings.ToUpper(op)); err != nil {
		return nil, err
	}
	if err := p.subquery(false, p.peek()); err != nil {
		return nil, err
	}
	elem := 0
	if p.nonChaining(prec) {
		elem = prec
	}
	var list []*Term
	for {
		x, err := p.expr(elem)
		if err != nil {
			return nil, err
		}
		list = append(list, x)
		t := p.next()
		if t.kind == tRParen {
			return list, nil
		}
		if t.kind != tComma {
			return nil, p.errAt(t, "expected , or ) in the IN list, found %s", p.describe(t))
		}
	}
}

// typeName reads the type of a cast: words (double precision, character
// varying, timestamp with time zone), an optional modifier and array brackets.
func (p *parser) typeName() (string, error) {
	var words []string
	for {
		t := p.peek()
		if t.kind == tQuotedIdent {
			words = append(words, `"`+t.text+`"`)
			p.i++
		} else if t.kind == tIdent && (len(words) == 0 || !p.kw[t.text] || t.text == "with") {
			words = append(words, t.text)
			p.i++
		} else {
			break
		}
		if t := p.peek(); t.kind == tOp && t.text == "." {
			return "", p.errAt(t, "qualified type names have no portable form")
		}
	}
	if len(words) == 0 {
		return "", p.errAt(p.peek(), "expected a type after ::, found %s", p.describe(p.peek()))
	}
	typ := strings.Join(words, " ")
	if p.peek().kind == tLParen {
		var mods []string
		p.i++
		for {
			t := p.next()
			if t.kind != tNumber {
				return "", p.errAt(t, "expected a type modifier, found %s", p.describe(t))
			}
			mods = append(mods, t.text)
			t = p.next()
			if t.kind == tRParen {
				break
			}
			if t.kind != tComma {
				return "", p.errAt(t, "expected , or ) in a type modifier, found %s", p.describe(t))
			}
		}
		typ += "(" + strings.Join(mods, ",") + ")"
	}
	for p.peek().kind == tLBracket && p.peekAt(1).kind == tRBracket {
		p.i += 2
		typ += "[]"
	}
	return typ, nil
}

// prefix reads an operand where operators binding tighter than min are
// expected. ceiling is the loosest operator that may follow it.
func (p *parser) prefix(min int) (*Term, int, error) {
	const any = refused
	t := p.next()
	switch t.kind {
	case tString:
		return &Term{Kind: TermString, Text: t.text, Off: t.off}, any, nil
	case tNumber:
		return &Term{Kind: TermNumber, Text: t.text, Off: t.off}, any, nil
	case tQuotedIdent:
		if q, ok, err := p.qualified(t); ok || err != nil {
			return q, any, err
		}
		if !p.g.Authored {
			if n := p.peek(); n.kind == tOp && n.text == "." {
				return nil, 0, p.errAt(t, "qualified names have no portable form")
			} else if n.kind == tLParen {
				return nil, 0, p.errAt(t, "quoted function names have no portable form")
			}
		}
		return &Term{Kind: TermColumn, Text: t.text, Off: t.off}, any, nil
	case tOp:
		switch {
		case t.text == "-" || t.text == "+" && !p.g.Authored:
			x, err := p.expr(p.g.NegPrec)
			if err != nil {
				return nil, 0, err
			}
			return &Term{Kind: TermUnary, Text: t.text, Args: []*Term{x}, Off: t.off}, p.g.NegPrec - 1, nil
		case !p.g.Authored:
			return nil, 0, p.errAt(t, "the prefix operator %s has no portable form", t.text)
		}
	case tLParen:
		if p.g.Data && p.isWord(0, "select") {
			p.i--
			sub, err := p.subSelect()
			if err != nil {
				return nil, 0, err
			}
			return &Term{Kind: TermSubquery, Sub: sub, Off: t.off}, any, nil
		}
		if err := p.subquery(true, t); err != nil {
			return nil, 0, err
		}
		x, err := p.expr(0)
		if err != nil {
			return nil, 0, err
		}
		c := p.next()
		if c.kind == tComma && !p.g.Authored {
			return nil, 0, p.errAt(t, "row values have no portable form")
		}
		if c.kind != tRParen {
			return nil, 0, p.errAt(c, "expected ), found %s", p.describe(c))
		}
		x.Parens = append([]int{t.off}, x.Parens...)
		return x, any, nil
	case tIdent:
		switch t.text {
		case "null":
			return &Term{Kind: TermNull, Off: t.off}, any, nil
		case "true", "false":
			return &Term{Kind: TermBool, Text: t.text, Off: t.off}, any, nil
		case "case":
			if p.isWord(0, "when") {
				c, err := p.searchedCase(t)
				return c, any, err
			}
		case "interval":
			if p.g.Data && p.peek().kind == tString {
				v := p.next()
				return &Term{Kind: TermInterval, Text: v.text, Off: t.off}, any, nil
			}
		case "exists":
			if p.g.Data && p.peek().kind == tLParen {
				sub, err := p.subSelect()
				if err != nil {
					return nil, 0, err
				}
				return &Term{Kind: TermExists, Text: "exists", Sub: sub, Off: t.off}, any, nil
			}
		case "not":
			if p.g.Predicates > 0 && p.g.NotPrec < min {
				break // NOT is no operand of a predicate
			}
			x, err := p.expr(p.g.NotPrec)
			if err != nil {
				return nil, 0, err
			}
			return &Term{Kind: TermUnary, Text: "not", Args: []*Term{x}, Off: t.off}, p.g.NotPrec - 1, nil
		}
		if q, ok, err := p.qualified(t); ok || err != nil {
			return q, any, err
		}
		if err := p.unsupported(t); err != nil {
			return nil, 0, err
		}
		if n := p.peek(); n.kind == tOp && n.text == "." {
			return nil, 0, p.errAt(t, "qualified names have no portable form")
		}
		if n := p.peek().kind; n == tLParen || n == tLBracket && t.text == "array" && p.g.PostgresOperators {
			c, err := p.call(t)
			return c, any, err
		}
		if valueKeywords[t.text] && !p.g.Authored {
			return nil, 0, p.errAt(t, "%s has no portable form: CHECKs and index expressions must give the same result every time", strings.ToUpper(t.text))
		}
		if p.kw[t.text] {
			return nil, 0, p.errAt(t, "expected a value, found keyword %s", strings.ToUpper(t.text))
		}
		return &Term{Kind: TermColumn, Text: t.text, Off: t.off}, any, nil
	}
	return nil, 0, p.errAt(t, "expected a value, found %s", p.describe(t))
}

// unsupported names the SQL constructs that have no portable form where
// they start, rather than failing at the token after them.
func (p *parser) unsupported(t token) error {
	next := p.peek()
	if p.g.Authored {
		switch {
		case t.text == "case" && (next.kind == tIdent || next.kind == tQuotedIdent || next.kind == tLParen || next.kind == tString || next.kind == tNumber):
			return p.errAt(t, "the simple CASE x WHEN v is not part of portable expressions; write the searched form CASE WHEN x = v THEN ... END")
		case p.g.Data && (t.text == "cast" || t.text == "exists"):
			return nil
		case (t.text == "cast" || t.text == "convert") && next.kind == tLParen:
			return p.errAt(t, "%s is not part of portable expressions: types follow from the columns, so compare the column itself (for example created_at >= '2020-01-01'), or use a per-dialect raw expr override", strings.ToUpper(t.text))
		case t.text == "exists" && next.kind == tLParen:
			return p.errAt(t, "EXISTS (subquery) is not allowed: a CHECK or index sees one row; reference the other table with a foreign key")
		}
		return nil
	}
	switch t.text {
	case "array":
		if p.g.PostgresOperators && next.kind == tLBracket {
			return nil
		}
		if next.kind == tLParen {
			return p.errAt(t, "a subquery has no portable form")
		}
	case "exists", "select":
		return p.errAt(t, "a subquery has no portable form")
	case "case":
		return p.errAt(t, "the simple CASE x WHEN v has no portable form")
	case "row":
		return p.errAt(t, "row values have no portable form")
	case "interval", "date", "time", "timestamp":
		if next.kind == tString {
			return p.errAt(t, "typed literals (%s '...') have no portable form", strings.ToUpper(t.text))
		}
	}
	return nil
}

// searchedCase reads CASE WHEN c THEN v [WHEN ...] [ELSE v] END, after CASE.
func (p *parser) searchedCase(t token) (*Term, error) {
	c := &Term{Kind: TermCase, Text: "case", Off: t.off}
	for p.isWord(0, "when") {
		p.i++
		cond, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		if !p.isWord(0, "then") {
			return nil, p.errAt(p.peek(), "expected THEN in CASE, found %s", p.describe(p.peek()))
		}
		p.i++
		v, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, cond, v)
	}
	if p.isWord(0, "else") {
		p.i++
		v, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, v)
		c.Text = "else"
	}
	if !p.isWord(0, "end") {
		return nil, p.errAt(p.peek(), "expected WHEN, ELSE or END in CASE, found %s", p.describe(p.peek()))
	}
	p.i++
	return c, nil
}

// call reads a function call, CAST(x AS type) or ARRAY[...].
func (p *parser) call(name token) (*Term, error) {
	p.i++ // ( or [
	if name.text == "cast" && (!p.g.Authored || p.g.Data) {
		return p.cast(name)
	}
	if p.g.Data && (name.text == "position" || name.text == "trim") {
		if c, err := p.sqlForm(name); c != nil || err != nil {
			return c, err
		}
	}
	c := &Term{Kind: TermCall, Text: name.text, Off: name.off}
	closing, what := tRParen, ")"
	if p.toks[p.i-1].kind == tLBracket {
		c.Kind, closing, what = TermArray, tRBracket, "]"
	}
	if p.peek().kind == closing {
		p.i++
		return c, nil
	}
	if !p.g.Authored && c.Kind == TermCall && (p.isWord(0, "distinct") || p.isWord(0, "all") || p.isWord(0, "variadic")) {
		return nil, p.errAt(p.peek(), "%s in a function call has no portable form", strings.ToUpper(p.peek().text))
	}
	for {
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, x)
		t := p.next()
		if t.kind == closing {
			return c, nil
		}
		if t.kind != tComma {
			if c.Kind == TermArray {
				return nil, p.errAt(t, "expected , or ] in ARRAY[...], found %s", p.describe(t))
			}
			return nil, p.errAt(t, "expected , or %s in the arguments of %s, found %s", what, name.text, p.describe(t))
		}
	}
}

// cast reads CAST(x AS type).
func (p *parser) cast(t token) (*Term, error) {
	x, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if !p.isWord(0, "as") {
		return nil, p.errAt(p.peek(), "expected AS in CAST, found %s", p.describe(p.peek()))
	}
	p.i++
	typ, err := p.typeName()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, ")"); err != nil {
		return nil, err
	}
	return &Term{Kind: TermCast, Text: typ, Args: []*Term{x}, Off: t.off}, nil
}

// sqlForm reads the SQL standard's spellings of two functions (Data):
// position(sub IN s), and trim([LEADING | TRAILING | BOTH] [c] FROM s),
// which becomes ltrim, rtrim or trim of (s [, c]). It returns nil when the
// call is written as an ordinary one.
func (p *parser) sqlForm(name token) (*Term, error) {
	start := p.i
	if name.text == "position" {
		sub, err := p.expr(p.g.Precedence["in"])
		if err != nil {
			return nil, err
		}
		if !p.isWord(0, "in") {
			p.i = start
			return nil, nil
		}
		p.i++
		s, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tRParen, ") after position(... IN ..."); err != nil {
			return nil, err
		}
		return &Term{Kind: TermCall, Text: "position", Args: []*Term{sub, s}, Off: name.off}, nil
	}
	fn := "trim"
	switch {
	case p.isWord(0, "leading"):
		fn = "ltrim"
	case p.isWord(0, "trailing"):
		fn = "rtrim"
	case p.isWord(0, "both"):
	default:
		fn = ""
	}
	if fn != "" {
		p.i++
	}
	var chars *Term
	if !p.isWord(0, "from") {
		if fn == "" {
			// trim(s) or trim(chars FROM s)
			x, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			if !p.isWord(0, "from") {
				p.i = start
				return nil, nil
			}
			chars = x
		} else {
			x, err := p.expr(0)
			if err != nil {
				return nil, err
			}
			chars = x
		}
	}
	if fn == "" {
		fn = "trim"
	}
	if !p.isWord(0, "from") {
		return nil, p.errAt(p.peek(), "expected FROM in trim(... FROM s), found %s", p.describe(p.peek()))
	}
	p.i++
	s, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, ") after trim(... FROM ..."); err != nil {
		return nil, err
	}
	args := []*Term{s}
	if chars != nil {
		args = append(args, chars)
	}
	return &Term{Kind: TermCall, Text: fn, Args: args, Off: name.off}, nil
}
