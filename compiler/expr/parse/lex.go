// Package parse is the one lexer and grammar of the project's SQL text. A
// Grammar's flags let the same code read schema.hcl's expressions
// (Portable), data migrations' statements (Data), what PostgreSQL prints
// back, and each dialect's migration statements (Tokens, Words, for lint).
//
// It stops at syntax: Expr and Stmts return a raw Term tree that knows
// nothing of types or portable meaning, which expr.Reader then gives. That
// is why it stands alone: the dialects lex statement text with it without
// building an expression tree, and the grammar can be read and tested
// without the type rules.
package parse

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Grammar describes one syntax of expressions: the portable language
// (Portable) or the text a database prints back (PostgreSQL's). One lexer
// and one parser read them all; a zero field is the reading of printed text.
type Grammar struct {
	// Authored: the text is written by a person (schema.hcl), so errors say
	// what to write instead, `--` starts a comment, numbers in exponent
	// notation are refused, and SQL constructs the language leaves out are
	// named where they start.
	Authored bool
	// Refused are texts at which the lexer stops with the message given.
	Refused map[string]string
	// Keywords cannot be column names unquoted; nil means ReadKeywords.
	Keywords map[string]bool
	// Predicates is the precedence of comparisons, IS, IN, LIKE and BETWEEN
	// when they do not chain (a = b = c is an error) and NOT cannot be their
	// operand; 0 when they chain as other operators do.
	Predicates int
	// MaxDepth bounds the nesting of an expression; 0 means 500.
	MaxDepth int

	// IdentQuote quotes identifiers ('"' or '`'); a doubled quote stands
	// for itself, except in Authored text.
	IdentQuote byte
	// EscapeStrings: E'...' literals read backslash escapes (PostgreSQL).
	EscapeStrings bool
	// PrefixedStrings: a word right before a quote (X'..', B'..') is a
	// prefixed literal, which has no portable form.
	PrefixedStrings bool
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
	// Data: the statements of portable data migrations (stmt.go), which add
	// qualified names, subqueries, casts and now() to Authored expressions.
	Data bool

	// Settings for statement text that Tokens reads (migration files):
	// OtherQuote is a second quote character, read as a quoted token of its
	// own (another family's identifier quote, or MySQL's "string");
	// HashComments: `#` starts a comment; BackslashStrings: '...' and
	// OtherQuote's text read backslash escapes (MySQL's two strings);
	// DollarStrings: $tag$...$tag$ is a string.
	OtherQuote                                    byte
	HashComments, BackslashStrings, DollarStrings bool
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
	tOther // a character no grammar reads (Words only)
)

// dollarTag matches the opening tag of a dollar-quoted string.
var dollarTag = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)?\$`)

type token struct {
	kind     tokKind
	text     string // lower-case identifier, quoted identifier's name, decoded string, number or operator
	off, end int
	raw      string // an identifier as written
}

type lexer struct {
	g    *Grammar
	src  string
	toks []token
	// words: lex a whole statement for Words (comments, any character).
	words bool
	// spans: lex a statement for Tokens (with words): nothing fails, an
	// unclosed quote runs to the end, a number is a run of digits, dots and
	// exponent letters.
	spans bool
}

func (l *lexer) errorf(off, end int, format string, args ...any) error {
	return &Error{off, end, fmt.Sprintf(format, args...)}
}

func (l *lexer) add(kind tokKind, text string, off, end int) {
	l.toks = append(l.toks, token{kind: kind, text: text, off: off, end: end})
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

// PlainIdent reports whether s reads as one unquoted identifier.
func PlainIdent(s string) bool {
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

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// pgOpChars are the characters of PostgreSQL operators.
const pgOpChars = "+-*/<>=~!@#%^&|`?"

func (l *lexer) lex() error {
	return l.lexFrom(0)
}

