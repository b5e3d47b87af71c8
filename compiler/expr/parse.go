package expr

import (
	"fmt"
	"math/big"
	"strings"
)

// Error is a parse or analysis error at a byte offset of the expression source.
type Error struct {
	Offset, End int
	Msg         string
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tQuotedIdent
	tString
	tNumber
	tOp
	tLParen
	tRParen
	tComma
)

type token struct {
	kind     tokKind
	text     string // identifier (lowered unless quoted), decoded string, number or operator
	off, end int
}

func lex(src string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			toks = append(toks, token{tIdent, strings.ToLower(src[i:j]), i, j})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			dot := false
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' && !dot) {
				if src[j] == '.' {
					dot = true
				}
				j++
			}
			if e := exponent(src, j); e > j {
				return nil, &Error{i, e, fmt.Sprintf("exponent notation (%s) is not portable; write the number out: %s", src[i:e], plainNumber(src[i:e]))}
			}
			if j < len(src) && isIdentStart(src[j]) {
				return nil, &Error{i, j + 1, "malformed number"}
			}
			toks = append(toks, token{tNumber, src[i:j], i, j})
			i = j
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return nil, &Error{i, len(src), "unterminated string literal"}
				}
				if src[j] == '\'' {
					if j+1 < len(src) && src[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(src[j])
				j++
			}
			toks = append(toks, token{tString, b.String(), i, j + 1})
			i = j + 1
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return nil, &Error{i, len(src), "unterminated quoted identifier"}
			}
			name := src[i+1 : i+1+j]
			if name == "" {
				return nil, &Error{i, i + 2, "empty quoted identifier"}
			}
			toks = append(toks, token{tQuotedIdent, name, i, i + j + 2})
			i += j + 2
		case c == '(':
			toks = append(toks, token{tLParen, "(", i, i + 1})
			i++
		case c == ')':
			toks = append(toks, token{tRParen, ")", i, i + 1})
			i++
		case c == ',':
			toks = append(toks, token{tComma, ",", i, i + 1})
			i++
		case strings.HasPrefix(src[i:], "->"):
			op := "->"
			if strings.HasPrefix(src[i:], "->>") {
				op = "->>"
			}
			return nil, &Error{i, i + len(op), fmt.Sprintf("the JSON operator %s is not portable; portable expressions test only json_type(doc), for example json_type(doc) = 'object'. For a field, use a per-dialect raw expr override", op)}
		default:
			op := ""
			for _, o := range []string{"<>", "!=", "<=", ">=", "!~", "||", "=", "<", ">", "+", "-", "*", "%", "~"} {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				switch c {
				case '/':
					return nil, &Error{i, i + 1, "division is not portable (integer division truncates on PostgreSQL but not on TiDB); rewrite without '/'"}
				case ':':
					return nil, &Error{i, i + 1, "casts ('::') are not part of portable expressions; types follow from the columns"}
				case '`':
					return nil, &Error{i, i + 1, "backquoted identifiers are TiDB syntax; write the column name plainly or in double quotes"}
				}
				return nil, &Error{i, i + 1, fmt.Sprintf("unexpected character %q", c)}
			}
			if op == "!=" {
				op = "<>"
			}
			toks = append(toks, token{tOp, op, i, i + len(op)})
			i += len(op)
		}
	}
	// The end points just after the last token, not at trailing blank lines.
	end := 0
	if len(toks) > 0 {
		end = toks[len(toks)-1].end
	}
	toks = append(toks, token{tEOF, "", end, end})
	return toks, nil
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

// reserved words cannot be column names without quotes.
var reserved = map[string]bool{
	"and": true, "or": true, "not": true, "in": true, "is": true, "null": true, "true": true, "false": true,
	"like": true, "regexp": true, "between": true, "distinct": true, "from": true,
}

const maxDepth = 200

type parser struct {
	toks  []token
	i     int
	depth int
}

// Parse parses src as a portable expression.
func Parse(src string) (Node, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t, "unexpected %s after the end of the expression", describe(t))
	}
	return n, nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) keyword(words ...string) bool {
	for k, w := range words {
		t := p.toks[min(p.i+k, len(p.toks)-1)]
		if t.kind != tIdent || t.text != w {
			return false
		}
	}
	p.i += len(words)
	return true
}

func (p *parser) op(o string) bool {
	if t := p.peek(); t.kind == tOp && t.text == o {
		p.i++
		return true
	}
	return false
}

