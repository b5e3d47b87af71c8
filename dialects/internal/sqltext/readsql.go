package sqltext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file reads SQL expressions as databases print them (PostgreSQL's
// pg_get_expr, TiDB's CHECK_CLAUSE) into a raw syntax tree; readexpr.go turns
// that tree into a portable expression. The grammar is a superset of what
// either database prints for portable expressions, parameterised by Grammar,
// so that anything else is read far enough to name it in an error.

// Grammar describes one dialect's lexical rules and operator precedences.
type Grammar struct {
	// IdentQuote quotes identifiers ('"' or '`'); a doubled quote stands for itself.
	IdentQuote byte
	// BackslashEscapes: '...' literals read backslash escapes (TiDB).
	BackslashEscapes bool
	// EscapeStrings: E'...' literals read backslash escapes (PostgreSQL).
	EscapeStrings bool
	// Introducers are the charset introducers (_utf8mb4'...') that leave a
	// literal a plain string; any other introducer is an error.
	Introducers []string
	// PostgresOperators: operators are maximal runs of operator characters,
	// as PostgreSQL lexes them, and `::`, `[`, `]` are tokens. Otherwise
	// Operators lists the operator tokens.
	PostgresOperators bool
	Operators         []string
	// Precedence gives the binding power of each binary operator (symbols and
	// lower-case keywords: "or", "and", "=", "like", "in", "between", "is",
	// "~", ...); higher binds tighter. Operators missing from it bind at
	// OtherPrec, or are an error when OtherPrec is 0.
	Precedence map[string]int
	OtherPrec  int
	// NotPrec and NegPrec are the binding powers of prefix NOT and unary minus.
	NotPrec, NegPrec int
	// CastPrec is the binding power of the postfix `::type` cast (PostgreSQL);
	// 0 when the dialect has none.
	CastPrec int
	// Quantified: a comparison may be followed by ANY/ALL/SOME (...).
	Quantified bool
}

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
)

// Term is a node of an expression as a database prints it. Off is the byte
// offset of its first token in the text.
type Term struct {
	Kind TermKind
	Text string
	Args []*Term
	Off  int
	// Group: the term was written in parentheses.
	Group bool
}

// Same reports whether a and b are the same expression, wherever they are
// written and however parenthesised.
func (a *Term) Same(b *Term) bool {
	if a.Kind != b.Kind || a.Text != b.Text || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		if !a.Args[i].Same(b.Args[i]) {
			return false
		}
	}
	return true
}

// ReadError is an expression a database reports that has no portable form,
// or that cannot be read.
type ReadError struct {
	Text   string // the whole expression as the database reported it
	Offset int    // byte offset of the offending part, -1 when unknown
	Msg    string
}

func (e *ReadError) Error() string {
	if e.Offset < 0 || e.Offset > len(e.Text) {
		return fmt.Sprintf("cannot read expression %q: %s", e.Text, e.Msg)
	}
	near := e.Text[e.Offset:]
	if len(near) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(near[cut]) {
			cut--
		}
		near = near[:cut] + "…"
	}
	return fmt.Sprintf("cannot read expression %q: %s (at %q)", e.Text, e.Msg, near)
}

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
	tLBracket
	tRBracket
)

type token struct {
	kind tokKind
	text string // lower-case identifier, quoted identifier's name, decoded string, number or operator
	off  int
}

type lexer struct {
	g    *Grammar
	src  string
	toks []token
}