func (l *lexer) lexFrom(i int) error {
	src, g := l.src, l.g
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' && !g.Authored:
			i++
		case c == '-' && i+1 < len(src) && src[i+1] == '-' && (g.Authored || l.words), c == '#' && g.HashComments:
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*' && l.words:
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil
			}
			i += end + 4
		case l.spans && (c == '\'' || c == g.IdentQuote || c == g.OtherQuote && c != 0 || c == '$' && g.DollarStrings && dollarTag.MatchString(src[i:]) ||
			(c == 'E' || c == 'e') && g.EscapeStrings && i+1 < len(src) && src[i+1] == '\'' || isDigit(c)):
			i = l.span(i)
		case (c == 'E' || c == 'e') && g.EscapeStrings && i+1 < len(src) && src[i+1] == '\'':
			s, end, err := l.escapeString(i + 1)
			if err != nil {
				return err
			}
			l.add(tString, s, i, end)
			i = end
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			word := src[i:j]
			if j < len(src) && src[j] == '\'' && g.PrefixedStrings {
				// A prefixed literal (X'..', B'..', N'..', _charset'..').
				return l.errorf(i, j, "the literal %s'...' has no portable form", word)
			}
			l.toks = append(l.toks, token{kind: tIdent, text: strings.ToLower(word), off: i, end: j, raw: word})
			i = j
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]) && !l.spans:
			end, err := l.number(i)
			if err != nil {
				return err
			}
			l.add(tNumber, src[i:end], i, end)
			i = end
		case c == '\'':
			s, end, err := l.quoted(i)
			if err != nil {
				return err
			}
			l.add(tString, s, i, end)
			i = end
		case c == g.IdentQuote:
			end, ok := closing(src, i, false)
			if k := strings.IndexByte(src[i+1:], c); g.Authored && k >= 0 {
				end, ok = i+k+2, true // a doubled quote is two names
			}
			if !ok {
				return l.errorf(i, len(src), "unterminated quoted identifier")
			}
			name := strings.ReplaceAll(src[i+1:end-1], string([]byte{c, c}), string(c))
			if name == "" && g.Authored {
				return l.errorf(i, end, "empty quoted identifier")
			}
			l.toks = append(l.toks, token{kind: tQuotedIdent, text: name, off: i, end: end, raw: name})
			i = end
		case c == '(':
			l.add(tLParen, "(", i, i+1)
			i++
		case c == ')':
			l.add(tRParen, ")", i, i+1)
			i++
		case c == ',':
			l.add(tComma, ",", i, i+1)
			i++
		default:
			n, err := l.operator(i)
			if err != nil {
				return err
			}
			i += n
		}
	}
	end := len(src)
	if g.Authored {
		// The end points just after the last token, not at trailing blank lines.
		end = 0
		if len(l.toks) > 0 {
			end = l.toks[len(l.toks)-1].end
		}
	}
	l.add(tEOF, "", end, end)
	return nil
}

// span adds the token of a statement's text that starts at i (Tokens):
// a quoted text, which an unclosed quote runs to the end of, or a number;
// it returns the token's end.
func (l *lexer) span(i int) int {
	src, g := l.src, l.g
	kind, j := tString, i
	switch c := src[i]; {
	case isDigit(c):
		for j < len(src) && (isDigit(src[j]) || src[j] == '.' || src[j] == 'e' || src[j] == 'E') {
			j++
		}
		l.add(tNumber, src[i:j], i, j)
		return j
	case c == '$':
		tag := dollarTag.FindString(src[i:])
		j = len(src)
		if k := strings.Index(src[i+len(tag):], tag); k >= 0 {
			j = i + k + 2*len(tag)
		}
		l.add(tString, src[i:j], i, j)
		return j
	case c == 'E' || c == 'e':
		j++ // E'...'
	case c != '\'':
		kind = tQuotedIdent
	}
	// MySQL reads backslash escapes in both of its strings, '...' and "...".
	backslash := src[j] == '\'' && (g.BackslashStrings || j > i) || src[j] == g.OtherQuote && g.BackslashStrings
	j, _ = closing(src, j, backslash)
	l.add(kind, src[i:j], i, j)
	return j
}

