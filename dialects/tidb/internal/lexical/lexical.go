// Package lexical is TiDB's lexical layer as schemagen writes and reads
// it: quoting identifiers and strings, and telling a parenthesised whole.
//
// It stands alone because every part of the dialect (generation, import,
// the online planner in internal/online) quotes names the same way, and
// the planner cannot import the dialect package that uses it.
package lexical

import "strings"

// Ident quotes an identifier.
func Ident(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// String quotes a string literal. TiDB, like MySQL, reads backslash escapes
// in literals, so a backslash is doubled to keep its meaning.
func String(s string) string {
	return "'" + literalEscaper.Replace(s) + "'"
}

var literalEscaper = strings.NewReplacer(`\`, `\\`, "'", "''")

// Wrapped reports whether s is one parenthesised whole.
func Wrapped(s string) bool {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return false
	}
	depth, quoted := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted != 0:
			if c == '\\' {
				i++
			} else if c == quoted {
				quoted = 0
			}
		case c == '\'' || c == '`' || c == '"':
			quoted = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return false
			}
		}
	}
	return depth == 0
}