func (p *parser) errAt(t token, format string, args ...any) error {
	end := t.end
	if end == t.off {
		end++
	}
	return &Error{t.off, end, fmt.Sprintf(format, args...)}
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tString:
		return fmt.Sprintf("string '%s'", t.text)
	case tIdent:
		return fmt.Sprintf("%q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errAt(p.peek(), "expression nests too deeply")
	}
	return nil
}

func (p *parser) or() (Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if !p.keyword("or") {
			return l, nil
		}
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = &Binary{pos(l.Offset()), OpOr, l, r}
		_ = t
	}
}

func (p *parser) and() (Node, error) {
	l, err := p.not()
	if err != nil {
		return nil, err
	}
	for p.keyword("and") {
		r, err := p.not()
		if err != nil {
			return nil, err
		}
		l = &Binary{pos(l.Offset()), OpAnd, l, r}
	}
	return l, nil
}

func (p *parser) not() (Node, error) {
	t := p.peek()
	if p.keyword("not") {
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &Not{pos(t.off), x}, nil
	}
	return p.predicate()
}

var comparisons = map[string]Op{"=": OpEq, "<>": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe}

func (p *parser) predicate() (Node, error) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	at := pos(l.Offset())
	t := p.peek()
	if t.kind == tOp {
		if op, ok := comparisons[t.text]; ok {
			p.i++
			r, err := p.additive()
			if err != nil {
				return nil, err
			}
			return &Binary{at, op, l, r}, nil
		}
		if t.text == "~" || t.text == "!~" {
			p.i++
			r, err := p.additive()
			if err != nil {
				return nil, err
			}
			op := OpRegex
			if t.text == "!~" {
				op = OpNotRegex
			}
			return &Binary{at, op, l, r}, nil
		}
	}
	switch {
	case p.keyword("is", "not", "null"):
		return &IsNull{at, l, true}, nil
	case p.keyword("is", "null"):
		return &IsNull{at, l, false}, nil
	case p.keyword("is", "not", "distinct", "from"):
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &Binary{at, OpNotDistinct, l, r}, nil
	case p.keyword("is", "distinct", "from"):
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &Binary{at, OpDistinct, l, r}, nil
	case p.keyword("is"):
		return nil, p.errAt(p.peek(), "expected NULL, NOT NULL or [NOT] DISTINCT FROM after IS, found %s", describe(p.peek()))
	}
	not := p.keyword("not")
	switch {
	case p.keyword("in"):
		list, err := p.list()
		if err != nil {
			return nil, err
		}
		return &In{at, l, list, not}, nil
	case p.keyword("like"):
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		op := OpLike
		if not {
			op = OpNotLike
		}
		return &Binary{at, op, l, r}, nil
	case p.keyword("regexp"):
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		op := OpRegex
		if not {
			op = OpNotRegex
		}
		return &Binary{at, op, l, r}, nil
	case p.keyword("between"):
		lo, err := p.additive()
		if err != nil {
			return nil, err
		}
		if !p.keyword("and") {
			return nil, p.errAt(p.peek(), "expected AND in BETWEEN, found %s", describe(p.peek()))
		}
		hi, err := p.additive()
		if err != nil {
			return nil, err
		}
		return &Between{at, l, lo, hi, not}, nil
	}
	if not {
		return nil, p.errAt(p.peek(), "expected IN, LIKE, REGEXP or BETWEEN after NOT, found %s", describe(p.peek()))
	}
	return l, nil
}

func (p *parser) list() ([]Node, error) {
	open := p.peek()
	if open.kind != tLParen {
		return nil, p.errAt(open, "expected ( after IN, found %s", describe(open))
	}
	p.i++
	if err := p.subquery(); err != nil {
		return nil, err
	}
	var list []Node
	for {
		x, err := p.additive()
		if err != nil {
			return nil, err
		}
		list = append(list, x)
		t := p.next()
		if t.kind == tRParen {
			return list, nil
		}
		if t.kind != tComma {
			return nil, p.errAt(t, "expected , or ) in the IN list, found %s", describe(t))
		}
	}
}

func (p *parser) additive() (Node, error) {
	l, err := p.multiplicative()
	if err != nil {
		return nil, err
	}
	for {
		var op Op
		switch {
		case p.op("+"):
			op = OpAdd
		case p.op("-"):
			op = OpSub
		case p.op("||"):
			op = OpConcat
		default:
			return l, nil
		}
		r, err := p.multiplicative()
		if err != nil {
			return nil, err
		}
		l = &Binary{pos(l.Offset()), op, l, r}
	}
}

func (p *parser) multiplicative() (Node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		var op Op
		switch {
		case p.op("*"):
			op = OpMul
		case p.op("%"):
			op = OpMod
		default:
			return l, nil
		}
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = &Binary{pos(l.Offset()), op, l, r}
	}
}