// operator reads the operator at i and returns its length.
func (l *lexer) operator(i int) (int, error) {
	src, g := l.src, l.g
	c := src[i]
	refused := ""
	for t := range g.Refused {
		if strings.HasPrefix(src[i:], t) && len(t) > len(refused) {
			refused = t
		}
	}
	switch {
	case refused != "":
		return 0, l.errorf(i, i+len(refused), "%s", g.Refused[refused])
	case c == '.' && (!g.Authored || g.Data):
		l.add(tOp, ".", i, i+1)
		return 1, nil
	case g.PostgresOperators && c == '[':
		l.add(tLBracket, "[", i, i+1)
		return 1, nil
	case g.PostgresOperators && c == ']':
		l.add(tRBracket, "]", i, i+1)
		return 1, nil
	case g.PostgresOperators && c == ':' && i+1 < len(src) && src[i+1] == ':':
		l.add(tOp, "::", i, i+2)
		return 2, nil
	case g.PostgresOperators && strings.IndexByte(pgOpChars, c) >= 0:
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
		if k := min(index(op, "--"), index(op, "/*")); k < len(op) {
			if !l.words {
				return 0, l.errorf(i, j, "comments are not expected in a reported expression")
			}
			op = op[:k] // a comment follows (k > 0: lexFrom skips one at i)
		}
		l.add(tOp, op, i, i+len(op))
		return len(op), nil
	}
	for _, o := range g.Operators {
		if strings.HasPrefix(src[i:], o) {
			l.add(tOp, o, i, i+len(o))
			return len(o), nil
		}
	}
	r, n := utf8.DecodeRuneInString(src[i:])
	if l.words {
		l.add(tOther, src[i:i+n], i, i+n)
		return n, nil
	}
	if g.Authored {
		return 0, l.errorf(i, i+1, "unexpected character %q", c)
	}
	return 0, l.errorf(i, i+n, "unexpected character %q", r)
}

// number reads the number at i and returns its end.
func (l *lexer) number(i int) (int, error) {
	src := l.src
	if !l.g.Authored && src[i] == '0' && i+1 < len(src) && strings.IndexByte("xXbB", src[i+1]) >= 0 {
		return 0, l.errorf(i, i+2, "hexadecimal and binary literals have no portable form")
	}
	j := i
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	if j < len(src) && src[j] == '.' {
		j++
		for j < len(src) && isDigit(src[j]) {
			j++
		}
	}
	if e := exponent(src, j, l.g.Authored); e > j {
		if l.g.Authored {
			return 0, l.errorf(i, e, "exponent notation (%s) is not portable; write the number out: %s", src[i:e], plainNumber(src[i:e]))
		}
		j = e
	}
	if j < len(src) && isIdentStart(src[j]) {
		if l.g.Authored {
			return 0, l.errorf(i, j+1, "malformed number")
		}
		return 0, l.errorf(i, j+1, "malformed number %q", src[i:j+1])
	}
	return j, nil
}

