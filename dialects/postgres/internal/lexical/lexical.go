// Package lexical is PostgreSQL's lexical layer as schemagen writes and
// reads it: quoting identifiers and strings, and the Grammar of the
// expressions PostgreSQL prints back.
//
// It stands alone because every part of the dialect (generation, import,
// the online planner in internal/online) quotes names the same way, and
// the planner cannot import the dialect package that uses it.
package lexical

import (
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
