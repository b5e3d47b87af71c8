// Package stmtlex splits a migration statement into tokens for the lint
// rules a dialect applies to the text of its statements (dialects.StmtRules):
// another dialect's syntax (SG103), data statements (SG104), CHECKs (SG101)
// and renames. A dialect's grammar of statement text knows the quoting of
// both families of SQL, so that it can find the other family's syntax in
// its files.
package stmtlex

import (
	"strings"

	"github.com/schemagen/schemagen/compiler/expr/parse"
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

// Tokenize splits a statement into tokens with the one lexer of SQL text
// (parse.Tokens) in g, a dialect's grammar of statement text, skipping
// comments and spaces. It never fails: an unclosed quote runs to the end of
// the statement.
func Tokenize(s string, g *parse.Grammar) []Token {
	var (
		toks  []Token
		depth int
	)
	for _, sp := range parse.Tokens(g, s) {
		t := Token{Text: s[sp.Off:sp.End], Off: sp.Off, Depth: depth}
		switch c := s[sp.Off]; {
		case sp.Kind == parse.SpanWord:
			t.Kind = Word
		case sp.Kind == parse.SpanQuoted && c == '`':
			t.Kind = BQuote
		case sp.Kind == parse.SpanQuoted:
			t.Kind = DQuote
		case sp.Kind == parse.SpanString && c == '$':
			t.Kind = Dollar
		case sp.Kind == parse.SpanString:
			t.Kind = String
		case sp.Kind == parse.SpanNumber:
			t.Kind = Number
		case t.Text == "::":
			t.Kind = Cast
		default:
			t.Kind = Punct
			if c == ')' && depth > 0 {
				depth--
				t.Depth = depth
			}
			if c == '(' {
				depth++
			}
		}
		toks = append(toks, t)
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

// CreatedView returns the name token of the view a statement creates (CREATE
// [OR REPLACE] [TEMP] [ALGORITHM = x] [DEFINER = x] [SQL SECURITY x] VIEW
// [IF NOT EXISTS] [schema.]name ...), and false for any other statement,
// a materialized view included (it is no view to the catalogs that list
// views).
func CreatedView(toks []Token) (Token, bool) {
	if len(toks) == 0 || toks[0].Upper() != "CREATE" {
		return Token{}, false
	}
	i := 1
	for ; i < len(toks) && i < 16; i++ {
		switch toks[i].Upper() {
		case "VIEW":
			i++
			if i+2 < len(toks) && toks[i].Upper() == "IF" && toks[i+1].Upper() == "NOT" && toks[i+2].Upper() == "EXISTS" {
				i += 3
			}
			var name Token
			for ; i < len(toks); i++ {
				if toks[i].Kind != Word && toks[i].Kind != DQuote && toks[i].Kind != BQuote {
					return Token{}, false
				}
				name = toks[i]
				if i+1 < len(toks) && toks[i+1].Text == "." {
					i++
					continue
				}
				return name, true
			}
			return Token{}, false
		case "MATERIALIZED", "TABLE", "INDEX", "FUNCTION", "PROCEDURE", "TRIGGER", "AS", "SELECT":
			return Token{}, false
		}
	}
	return Token{}, false
}