// exponent returns the end of an exponent (e3, E-2) at src[j:], or j; a
// strict exponent is not followed by a letter.
func exponent(src string, j int, strict bool) int {
	if j >= len(src) || src[j] != 'e' && src[j] != 'E' {
		return j
	}
	k := j + 1
	if k < len(src) && (src[k] == '+' || src[k] == '-') {
		k++
	}
	d := k
	for k < len(src) && isDigit(src[k]) {
		k++
	}
	if k == d || strict && k < len(src) && isIdentPart(src[k]) {
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

// index is strings.Index, or len(s) when sub is not in s.
func index(s, sub string) int {
	if k := strings.Index(s, sub); k >= 0 {
		return k
	}
	return len(s)
}

// quoted reads the '...' literal that starts at i: a doubled quote stands
// for a quote.
func (l *lexer) quoted(i int) (string, int, error) {
	end, ok := closing(l.src, i, false)
	if !ok {
		return "", 0, l.errorf(i, len(l.src), "unterminated string literal")
	}
	return strings.ReplaceAll(l.src[i+1:end-1], "''", "'"), end, nil
}

// closing returns the end of the text quoted by src[i], past the closing
// quote: a doubled quote stands for itself and, with backslash, a backslash
// escapes the next byte. ok is false when the quote is not closed (end is
// then len(src)).
func closing(src string, i int, backslash bool) (end int, ok bool) {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch {
		case backslash && src[j] == '\\':
			j++
		case src[j] == q && j+1 < len(src) && src[j+1] == q:
			j++
		case src[j] == q:
			return j + 1, true
		}
	}
	return len(src), false
}

// escapeString reads PostgreSQL's E'...' literal whose quote is at i.
func (l *lexer) escapeString(i int) (string, int, error) {
	src := l.src
	var b strings.Builder
	j := i + 1
	for {
		if j >= len(src) {
			return "", 0, l.errorf(i-1, len(src), "unterminated string literal")
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
				return "", 0, l.errorf(i-1, j+1, "the string literal is not valid UTF-8")
			}
			return b.String(), j + 1, nil
		case c == '\\':
			if j+1 >= len(src) {
				return "", 0, l.errorf(i-1, len(src), "unterminated string literal")
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
					return "", 0, l.errorf(j-2, j+n, "invalid Unicode escape")
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

// Word is a word of a statement as Words reads it.
type Word struct {
	// Text is a keyword or unquoted name in upper case, or a quoted name
	// after a NUL byte (so that it matches no keyword).
	Text string
	// Name is the name as it refers to an object: unquoted names in lower
	// case, quoted ones as written.
	Name string
}

// Words returns the words of a whole statement in grammar g, skipping
// comments, literals and punctuation: enough to tell how a statement does
// what it does. Unreadable text ends the list.
func Words(g *Grammar, stmt string) []Word {
	l := &lexer{g: g, src: stmt, words: true}
	for i := 0; ; {
		err := l.lexFrom(i)
		e, ok := err.(*Error)
		if !ok {
			break
		}
		i = max(e.End, e.Offset+1) // an unreadable literal is skipped
	}
	var out []Word
	for _, t := range l.toks {
		switch t.kind {
		case tIdent:
			out = append(out, Word{Text: strings.ToUpper(t.raw), Name: t.text})
		case tQuotedIdent:
			out = append(out, Word{Text: "\x00" + t.text, Name: t.text})
		}
	}
	return out
}

// Span is a token of a statement's text as Tokens reads it.
type Span struct {
	Kind     SpanKind
	Off, End int
}

type SpanKind int

const (
	SpanOther  SpanKind = iota // an operator of g.Operators or any other character
	SpanWord                   // keyword or unquoted name
	SpanQuoted                 // text in IdentQuote or OtherQuote
	SpanString                 // '...', E'...', $tag$...$tag$
	SpanNumber                 // digits, dots and exponent letters
)

// Tokens splits a statement's text in grammar g into tokens, skipping
// spaces and comments, for rules that read a statement's text (lint). It
// never fails: an unclosed quote or comment runs to the end.
func Tokens(g *Grammar, stmt string) []Span {
	l := &lexer{g: g, src: stmt, words: true, spans: true}
	l.lex() // in spans mode, only Refused and PrefixedStrings fail, which statement grammars leave unset
	var out []Span
	kinds := map[tokKind]SpanKind{tIdent: SpanWord, tQuotedIdent: SpanQuoted, tString: SpanString, tNumber: SpanNumber}
	for _, t := range l.toks {
		if t.kind != tEOF {
			out = append(out, Span{kinds[t.kind], t.off, t.end}) // SpanOther is 0
		}
	}
	return out
}
