package stmtlex

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr/parse"
	"github.com/schemagen/schemagen/dialects"
)

// Foreign finds another dialect's syntax in a statement of kind (StmtKind)
// split into toks, and reports each by add: SG103 at byte offset off, once
// per marker and statement.
type Foreign func(kind string, toks []Token, add func(marker string, off int, format string, args ...any))

// Read is a dialect's StmtRules.LintStmt: it splits text in the dialect's
// grammar of statement text g and applies foreign (SG103) and the rules
// every dialect shares: data statements (SG104), CHECKs and renames. fold
// is how the dialect reads an unquoted identifier (PostgreSQL's lower
// case), nil for as written.
func Read(text string, g *parse.Grammar, foreign Foreign, fold func(string) string) dialects.StmtLint {
	toks := Tokenize(text, g)
	return dialects.StmtLint{
		Findings: findings(toks, foreign),
		Checks:   checks(toks),
		Renames:  renames(toks, fold),
		Fill:     fill(toks, fold),
	}
}

// findings applies the rules that read a statement's text: another
// dialect's syntax (SG103) and data statements (SG104).
func findings(toks []Token, foreign Foreign) []dialects.StmtFinding {
	if len(toks) == 0 {
		return nil
	}
	kind := StmtKind(toks)
	var out []dialects.StmtFinding
	// Each marker is reported once per statement, with a count of the others.
	seen, more := map[string]int{}, map[int]int{}
	add := func(marker string, off int, format string, args ...any) {
		if i, ok := seen[marker]; ok {
			more[i]++
			return
		}
		seen[marker] = len(out)
		out = append(out, dialects.StmtFinding{Code: "SG103", Off: off, Msg: fmt.Sprintf(format, args...)})
	}
	if foreign != nil {
		foreign(kind, toks, add)
	}
	for i, n := range more {
		out[i].Msg += fmt.Sprintf(" (and %d more in this statement)", n)
	}
	if f, ok := dataStatement(kind, toks); ok {
		out = append(out, f)
	}
	return out
}

// Around returns accessors for the tokens before and after the i-th, which
// are empty tokens at the ends.
func Around(toks []Token) (prev, next func(int) Token) {
	return func(i int) Token {
			if i > 0 {
				return toks[i-1]
			}
			return Token{}
		}, func(i int) Token {
			if i+1 < len(toks) {
				return toks[i+1]
			}
			return Token{}
		}
}

// TypePosition reports whether the i-th token is where a column definition
// or a cast names a type: after the column's name, which follows "(", ",",
// ADD, MODIFY or COLUMN, or after TYPE or CAST's AS.
func TypePosition(toks []Token, i int) bool {
	if i == 0 {
		return false
	}
	switch toks[i-1].Upper() {
	case "TYPE", "AS":
		return true
	}
	if i < 2 || toks[i-1].Kind != Word && toks[i-1].Kind != DQuote && toks[i-1].Kind != BQuote {
		return false
	}
	switch b := toks[i-2]; {
	case b.Text == "(" || b.Text == ",":
		return true
	default:
		switch b.Upper() {
		case "ADD", "MODIFY", "COLUMN", "EXISTS":
			return true
		}
	}
	return false
}

