// Package lexical is PostgreSQL's lexical layer as schemagen writes and
// reads it: quoting identifiers and strings, the Grammar of the
// expressions PostgreSQL prints back, and renaming columns in one.
//
// It stands alone because every part of the dialect (generation, import,
// the online planner in internal/online) quotes names the same way, and
// the planner cannot import the dialect package that uses it.
package lexical

import (
	"regexp"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr/parse"
)

// Ident quotes an identifier.
func Ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// String quotes a string literal (standard_conforming_strings is on since
// PostgreSQL 9.1, so backslashes are literal).
func String(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Grammar is what PostgreSQL prints, read by the parser of the portable
// language with PostgreSQL's lexical rules and operator precedences.
var Grammar = &parse.Grammar{
	IdentQuote:        '"',
	EscapeStrings:     true,
	PrefixedStrings:   true,
	PostgresOperators: true,
	// As in PostgreSQL's gram.y, lowest first.
	Precedence: map[string]int{
		"or":  1,
		"and": 2,
		"is":  4,
		"=":   5, "<>": 5, "!=": 5, "<": 5, ">": 5, "<=": 5, ">=": 5,
		"like": 6, "ilike": 6, "in": 6, "between": 6,
		"+": 8, "-": 8,
		"*": 9, "/": 9, "%": 9,
		"^": 10,
	},
	OtherPrec:  7, // ~, !~, ~~, ||, and every other operator
	NotPrec:    3,
	NegPrec:    12,
	CastPrec:   15,
	Quantified: true,
}

var plainIdent = regexp.MustCompile(`^[a-z_][a-z0-9_$]*$`)

// RenameIdents writes names new for old in expression x, outside its
// string literals, as PostgreSQL prints an identifier (quoted unless a
// plain lower-case name).
func RenameIdents(x string, renamed map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(x); {
		ch := x[i]
		switch {
		case ch == '\'':
			j := i + 1
			for j < len(x) && !(x[j] == '\'' && (j+1 >= len(x) || x[j+1] != '\'')) {
				if x[j] == '\'' {
					j++
				}
				j++
			}
			j = min(j+1, len(x))
			b.WriteString(x[i:j])
			i = j
		case ch == '"' || ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j, name := i+1, ""
			if ch == '"' {
				for j < len(x) && x[j] != '"' {
					j++
				}
				name = x[i+1 : min(j, len(x))]
				j = min(j+1, len(x))
			} else {
				for j < len(x) && (x[j] == '_' || x[j] == '$' || x[j] >= 'a' && x[j] <= 'z' || x[j] >= 'A' && x[j] <= 'Z' || x[j] >= '0' && x[j] <= '9') {
					j++
				}
				name = x[i:j]
			}
			if to, ok := renamed[name]; ok {
				if !plainIdent.MatchString(to) {
					to = Ident(to)
				}
				b.WriteString(to)
			} else {
				b.WriteString(x[i:j])
			}
			i = j
		default:
			b.WriteByte(ch)
			i++
		}
	}
	return b.String()
}

// Plain is expression x without its outer parentheses and with its
// plain identifiers unquoted, as PostgreSQL prints it back.
func Plain(x string) string {
	x = strings.TrimSpace(x)
	for strings.HasPrefix(x, "(") && strings.HasSuffix(x, ")") && balanced(x[1:len(x)-1]) {
		x = strings.TrimSpace(x[1 : len(x)-1])
	}
	return quotedPlain.ReplaceAllStringFunc(x, func(q string) string { return q[1 : len(q)-1] })
}

var quotedPlain = regexp.MustCompile(`"[a-z_][a-z0-9_$]*"`)

// balanced reports whether x's parentheses pair up, read left to right.
func balanced(x string) bool {
	depth := 0
	for _, ch := range x {
		switch ch {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// RaiseIfAny is a DO block that raises message (P0001) when query finds a
// row: a file's assertion, for data migrations and the planner's guards.
// In a transaction, the file's other statements roll back with it.
func RaiseIfAny(query, message string) string {
	body := "BEGIN\n  IF EXISTS (" + query + ") THEN\n    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = " + String(message) + ";\n  END IF;\nEND"
	tag := "$schemagen_assert$"
	for strings.Contains(body, tag) {
		tag = tag[:len(tag)-1] + "_$"
	}
	return "DO " + tag + "\n" + body + "\n" + tag
}
