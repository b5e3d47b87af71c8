// Package stmtlex splits a migration statement into tokens for the lint
// rules a dialect applies to the text of its statements (dialects.StmtRules):
// another dialect's syntax (SG103), data statements (SG104), CHECKs (SG101)
// and renames. It knows the quoting of both families of SQL, so that a
// dialect can find the other family's syntax in its files.
package stmtlex

import (
	"regexp"
	"strings"
)

// Token is a token of a migration statement.
type Token struct {
	Kind  Kind
	Text  string // as written; words are also compared upper-cased
	Off   int    // byte offset in the statement text
	Depth int    // parenthesis depth at the token
}

type Kind int

const (
	Word   Kind = iota // keyword or bare identifier
	DQuote             // "x": PostgreSQL identifier, MySQL string
	BQuote             // `x`: MySQL/TiDB identifier
	String             // 'x'
	Dollar             // $tag$ ... $tag$: PostgreSQL string
	Number             // 1, 2.5
	Cast               // ::
	Punct              // any other character: ( ) , . ; = ...
)

// Upper is the upper-cased text of a word, "" for other tokens.
func (t Token) Upper() string {
	if t.Kind != Word {
		return ""
	}
	return strings.ToUpper(t.Text)
}

var dollarTag = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)?\$`)

// Tokenize splits a statement into tokens, skipping comments and spaces.
// mysql enables `#` comments and backslash escapes in strings. It never
// fails: an unclosed quote runs to the end of the statement.
func Tokenize(s string, mysql bool) []Token {
	var (
		toks  []Token
		depth int
	)
	isWordStart := func(c byte) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	isWord := func(c byte) bool {
		return isWordStart(c) || c >= '0' && c <= '9' || c == '$'
	}
	// closeQuote returns the offset after the quote closing s[i] == q.
	closeQuote := func(i int, q byte, backslash bool) int {
		for j := i + 1; j < len(s); j++ {
			switch {
			case backslash && s[j] == '\\':
				j++
			case s[j] == q && j+1 < len(s) && s[j+1] == q:
				j++ // doubled quote
			case s[j] == q:
				return j + 1
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-', c == '#' && mysql:
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(s)
			}
		case c == '\'', (c == 'E' || c == 'e') && !mysql && i+1 < len(s) && s[i+1] == '\'':
			// E'...' is PostgreSQL's string with backslash escapes.
			start, q := i, i
			if c != '\'' {
				q++
			}
			i = closeQuote(q, '\'', mysql || q > start)
			toks = append(toks, Token{Kind: String, Text: s[start:i], Off: start, Depth: depth})
		case c == '"' || c == '`':
			kind := DQuote
			if c == '`' {
				kind = BQuote
			}
			j := closeQuote(i, c, false)
			toks = append(toks, Token{Kind: kind, Text: s[i:j], Off: i, Depth: depth})
			i = j
		case c == '$' && dollarTag.MatchString(s[i:]):
			tag := dollarTag.FindString(s[i:])
			j := len(s)
			if k := strings.Index(s[i+len(tag):], tag); k >= 0 {
				j = i + len(tag) + k + len(tag)
			}
			toks = append(toks, Token{Kind: Dollar, Text: s[i:j], Off: i, Depth: depth})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E') {
				j++
			}
			toks = append(toks, Token{Kind: Number, Text: s[i:j], Off: i, Depth: depth})
			i = j
		case isWordStart(c):
			j := i
			for j < len(s) && isWord(s[j]) {
				j++
			}
			toks = append(toks, Token{Kind: Word, Text: s[i:j], Off: i, Depth: depth})
			i = j
		case c == ':' && i+1 < len(s) && s[i+1] == ':':
			toks = append(toks, Token{Kind: Cast, Text: "::", Off: i, Depth: depth})
			i += 2
		default:
			if c == ')' && depth > 0 {
				depth--
			}
			toks = append(toks, Token{Kind: Punct, Text: s[i : i+1], Off: i, Depth: depth})
			if c == '(' {
				depth++
			}
			i++
		}
	}
	return toks
}

// StmtKind is the leading keywords of a statement: "CREATE TABLE",
// "CREATE INDEX" (UNIQUE and CONCURRENTLY skipped), "ALTER TABLE", or the
// first word ("INSERT", "DO", ...).
func StmtKind(toks []Token) string {
	var words []string
	for _, t := range toks {
		if t.Kind != Word {
			break
		}
		w := t.Upper()
		switch w {
		case "UNIQUE", "OR", "REPLACE", "TEMPORARY", "TEMP", "UNLOGGED", "GLOBAL", "LOCAL", "CLUSTERED", "FULLTEXT", "SPATIAL":
			if len(words) == 1 && words[0] == "CREATE" {
				continue
			}
		}
		words = append(words, w)
		if len(words) == 2 || words[0] != "CREATE" && words[0] != "ALTER" && words[0] != "DROP" && words[0] != "RENAME" {
			break
		}
	}
	return strings.Join(words, " ")
}

// IsDDL reports whether a statement changes the schema.
func IsDDL(kind string) bool {
	first, _, _ := strings.Cut(kind, " ")
	switch first {
	case "CREATE", "ALTER", "DROP", "RENAME", "COMMENT":
		return true
	}
	return false
}

// Unquote returns an identifier token's name.
func Unquote(t Token) string {
	switch t.Kind {
	case DQuote, BQuote:
		q := t.Text[:1]
		s := strings.TrimPrefix(t.Text, q)
		s = strings.TrimSuffix(s, q)
		return strings.ReplaceAll(s, q+q, q)
	}
	return t.Text
}