func (p *parser) unary() (Node, error) {
	t := p.peek()
	if p.op("-") {
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if lit, ok := x.(*Literal); ok && lit.Kind == LitNumber && !strings.HasPrefix(lit.Value, "-") {
			return &Literal{pos(t.off), LitNumber, "-" + lit.Value}, nil
		}
		return &Neg{pos(t.off), x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (Node, error) {
	t := p.next()
	switch t.kind {
	case tString:
		return &Literal{pos(t.off), LitString, t.text}, nil
	case tNumber:
		return &Literal{pos(t.off), LitNumber, t.text}, nil
	case tQuotedIdent:
		return &Column{pos: pos(t.off), Name: t.text}, nil
	case tLParen:
		if err := p.subquery(); err != nil {
			return nil, err
		}
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tRParen {
			return nil, p.errAt(c, "expected ), found %s", describe(c))
		}
		return &Paren{pos(t.off), x}, nil
	case tIdent:
		switch t.text {
		case "null":
			return &Literal{pos(t.off), LitNull, ""}, nil
		case "true", "false":
			return &Literal{pos(t.off), LitBool, t.text}, nil
		}
		if err := p.unsupported(t); err != nil {
			return nil, err
		}
		if p.peek().kind == tLParen {
			return p.call(t)
		}
		if reserved[t.text] {
			return nil, p.errAt(t, "expected a value, found keyword %s", strings.ToUpper(t.text))
		}
		return &Column{pos: pos(t.off), Name: t.text}, nil
	}
	return nil, p.errAt(t, "expected a value, found %s", describe(t))
}

func (p *parser) call(name token) (Node, error) {
	p.i++ // (
	c := &Call{pos: pos(name.off), Name: name.text}
	if p.peek().kind == tRParen {
		p.i++
		return c, nil
	}
	for {
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, x)
		t := p.next()
		if t.kind == tRParen {
			break
		}
		if t.kind != tComma {
			return nil, p.errAt(t, "expected , or ) in the arguments of %s, found %s", name.text, describe(t))
		}
	}
	return c, nil
}

// exponent returns the end of an exponent (e3, E-2) at src[j:], or j.
func exponent(src string, j int) int {
	if j >= len(src) || src[j] != 'e' && src[j] != 'E' {
		return j
	}
	k := j + 1
	if k < len(src) && (src[k] == '+' || src[k] == '-') {
		k++
	}
	d := k
	for k < len(src) && src[k] >= '0' && src[k] <= '9' {
		k++
	}
	if k == d || k < len(src) && isIdentPart(src[k]) {
		return j
	}
	return k
}

// plainNumber writes a number in exponent notation out in full.
func plainNumber(s string) string {
	_, exp, _ := strings.Cut(strings.ToLower(s), "e")
	if len(strings.TrimLeft(exp, "+-0")) > 2 {
		return "the digits in full" // 1e999 would be a thousand digits
	}
	f, _, err := big.ParseFloat(s, 10, 256, big.ToNearestEven)
	if err != nil {
		return "the digits in full"
	}
	return f.Text('f', -1)
}

// subquery refuses SELECT after an opening parenthesis.
func (p *parser) subquery() error {
	if t := p.peek(); t.kind == tIdent && (t.text == "select" || t.text == "with") {
		return p.errAt(t, "subqueries are not allowed: a CHECK or index sees one row. List the values, as in x IN ('a', 'b'), or reference a table of allowed values with a foreign key")
	}
	return nil
}

// unsupported names SQL constructs that portable expressions leave out,
// with what to write instead, rather than failing at the token after them.
func (p *parser) unsupported(t token) error {
	next := p.peek()
	switch {
	case t.text == "case" && (next.kind == tIdent || next.kind == tQuotedIdent || next.kind == tLParen):
		return p.errAt(t, "CASE is not part of portable expressions; write it with AND and OR: CASE WHEN c THEN x ELSE y END as (c AND x) OR (NOT c AND y), or use a per-dialect raw expr override")
	case (t.text == "cast" || t.text == "convert") && next.kind == tLParen:
		return p.errAt(t, "%s is not part of portable expressions: types follow from the columns, so compare the column itself (for example created_at >= '2020-01-01'), or use a per-dialect raw expr override", strings.ToUpper(t.text))
	case t.text == "exists" && next.kind == tLParen:
		return p.errAt(t, "EXISTS (subquery) is not allowed: a CHECK or index sees one row; reference the other table with a foreign key")
	}
	return nil
}