// dataStatement reports statements that change or read rows, which the
// analyzers cannot judge (SG104).
func dataStatement(kind string, toks []Token) (dialects.StmtFinding, bool) {
	first, _, _ := strings.Cut(kind, " ")
	target := func(after ...string) string {
		for i, t := range toks {
			if i > 0 && slices.Contains(after, t.Upper()) && i+1 < len(toks) {
				n := toks[i+1]
				if n.Kind == Word || n.Kind == DQuote || n.Kind == BQuote {
					if n.Upper() == "TABLE" && i+2 < len(toks) {
						n = toks[i+2]
					}
					return " on " + n.Text
				}
			}
		}
		return ""
	}
	var what string
	switch first {
	case "INSERT", "REPLACE":
		what = first + target("INTO")
	case "UPDATE":
		// The table follows the keyword itself (UPDATE [ONLY] t SET ...).
		what = "UPDATE"
		if i := 1 + boolInt(len(toks) > 1 && toks[1].Upper() == "ONLY"); i < len(toks) && (toks[i].Kind == Word || toks[i].Kind == DQuote || toks[i].Kind == BQuote) {
			what += " on " + toks[i].Text
		}
	case "DELETE":
		what = "DELETE" + target("FROM")
	case "TRUNCATE":
		what = "TRUNCATE" + target("TRUNCATE")
	case "MERGE":
		what = "MERGE" + target("INTO")
	case "DO":
		what = "DO block"
	case "WITH", "SELECT", "COPY", "CALL", "LOAD":
		what = first + " statement"
	default:
		return dialects.StmtFinding{}, false
	}
	return dialects.StmtFinding{Code: "SG104", Off: toks[0].Off,
		Msg: fmt.Sprintf("data change to review: %s (the analyzers read schema changes only)", what)}, true
}

// checks returns the offsets of the CHECK keywords of a CREATE TABLE or
// ALTER TABLE statement (SG101).
func checks(toks []Token) []int {
	switch StmtKind(toks) {
	case "CREATE TABLE", "ALTER TABLE":
	default:
		return nil
	}
	var out []int
	for _, t := range toks {
		if t.Upper() == "CHECK" {
			out = append(out, t.Off)
		}
	}
	return out
}

// fill reads what an UPDATE sets: UPDATE [ONLY] [schema.]t [[AS] alias]
// SET [alias.]a = ..., [alias.]b = ... [FROM ... | WHERE ...], each
// column's name as the dialect reads names (fold), its qualifier dropped.
// A multi-table UPDATE (MySQL's UPDATE t JOIN u ... SET) sets the first
// table's columns only when it names them unqualified or by that table.
func fill(toks []Token, fold func(string) string) *dialects.Fill {
	if StmtKind(toks) != "UPDATE" {
		return nil
	}
	ident := func(i int) bool {
		return i < len(toks) && (toks[i].Kind == Word || toks[i].Kind == DQuote || toks[i].Kind == BQuote)
	}
	unquote := func(t Token) string {
		if t.Kind == Word && fold != nil {
			return fold(t.Text)
		}
		return Unquote(t)
	}
	i := 1
	if i < len(toks) && toks[i].Upper() == "ONLY" {
		i++
	}
	if !ident(i) {
		return nil
	}
	f := &dialects.Fill{Table: unquote(toks[i])}
	i++
	for i+1 < len(toks) && toks[i].Text == "." && ident(i+1) {
		f.Table = unquote(toks[i+1])
		i += 2
	}
	// The names the table goes by: itself and its alias.
	names := map[string]bool{f.Table: true}
	if toks[min(i, len(toks)-1)].Upper() == "AS" {
		i++
	}
	if ident(i) && toks[i].Upper() != "SET" {
		names[unquote(toks[i])] = true
	}
	for i < len(toks) && !(toks[i].Depth == 0 && toks[i].Upper() == "SET") {
		i++
	}
	// Each assignment starts after SET or a comma at depth 0, and the
	// list ends at FROM, WHERE, RETURNING, ORDER or LIMIT at depth 0.
	for start := i + 1; start < len(toks); {
		var parts []Token
		j := start
		for ; ident(j) || j < len(toks) && toks[j].Text == "."; j++ {
			if toks[j].Text != "." {
				parts = append(parts, toks[j])
			}
		}
		if len(parts) == 0 || j >= len(toks) || toks[j].Text != "=" {
			break
		}
		if len(parts) == 1 || names[unquote(parts[len(parts)-2])] {
			f.Columns = append(f.Columns, unquote(parts[len(parts)-1]))
		}
		for start = j + 1; start < len(toks); start++ {
			t := toks[start]
			if t.Depth > 0 {
				continue
			}
			if t.Text == "," {
				start++
				break
			}
			if w := t.Upper(); w == "FROM" || w == "WHERE" || w == "RETURNING" || w == "ORDER" || w == "LIMIT" || t.Text == ";" {
				return f
			}
		}
	}
	return f
}

