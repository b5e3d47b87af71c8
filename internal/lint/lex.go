package lint

import (
	"regexp"
	"strings"
)

// sqlToken is a token of a migration statement, for schemagen's lexical lint rules. The
// tokenizer knows both dialects' quoting, so that it can find one dialect's
// syntax in the other's files.
type sqlToken struct {
	kind  sqlTokenKind
	text  string // as written; words are also compared upper-cased
	off   int    // byte offset in the statement text
	depth int    // parenthesis depth at the token
}

type sqlTokenKind int

const (
	tokWord   sqlTokenKind = iota // keyword or bare identifier
	tokDQuote                     // "x": PostgreSQL identifier, MySQL string
	tokBQuote                     // `x`: MySQL/TiDB identifier
	tokString                     // 'x'
	tokDollar                     // $tag$ ... $tag$: PostgreSQL string
	tokNumber                     // 1, 2.5
	tokCast                       // ::
	tokPunct                      // any other character: ( ) , . ; = ...
)

// upper is the upper-cased text of a word, "" for other tokens.
func (t sqlToken) upper() string {
	if t.kind != tokWord {
		return ""
	}
	return strings.ToUpper(t.text)
}

var dollarTag = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)?\$`)

// tokenizeSQL splits a statement into tokens, skipping comments and spaces.
// mysql enables `#` comments and backslash escapes in strings. It never
// fails: an unclosed quote runs to the end of the statement.
func tokenizeSQL(s string, mysql bool) []sqlToken {
	var (
		toks  []sqlToken
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
			toks = append(toks, sqlToken{kind: tokString, text: s[start:i], off: start, depth: depth})
		case c == '"' || c == '`':
			kind := tokDQuote
			if c == '`' {
				kind = tokBQuote
			}
			j := closeQuote(i, c, false)
			toks = append(toks, sqlToken{kind: kind, text: s[i:j], off: i, depth: depth})
			i = j
		case c == '$' && dollarTag.MatchString(s[i:]):
			tag := dollarTag.FindString(s[i:])
			j := len(s)
			if k := strings.Index(s[i+len(tag):], tag); k >= 0 {
				j = i + len(tag) + k + len(tag)
			}
			toks = append(toks, sqlToken{kind: tokDollar, text: s[i:j], off: i, depth: depth})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E') {
				j++
			}
			toks = append(toks, sqlToken{kind: tokNumber, text: s[i:j], off: i, depth: depth})
			i = j
		case isWordStart(c):
			j := i
			for j < len(s) && isWord(s[j]) {
				j++
			}
			toks = append(toks, sqlToken{kind: tokWord, text: s[i:j], off: i, depth: depth})
			i = j
		case c == ':' && i+1 < len(s) && s[i+1] == ':':
			toks = append(toks, sqlToken{kind: tokCast, text: "::", off: i, depth: depth})
			i += 2
		default:
			if c == ')' && depth > 0 {
				depth--
			}
			toks = append(toks, sqlToken{kind: tokPunct, text: s[i : i+1], off: i, depth: depth})
			if c == '(' {
				depth++
			}
			i++
		}
	}
	return toks
}

// stmtKind is the leading keywords of a statement: "CREATE TABLE",
// "CREATE INDEX" (UNIQUE and CONCURRENTLY skipped), "ALTER TABLE", or the
// first word ("INSERT", "DO", ...).
func stmtKind(toks []sqlToken) string {
	var words []string
	for _, t := range toks {
		if t.kind != tokWord {
			break
		}
		w := t.upper()
		switch w {
		case "UNIQUE", "OR", "REPLACE", "TEMPORARY", "TEMP", "UNLOGGED", "GLOBAL", "LOCAL", "CLUSTERED", "FULLTEXT", "SPATIAL":
			if len(words) == 1 && words[0] == "CREATE" {
				continue
			}
		}
		words = append(words, w)
		if len(words) == 2 || words[0] != "CREATE" && words[0] != "ALTER" && words[0] != "DROP" {
			break
		}
	}
	return strings.Join(words, " ")
}

// isDDLKind reports whether a statement changes the schema.
func isDDLKind(kind string) bool {
	first, _, _ := strings.Cut(kind, " ")
	switch first {
	case "CREATE", "ALTER", "DROP", "RENAME", "COMMENT":
		return true
	}
	return false
}

// unquoteIdent returns an identifier token's name.
func unquoteIdent(t sqlToken) string {
	switch t.kind {
	case tokDQuote, tokBQuote:
		q := t.text[:1]
		s := strings.TrimPrefix(t.text, q)
		s = strings.TrimSuffix(s, q)
		return strings.ReplaceAll(s, q+q, q)
	}
	return t.text
}