func (l *lexer) errorf(off int, format string, args ...any) error {
	return &ReadError{Text: l.src, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// pgOpChars are the characters of PostgreSQL operators.
const pgOpChars = "+-*/<>=~!@#%^&|`?"

func (l *lexer) lex() error {
	src := l.src
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case (c == 'E' || c == 'e') && l.g.EscapeStrings && i+1 < len(src) && src[i+1] == '\'':
			s, end, err := l.escapeString(i + 1)
			if err != nil {
				return err
			}
			l.toks = append(l.toks, token{tString, s, i})
			i = end
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			word := src[i:j]
			if j < len(src) && src[j] == '\'' {
				// A charset introducer (_utf8mb4'...') or a prefixed literal (X'..', B'..', N'..').
				if !strings.HasPrefix(word, "_") || len(l.g.Introducers) == 0 {
					return l.errorf(i, "the literal %s'...' has no portable form", word)
				}
				if !contains(l.g.Introducers, strings.ToLower(word[1:])) {
					return l.errorf(i, "the charset introducer %s has no portable form", word)
				}
				s, end, err := l.quoted(j)
				if err != nil {
					return err
				}
				l.toks = append(l.toks, token{tString, s, i})
				i = end
				continue
			}
			l.toks = append(l.toks, token{tIdent, strings.ToLower(word), i})
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			j := i
			if c == '0' && i+1 < len(src) && (src[i+1] == 'x' || src[i+1] == 'X' || src[i+1] == 'b' || src[i+1] == 'B') {
				return l.errorf(i, "hexadecimal and binary literals have no portable form")
			}
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if j < len(src) && src[j] == '.' {
				j++
				for j < len(src) && isDigit(src[j]) {
					j++
				}
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && isDigit(src[k]) {
					for k < len(src) && isDigit(src[k]) {
						k++
					}
					j = k
				}
			}
			if j < len(src) && isIdentStart(src[j]) {
				return l.errorf(i, "malformed number %q", src[i:j+1])
			}
			l.toks = append(l.toks, token{tNumber, src[i:j], i})
			i = j
		case c == '\'':
			s, end, err := l.quoted(i)
			if err != nil {
				return err
			}
			l.toks = append(l.toks, token{tString, s, i})
			i = end
		case c == l.g.IdentQuote:
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(src) {
					return l.errorf(i, "unterminated quoted identifier")
				}
				if src[j] == c {
					if j+1 < len(src) && src[j+1] == c {
						b.WriteByte(c)
						j += 2
						continue
					}
					break
				}
				b.WriteByte(src[j])
				j++
			}
			l.toks = append(l.toks, token{tQuotedIdent, b.String(), i})
			i = j + 1
		case c == '(':
			l.toks = append(l.toks, token{tLParen, "(", i})
			i++
		case c == ')':
			l.toks = append(l.toks, token{tRParen, ")", i})
			i++
		case c == ',':
			l.toks = append(l.toks, token{tComma, ",", i})
			i++
		case c == '.':
			l.toks = append(l.toks, token{tOp, ".", i})
			i++
		case l.g.PostgresOperators && c == '[':
			l.toks = append(l.toks, token{tLBracket, "[", i})
			i++
		case l.g.PostgresOperators && c == ']':
			l.toks = append(l.toks, token{tRBracket, "]", i})
			i++
		case l.g.PostgresOperators && c == ':' && i+1 < len(src) && src[i+1] == ':':
			l.toks = append(l.toks, token{tOp, "::", i})
			i += 2
		case l.g.PostgresOperators && strings.IndexByte(pgOpChars, c) >= 0:
			j := i
			for j < len(src) && strings.IndexByte(pgOpChars, src[j]) >= 0 {
				j++
			}
			op := src[i:j]
			// PostgreSQL: a multi-character operator ends in + or - only
			// when it holds one of ~ ! @ # % ^ & | ` ?.
			if len(op) > 1 && !strings.ContainsAny(op, "~!@#%^&|`?") {
				for len(op) > 1 && (op[len(op)-1] == '+' || op[len(op)-1] == '-') {
					op = op[:len(op)-1]
				}
			}
			if strings.Contains(op, "--") || strings.Contains(op, "/*") {
				return l.errorf(i, "comments are not expected in a reported expression")
			}
			l.toks = append(l.toks, token{tOp, op, i})
			i += len(op)
		default:
			op := ""
			for _, o := range l.g.Operators {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				r, _ := utf8.DecodeRuneInString(src[i:])
				return l.errorf(i, "unexpected character %q", r)
			}
			l.toks = append(l.toks, token{tOp, op, i})
			i += len(op)
		}
	}
	l.toks = append(l.toks, token{tEOF, "", len(src)})
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// quoted reads the '...' literal that starts at i: a doubled quote stands
// for a quote, and with BackslashEscapes a backslash escapes as in MySQL.
func (l *lexer) quoted(i int) (string, int, error) {
	src := l.src
	var b strings.Builder
	j := i + 1
	for {
		if j >= len(src) {
			return "", 0, l.errorf(i, "unterminated string literal")
		}
		c := src[j]
		switch {
		case c == '\'':
			if j+1 < len(src) && src[j+1] == '\'' {
				b.WriteByte('\'')
				j += 2
				continue
			}
			return b.String(), j + 1, nil
		case c == '\\' && l.g.BackslashEscapes:
			if j+1 >= len(src) {
				return "", 0, l.errorf(i, "unterminated string literal")
			}
			switch e := src[j+1]; e {
			case '0':
				b.WriteByte(0)
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'Z':
				b.WriteByte(0x1a)
			case '%', '_':
				// MySQL keeps the backslash of \% and \_ (for LIKE).
				b.WriteByte('\\')
				b.WriteByte(e)
			default:
				b.WriteByte(e)
			}
			j += 2
		default:
			b.WriteByte(c)
			j++
		}
	}
}