// renames reads what a renaming statement renames, each clause: RENAME
// TABLE a TO b[, c TO d], ALTER TABLE a RENAME [TO|AS] b, ALTER TABLE t
// RENAME [COLUMN] a TO b, ALTER TABLE t CHANGE [COLUMN] a b .... A table's
// name is its last part (schema.table); a column rename's ToTable is the
// ALTER TABLE's table, by its name at the statement. An unquoted name is
// read through fold (nil: as written).
func renames(toks []Token, fold func(string) string) []dialects.Rename {
	ident := func(i int) bool {
		return i < len(toks) && (toks[i].Kind == Word || toks[i].Kind == DQuote || toks[i].Kind == BQuote)
	}
	word := func(i int) string {
		if i < len(toks) {
			return toks[i].Upper()
		}
		return ""
	}
	unquote := func(t Token) string {
		if t.Kind == Word && fold != nil {
			return fold(t.Text)
		}
		return Unquote(t)
	}
	// name reads a [schema.]name from i: the name, and the index after it.
	name := func(i int) (string, int) {
		if !ident(i) {
			return "", i
		}
		n := unquote(toks[i])
		i++
		for i+1 < len(toks) && toks[i].Text == "." && ident(i+1) {
			n = unquote(toks[i+1])
			i += 2
		}
		return n, i
	}
	// end reports whether i ends a clause.
	end := func(i int) bool {
		return i >= len(toks) || toks[i].Depth == 0 && (toks[i].Text == "," || toks[i].Text == ";")
	}
	var out []dialects.Rename
	switch StmtKind(toks) {
	case "RENAME TABLE":
		for i := 2; i < len(toks); {
			from, j := name(i)
			if word(j) != "TO" {
				break
			}
			to, k := name(j + 1)
			if from == "" || to == "" {
				break
			}
			out = append(out, dialects.Rename{FromTable: from, ToTable: to})
			if k >= len(toks) || toks[k].Text != "," {
				break
			}
			i = k + 1
		}
	case "ALTER TABLE":
		i := 2
		for word(i) == "IF" || word(i) == "EXISTS" || word(i) == "ONLY" {
			i++
		}
		table, i := name(i)
		if table == "" {
			return nil
		}
		if i < len(toks) && toks[i].Text == "*" {
			i++
		}
		// Each clause starts after the table or a comma at depth 0.
		for start := i; start < len(toks); {
			switch word(start) {
			case "RENAME":
				n := start + 1
				switch w := word(n); {
				case w == "TO" || w == "AS":
					if to, k := name(n + 1); to != "" && end(k) {
						out = append(out, dialects.Rename{FromTable: table, ToTable: to})
						table = to
					}
				case w == "COLUMN":
					n++
					fallthrough
				case ident(n) && w != "INDEX" && w != "KEY" && w != "CONSTRAINT":
					from, k := name(n)
					if word(k) == "TO" {
						if to, k := name(k + 1); to != "" && end(k) {
							out = append(out, dialects.Rename{ToTable: table, FromColumn: from, ToColumn: to})
						}
					} else if w != "COLUMN" && end(k) {
						// MySQL's ALTER TABLE a RENAME b.
						out = append(out, dialects.Rename{FromTable: table, ToTable: from})
						table = from
					}
				}
			case "CHANGE":
				n := start + 1
				if word(n) == "COLUMN" {
					n++
				}
				from, k := name(n)
				if to, _ := name(k); from != "" && to != "" && from != to {
					out = append(out, dialects.Rename{ToTable: table, FromColumn: from, ToColumn: to})
				}
			}
			for start++; start < len(toks) && !end(start); start++ {
			}
			start++
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
