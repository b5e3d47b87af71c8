// Package lexical is TiDB's lexical layer as schemagen writes and reads
// it: quoting identifiers and strings, and telling a parenthesised whole.
//
// It stands alone because every part of the dialect (generation, import,
// the online planner in internal/online) quotes names the same way, and
// the planner cannot import the dialect package that uses it.
package lexical

import (
	"strconv"
	"strings"
)

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

// Unwrapped is s without the parentheses around it that another pair
// inside makes redundant: "((a or b))" is "(a or b)". TiDB stores a CHECK
// added as CHECK ((a OR b)) with one pair more than the same CHECK of a
// CREATE TABLE (see LooseAtTop); both mean the same.
func Unwrapped(s string) string {
	for Wrapped(s) && Wrapped(s[1:len(s)-1]) {
		s = s[1 : len(s)-1]
	}
	return s
}

// LooseAtTop reports whether expression s has, outside any parentheses, an
// operator that binds less tightly than NOT (OR, XOR, AND, ||, &&; not the
// AND of a BETWEEN). TiDB checks the rows of a table it adds a CHECK to
// with `SELECT 1 FROM t WHERE NOT <expr>` without parentheses
// (verifyRemainRecordsForCheckConstraint in pkg/ddl/constraint.go;
// pingcap/tidb#71050): such an expression is then read as (NOT a) OR b,
// which refuses rows that satisfy the CHECK (3819) or accepts rows that
// break it. Written CHECK ((expr)), the expression is one parenthesised
// whole and is checked as meant.
func LooseAtTop(s string) bool {
	depth, between := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			for j := i + 1; j < len(s); j++ {
				if s[j] == '\\' && c != '`' {
					j++
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j++
						continue
					}
					i = j
					break
				}
				i = j
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth != 0:
		case (c == '|' || c == '&') && i+1 < len(s) && s[i+1] == c:
			return true
		case isWordByte(c) && (i == 0 || !isWordByte(s[i-1])):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			switch strings.ToUpper(s[i:j]) {
			case "BETWEEN":
				between++
			case "AND":
				if between > 0 {
					between--
				} else {
					return true
				}
			case "OR", "XOR":
				return true
			}
			i = j - 1
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// RenameIdents is expression s with the identifiers old names as keys
// (bare or quoted, in any letter case, outside string literals) written
// as their values, quoted: a CHECK's text as it reads before the renames
// of a migration.
func RenameIdents(s string, names map[string]string) string {
	if len(names) == 0 {
		return s
	}
	lower := map[string]string{}
	for k, v := range names {
		lower[strings.ToLower(k)] = v
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '\\' {
					j++
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j++
						continue
					}
					break
				}
			}
			j = min(j, len(s)-1)
			b.WriteString(s[i : j+1])
			i = j
		case c == '`':
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == '`' {
					if j+1 < len(s) && s[j+1] == '`' {
						j++
						continue
					}
					break
				}
			}
			j = min(j, len(s)-1)
			name := strings.ReplaceAll(s[i+1:j], "``", "`")
			if to, ok := lower[strings.ToLower(name)]; ok {
				b.WriteString(Ident(to))
			} else {
				b.WriteString(s[i : j+1])
			}
			i = j
		case isWordByte(c) && (i == 0 || !isWordByte(s[i-1])):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			// A word followed by "(" is a function's name.
			if to, ok := lower[strings.ToLower(s[i:j])]; ok && (j >= len(s) || s[j] != '(') {
				b.WriteString(Ident(to))
			} else {
				b.WriteString(s[i:j])
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// TTL is a table's TTL option: TTL = `col` + INTERVAL n UNIT.
func TTL(col string, n int64, unit string) string {
	return "TTL = " + Ident(col) + " + INTERVAL " + strconv.FormatInt(n, 10) + " " + unit
}

// TTLEnable is a table's TTL_ENABLE option.
func TTLEnable(on bool) string {
	if on {
		return "TTL_ENABLE = 'ON'"
	}
	return "TTL_ENABLE = 'OFF'"
}

// TTLJobInterval is a table's TTL_JOB_INTERVAL option.
func TTLJobInterval(d string) string { return "TTL_JOB_INTERVAL = " + String(d) }

// Bytes is x as bytes, for a comparison that no collation or type bends;
// text: x is a string (uuid, enum). TiDB's CAST(... AS BINARY) of a
// char(n) or varchar(n) is cut at n bytes, so five emoji in a char(5)
// failed a batched UPDATE's guard (1406, or 1105 over a scan; plan oracle,
// evolution 97171291569); CONVERT(... USING binary) keeps a string whole
// but cuts a vector(n) at n bytes.
func Bytes(x string, text bool) string {
	if text {
		return "CONVERT(" + x + " USING binary)"
	}
	return "CAST(" + x + " AS BINARY)"
}