// escapeString reads PostgreSQL's E'...' literal whose quote is at i.
func (l *lexer) escapeString(i int) (string, int, error) {
	src := l.src
	var b strings.Builder
	j := i + 1
	for {
		if j >= len(src) {
			return "", 0, l.errorf(i-1, "unterminated string literal")
		}
		c := src[j]
		switch {
		case c == '\'':
			if j+1 < len(src) && src[j+1] == '\'' {
				b.WriteByte('\'')
				j += 2
				continue
			}
			if !utf8.ValidString(b.String()) {
				return "", 0, l.errorf(i-1, "the string literal is not valid UTF-8")
			}
			return b.String(), j + 1, nil
		case c == '\\':
			if j+1 >= len(src) {
				return "", 0, l.errorf(i-1, "unterminated string literal")
			}
			e := src[j+1]
			j += 2
			switch e {
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'x':
				v, n := digits(src[j:], 16, 2)
				if n == 0 {
					b.WriteByte('x')
					continue
				}
				b.WriteByte(byte(v))
				j += n
			case 'u', 'U':
				want := 4
				if e == 'U' {
					want = 8
				}
				v, n := digits(src[j:], 16, want)
				if n != want || !utf8.ValidRune(rune(v)) {
					return "", 0, l.errorf(j-2, "invalid Unicode escape")
				}
				b.WriteRune(rune(v))
				j += n
			default:
				if e >= '0' && e <= '7' {
					v, n := digits(src[j-1:], 8, 3)
					b.WriteByte(byte(v))
					j += n - 1
					continue
				}
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			j++
		}
	}
}

// digits reads up to max digits of base from the start of s.
func digits(s string, base, max int) (int, int) {
	v, n := 0, 0
	for n < max && n < len(s) {
		var d int
		switch c := s[n]; {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			d = base
		}
		if d >= base {
			break
		}
		v = v*base + d
		n++
	}
	return v, n
}

// keywords cannot be read as column names when unquoted.
var keywords = map[string]bool{
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

type rawParser struct {
	g     *Grammar
	src   string
	toks  []token
	i     int
	depth int
}

// maxReadDepth bounds the nesting of a read expression.
const maxReadDepth = 500

// ParseTerm reads text with grammar g into a raw tree.
func ParseTerm(g *Grammar, text string) (*Term, error) {
	l := &lexer{g: g, src: text}
	if err := l.lex(); err != nil {
		return nil, err
	}
	p := &rawParser{g: g, src: text, toks: l.toks}
	// pg_get_constraintdef and SHOW CREATE TABLE write CHECK (...).
	if p.isWord(0, "check") && p.peekAt(1).kind == tLParen {
		p.i++
	}
	r, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if p.isWord(0, "not") && p.isWord(1, "valid") || p.isWord(0, "no") && p.isWord(1, "inherit") {
			return nil, p.errorf(t.off, "%s %s is not part of the expression; read the constraint's expression alone", strings.ToUpper(t.text), strings.ToUpper(p.peekAt(1).text))
		}
		return nil, p.errorf(t.off, "unexpected %s after the end of the expression", describeTok(t))
	}
	return r, nil
}

func (p *rawParser) errorf(off int, format string, args ...any) error {
	return &ReadError{Text: p.src, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func describeTok(t token) string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tString:
		return fmt.Sprintf("string '%s'", t.text)
	case tIdent:
		if keywords[t.text] {
			return "keyword " + strings.ToUpper(t.text)
		}
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *rawParser) peek() token        { return p.toks[p.i] }
func (p *rawParser) peekAt(k int) token { return p.toks[min(p.i+k, len(p.toks)-1)] }
func (p *rawParser) next() token        { t := p.toks[p.i]; p.i++; return t }

// isWord reports whether token k ahead is the unquoted word w.
func (p *rawParser) isWord(k int, w string) bool {
	t := p.peekAt(k)
	return t.kind == tIdent && t.text == w
}

func (p *rawParser) expect(kind tokKind, what string) (token, error) {
	t := p.next()
	if t.kind != kind {
		return t, p.errorf(t.off, "expected %s, found %s", what, describeTok(t))
	}
	return t, nil
}

// infix describes the binary or postfix operator at the current token: its
// name, its binding power and how many tokens it takes. prec is 0 when the
// current token continues no expression.
func (p *rawParser) infix() (name string, prec, width int, err error) {
	t := p.peek()
	switch t.kind {
	case tOp:
		if t.text == "." {
			return "", 0, 0, p.errorf(t.off, "qualified names have no portable form")
		}
		if t.text == "::" {
			if p.g.CastPrec == 0 {
				return "", 0, 0, p.errorf(t.off, "unexpected ::")
			}
			return "::", p.g.CastPrec, 1, nil
		}
		if pr, ok := p.g.Precedence[t.text]; ok {
			return t.text, pr, 1, nil
		}
		if p.g.OtherPrec == 0 {
			return "", 0, 0, p.errorf(t.off, "the operator %s has no portable form", t.text)
		}
		return t.text, p.g.OtherPrec, 1, nil
	case tLBracket:
		return "", 0, 0, p.errorf(t.off, "array subscripts have no portable form")
	case tIdent:
	default:
		return "", 0, 0, nil
	}
	word := func(w string, k int) (string, int, int, error) {
		pr, ok := p.g.Precedence[w]
		if !ok {
			return "", 0, 0, p.errorf(t.off, "%s has no portable form", strings.ToUpper(w))
		}
		return w, pr, k, nil
	}
	switch t.text {
	case "and", "or", "xor", "like", "ilike", "regexp", "rlike", "in", "between", "div", "mod":
		return word(t.text, 1)
	case "similar", "collate", "escape", "member", "sounds", "at":
		return "", 0, 0, p.errorf(t.off, "%s has no portable form", strings.ToUpper(t.text))
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
		k := 1
		if p.isWord(1, "not") {
			k = 2
		}
		return "", 0, 0, p.errorf(t.off, "IS %s has no portable form", strings.ToUpper(p.peekAt(k).text))
	case "not":
		n := p.peekAt(1)
		if n.kind != tIdent {
			return "", 0, 0, nil
		}
		switch n.text {
		case "like", "ilike", "regexp", "rlike", "in", "between":
			name, prec, _, err := word(n.text, 2)
			return "not " + name, prec, 2, err
		case "similar":
			return "", 0, 0, p.errorf(t.off, "NOT SIMILAR TO has no portable form")
		}
	}
	return "", 0, 0, nil
}

func (p *rawParser) enter() error {
	p.depth++
	if p.depth > maxReadDepth {
		return p.errorf(p.peek().off, "the expression nests too deeply")
	}
	return nil
}

// expr reads an expression whose operators bind tighter than min.
func (p *rawParser) expr(min int) (*Term, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	left, err := p.prefix()
	if err != nil {
		return nil, err
	}
	for {
		name, prec, width, err := p.infix()
		if err != nil {
			return nil, err
		}
		if prec == 0 || prec <= min {
			return left, nil
		}
		p.i += width
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
			list, err := p.list(name)
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
				return nil, p.errorf(p.peek().off, "expected AND in BETWEEN, found %s", describeTok(p.peek()))
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
					return nil, p.errorf(p.peek().off, "a subquery has no portable form")
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
			if (name == "like" || name == "not like") && p.isWord(0, "escape") {
				return nil, p.errorf(p.peek().off, "LIKE ... ESCAPE has no portable form")
			}
			left = &Term{Kind: TermBinary, Text: name, Args: []*Term{left, right}, Off: left.Off}
		}
	}
}

// list reads the parenthesised list after IN.
func (p *rawParser) list(op string) ([]*Term, error) {
	if _, err := p.expect(tLParen, "( after "+strings.ToUpper(op)); err != nil {
		return nil, err
	}
	if p.isWord(0, "select") || p.isWord(0, "with") {
		return nil, p.errorf(p.peek().off, "a subquery has no portable form")
	}
	var list []*Term
	for {
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		list = append(list, x)
		t := p.next()
		if t.kind == tRParen {
			return list, nil
		}
		if t.kind != tComma {
			return nil, p.errorf(t.off, "expected , or ) in the IN list, found %s", describeTok(t))
		}
	}
}

// typeName reads the type of a cast: words (double precision, character
// varying, timestamp with time zone), an optional modifier and array brackets.
func (p *rawParser) typeName() (string, error) {
	var words []string
	for {
		t := p.peek()
		if t.kind == tQuotedIdent {
			words = append(words, `"`+t.text+`"`)
			p.i++
		} else if t.kind == tIdent && (len(words) == 0 || !keywords[t.text] || t.text == "with") {
			words = append(words, t.text)
			p.i++
		} else {
			break
		}
		if t := p.peek(); t.kind == tOp && t.text == "." {
			return "", p.errorf(t.off, "qualified type names have no portable form")
		}
	}
	if len(words) == 0 {
		return "", p.errorf(p.peek().off, "expected a type after ::, found %s", describeTok(p.peek()))
	}
	typ := strings.Join(words, " ")
	if p.peek().kind == tLParen {
		var mods []string
		p.i++
		for {
			t := p.next()
			if t.kind != tNumber {
				return "", p.errorf(t.off, "expected a type modifier, found %s", describeTok(t))
			}
			mods = append(mods, t.text)
			t = p.next()
			if t.kind == tRParen {
				break
			}
			if t.kind != tComma {
				return "", p.errorf(t.off, "expected , or ) in a type modifier, found %s", describeTok(t))
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

func (p *rawParser) prefix() (*Term, error) {
	t := p.next()
	switch t.kind {
	case tString:
		return &Term{Kind: TermString, Text: t.text, Off: t.off}, nil
	case tNumber:
		return &Term{Kind: TermNumber, Text: t.text, Off: t.off}, nil
	case tQuotedIdent:
		if n := p.peek(); n.kind == tOp && n.text == "." {
			return nil, p.errorf(t.off, "qualified names have no portable form")
		} else if n.kind == tLParen {
			return nil, p.errorf(t.off, "quoted function names have no portable form")
		}
		return &Term{Kind: TermColumn, Text: t.text, Off: t.off}, nil
	case tOp:
		switch t.text {
		case "-", "+":
			x, err := p.expr(p.g.NegPrec)
			if err != nil {
				return nil, err
			}
			return &Term{Kind: TermUnary, Text: t.text, Args: []*Term{x}, Off: t.off}, nil
		case "!":
			if _, ok := p.g.Precedence["!"]; ok {
				x, err := p.expr(p.g.Precedence["!"])
				if err != nil {
					return nil, err
				}
				return &Term{Kind: TermUnary, Text: "not", Args: []*Term{x}, Off: t.off}, nil
			}
		}
		return nil, p.errorf(t.off, "the prefix operator %s has no portable form", t.text)
	case tLParen:
		if p.isWord(0, "select") || p.isWord(0, "with") || p.isWord(0, "values") {
			return nil, p.errorf(t.off, "a subquery has no portable form")
		}
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		c := p.next()
		if c.kind == tComma {
			return nil, p.errorf(t.off, "row values have no portable form")
		}
		if c.kind != tRParen {
			return nil, p.errorf(c.off, "expected ), found %s", describeTok(c))
		}
		x.Group = true
		return x, nil
	case tIdent:
		switch t.text {
		case "null":
			return &Term{Kind: TermNull, Off: t.off}, nil
		case "true", "false":
			return &Term{Kind: TermBool, Text: t.text, Off: t.off}, nil
		case "not":
			x, err := p.expr(p.g.NotPrec)
			if err != nil {
				return nil, err
			}
			return &Term{Kind: TermUnary, Text: "not", Args: []*Term{x}, Off: t.off}, nil
		case "array":
			if p.g.PostgresOperators && p.peek().kind == tLBracket {
				return p.array(t)
			}
			if p.peek().kind == tLParen {
				return nil, p.errorf(t.off, "a subquery has no portable form")
			}
		case "exists", "select":
			return nil, p.errorf(t.off, "a subquery has no portable form")
		case "case":
			return nil, p.errorf(t.off, "CASE has no portable form")
		case "cast":
			if p.peek().kind == tLParen {
				return p.cast(t)
			}
		case "row":
			return nil, p.errorf(t.off, "row values have no portable form")
		case "interval", "date", "time", "timestamp":
			if p.peek().kind == tString {
				return nil, p.errorf(t.off, "typed literals (%s '...') have no portable form", strings.ToUpper(t.text))
			}
		}
		if n := p.peek(); n.kind == tOp && n.text == "." {
			return nil, p.errorf(t.off, "qualified names have no portable form")
		}
		if p.peek().kind == tLParen {
			return p.call(t)
		}
		if valueKeywords[t.text] {
			return nil, p.errorf(t.off, "%s has no portable form: CHECKs and index expressions must give the same result every time", strings.ToUpper(t.text))
		}
		if keywords[t.text] {
			return nil, p.errorf(t.off, "expected a value, found keyword %s", strings.ToUpper(t.text))
		}
		return &Term{Kind: TermColumn, Text: t.text, Off: t.off}, nil
	}
	return nil, p.errorf(t.off, "expected a value, found %s", describeTok(t))
}

func (p *rawParser) array(t token) (*Term, error) {
	p.i++ // [
	a := &Term{Kind: TermArray, Off: t.off}
	if p.peek().kind == tRBracket {
		p.i++
		return a, nil
	}
	for {
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		a.Args = append(a.Args, x)
		c := p.next()
		if c.kind == tRBracket {
			return a, nil
		}
		if c.kind != tComma {
			return nil, p.errorf(c.off, "expected , or ] in ARRAY[...], found %s", describeTok(c))
		}
	}
}

// cast reads CAST(x AS type).
func (p *rawParser) cast(t token) (*Term, error) {
	p.i++ // (
	x, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if !p.isWord(0, "as") {
		return nil, p.errorf(p.peek().off, "expected AS in CAST, found %s", describeTok(p.peek()))
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

func (p *rawParser) call(name token) (*Term, error) {
	p.i++ // (
	c := &Term{Kind: TermCall, Text: name.text, Off: name.off}
	if p.peek().kind == tRParen {
		p.i++
		return c, nil
	}
	if p.isWord(0, "distinct") || p.isWord(0, "all") || p.isWord(0, "variadic") {
		return nil, p.errorf(p.peek().off, "%s in a function call has no portable form", strings.ToUpper(p.peek().text))
	}
	for {
		x, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, x)
		t := p.next()
		if t.kind == tRParen {
			return c, nil
		}
		if t.kind != tComma {
			return nil, p.errorf(t.off, "expected , or ) in the arguments of %s, found %s", name.text, describeTok(t))
		}
	}
}
