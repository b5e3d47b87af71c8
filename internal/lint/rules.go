package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
)

// Severity is how much a lint finding matters: an error fails
// `schemagen migrate lint` (exit 1) unless a nolint comment suppresses it.
type Severity string

// Severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Rule describes one lint code.
type Rule struct {
	Code     string
	Source   string // "atlas" (an analyzer of ariga.io/atlas/sql/sqlcheck) or "schemagen"
	Analyzer string // Atlas's analyzer name, or schemagen's rule group
	Severity Severity
	Title    string // one line
	Help     string // what to do about it
	// Dialects the rule applies to (empty: all).
	Dialects []string
	// NoSuppress: nolint comments cannot silence it.
	NoSuppress bool
}

// Rules lists every code `migrate lint` reports, Atlas's and schemagen's;
// docs/lint.md documents each one.
var Rules = []Rule{
	{Code: "DS101", Source: "atlas", Analyzer: "destructive", Severity: SeverityError,
		Title: "Dropping a schema",
		Help:  "Every table of the schema and its rows are lost. Make sure it is empty or backed up, then suppress with a reason."},
	{Code: "DS102", Source: "atlas", Analyzer: "destructive", Severity: SeverityError,
		Title: "Dropping a table",
		Help:  "The table's rows are lost. Drop it in a release after nothing reads or writes it, then suppress with a reason."},
	{Code: "DS103", Source: "atlas", Analyzer: "destructive", Severity: SeverityError,
		Title: "Dropping a non-virtual column",
		Help:  "The column's values are lost. Stop using the column first, then drop it in a later release, with a suppression giving the reason."},
	{Code: "MF101", Source: "atlas", Analyzer: "data_depend", Severity: SeverityWarning,
		Title: "Adding a unique index on existing columns",
		Help:  "Fails if existing rows hold duplicates. Check for duplicates first."},
	{Code: "MF102", Source: "atlas", Analyzer: "data_depend", Severity: SeverityWarning,
		Title: "Making an existing index unique",
		Help:  "Fails if existing rows hold duplicates. Check for duplicates first."},
	{Code: "MF103", Source: "atlas", Analyzer: "data_depend", Severity: SeverityWarning,
		Title: "Adding a non-nullable column without a default to an existing table",
		Help:  "Fails on a non-empty table. Add a DEFAULT, or add the column nullable, backfill it, then make it NOT NULL (see also SG102)."},
	{Code: "MF104", Source: "atlas", Analyzer: "data_depend", Severity: SeverityWarning,
		Title: "Making a nullable column non-nullable",
		Help:  "Fails if existing rows hold NULL. Backfill the column in the same file before the change."},
	{Code: "CD101", Source: "atlas", Analyzer: "condrop", Severity: SeverityWarning,
		Title: "Dropping a foreign-key constraint",
		Help:  "Rows that break the relation can be written from now on. Make sure that is intended."},
	{Code: "BC101", Source: "atlas", Analyzer: "incompatible", Severity: SeverityWarning,
		Title: "Renaming a table",
		Help:  "Running application versions that use the old name break. Rename in steps (add a view, migrate readers and writers, drop the view)."},
	{Code: "BC102", Source: "atlas", Analyzer: "incompatible", Severity: SeverityWarning,
		Title: "Renaming a column",
		Help:  "Running application versions that use the old name break. Add the new column, copy, switch readers and writers, then drop the old one."},
	// MY101, MY102 and SG101 are TiDB's (dialects/tidb LintCodes).

	{Code: "SG100", Source: "schemagen", Analyzer: "replay", Severity: SeverityError,
		Title: "Statement fails on a clean dev database",
		Help:  "The file cannot be applied after the files before it. Fix the statement; the rest of the file (and the env's later files) is only checked lexically."},
	{Code: "SG102", Source: "schemagen", Analyzer: "portability", Severity: SeverityError,
		Title: "NOT NULL column without a default added to a table that may hold rows",
		Help:  "PostgreSQL fails on a non-empty table; TiDB fills existing rows with a zero value. Add a DEFAULT, or add the column nullable, backfill it and make it NOT NULL."},
	{Code: "SG103", Source: "schemagen", Analyzer: "portability", Severity: SeverityError,
		Title: "Statement written for another dialect",
		Help:  "The file is in one dialect's directory but uses the other dialect's syntax, or the dev database of its dialect rejects it as a syntax error. Write it for the directory's dialect."},
	{Code: "SG104", Source: "schemagen", Analyzer: "data", Severity: SeverityWarning,
		Title: "Data change to review",
		Help:  "INSERT, UPDATE, DELETE, DO blocks and other data statements are not read by the analyzers. Review them against production-sized data."},
	{Code: "SG105", Source: "schemagen", Analyzer: "nolint", Severity: SeverityError, NoSuppress: true,
		Title: "Invalid nolint comment",
		Help:  "Write `-- schemagen:nolint CODE[,CODE...] reason`, with known codes and a reason."},
	{Code: "SG106", Source: "schemagen", Analyzer: "nolint", Severity: SeverityWarning, NoSuppress: true,
		Title: "nolint comment that applies to nothing",
		Help:  "Put it directly above the statement (no blank line between) or in the file's header (followed by a blank line)."},
}

// The lint codes of one dialect only.
func init() {
	for _, d := range all.Dialects() {
		for _, c := range d.LintCodes() {
			sev := SeverityWarning
			if c.Error {
				sev = SeverityError
			}
			Rules = append(Rules, Rule{Code: c.Code, Source: c.Source, Analyzer: c.Analyzer, Severity: sev,
				Title: c.Title, Help: c.Help, Dialects: []string{d.Name()}})
		}
	}
}

// LookupRule returns the rule of a code.
func LookupRule(code string) (Rule, bool) {
	i := slices.IndexFunc(Rules, func(r Rule) bool { return r.Code == code })
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// lexFinding is a finding of a lexical rule, at a byte offset of a statement.
type lexFinding struct {
	code string
	off  int
	msg  string
}

// lexicalFindings applies the rules that read a statement's text: another
// dialect's syntax (SG103) and data statements (SG104).
func lexicalFindings(dialect string, toks []sqlToken) []lexFinding {
	d := all.Get(dialect)
	if d == nil {
		return syntaxFindings(-1, toks)
	}
	return syntaxFindings(d.Syntax(), toks)
}

// syntaxFindings is lexicalFindings for a dialect written in syntax.
func syntaxFindings(syntax dialects.Syntax, toks []sqlToken) []lexFinding {
	if len(toks) == 0 {
		return nil
	}
	kind := stmtKind(toks)
	var out []lexFinding
	// Each marker is reported once per statement, with a count of the others.
	seen, more := map[string]int{}, map[int]int{}
	add := func(marker string, off int, format string, args ...any) {
		if i, ok := seen[marker]; ok {
			more[i]++
			return
		}
		seen[marker] = len(out)
		out = append(out, lexFinding{code: "SG103", off: off, msg: fmt.Sprintf(format, args...)})
	}
	switch syntax {
	case dialects.SyntaxPostgreSQL:
		postgresMismatch(kind, toks, add)
	case dialects.SyntaxMySQL:
		tidbMismatch(kind, toks, add)
	}
	for i, n := range more {
		out[i].msg += fmt.Sprintf(" (and %d more in this statement)", n)
	}
	if f, ok := dataStatement(kind, toks); ok {
		out = append(out, f)
	}
	return out
}

// postgresMismatch finds MySQL/TiDB syntax in a PostgreSQL migration.
func postgresMismatch(kind string, toks []sqlToken, add func(string, int, string, ...any)) {
	ddl := isDDLKind(kind)
	tableDDL := kind == "CREATE TABLE" || kind == "ALTER TABLE"
	prev, next := tokenAround(toks)
	for i, t := range toks {
		switch w := t.upper(); {
		case t.kind == tokBQuote:
			add("bquote", t.off, "backquoted identifier %s is MySQL/TiDB syntax; PostgreSQL quotes identifiers with double quotes", t.text)
		case w == "AUTO_INCREMENT":
			add(w, t.off, "AUTO_INCREMENT is MySQL/TiDB syntax; PostgreSQL uses GENERATED BY DEFAULT AS IDENTITY")
		case tableDDL && w == "ENGINE" && (next(i).text == "=" || prev(i).text == ")"):
			add(w, t.off, "table option ENGINE is MySQL/TiDB syntax")
		case ddl && w == "CHARSET" && (next(i).text == "=" || prev(i).text == ")" || prev(i).upper() == "DEFAULT"):
			add(w, t.off, "CHARSET is MySQL/TiDB syntax; a PostgreSQL database has one encoding")
		case ddl && w == "UNSIGNED":
			add(w, t.off, "UNSIGNED is MySQL/TiDB syntax; PostgreSQL has no unsigned integers (use a CHECK)")
		case ddl && mysqlOnlyTypes[w] && typePosition(toks, i):
			add(w, t.off, "%s is a MySQL/TiDB type; PostgreSQL has no such type", w)
		case w == "ON" && i+2 < len(toks) && toks[i+1].upper() == "UPDATE" && strings.HasPrefix(toks[i+2].upper(), "CURRENT_TIMESTAMP"):
			add("onupdate", t.off, "ON UPDATE CURRENT_TIMESTAMP is MySQL/TiDB syntax; PostgreSQL needs a trigger")
		}
	}
}

var mysqlOnlyTypes = map[string]bool{
	"DATETIME": true, "TINYINT": true, "MEDIUMINT": true, "TINYTEXT": true, "MEDIUMTEXT": true,
	"LONGTEXT": true, "TINYBLOB": true, "MEDIUMBLOB": true, "LONGBLOB": true, "BLOB": true,
}

var postgresOnlyTypes = map[string]string{
	"TIMESTAMPTZ": "TiDB's DATETIME or TIMESTAMP",
	"TIMETZ":      "TiDB's TIME",
	"JSONB":       "TiDB's JSON",
	"BYTEA":       "TiDB's BLOB or VARBINARY",
	"BIGSERIAL":   "BIGINT AUTO_INCREMENT",
	"SMALLSERIAL": "SMALLINT AUTO_INCREMENT",
	"UUID":        "CHAR(36) or BINARY(16)",
}

// tokenAround returns accessors for the tokens before and after the i-th, which
// are empty tokens at the ends.
func tokenAround(toks []sqlToken) (prev, next func(int) sqlToken) {
	return func(i int) sqlToken {
			if i > 0 {
				return toks[i-1]
			}
			return sqlToken{}
		}, func(i int) sqlToken {
			if i+1 < len(toks) {
				return toks[i+1]
			}
			return sqlToken{}
		}
}

// typePosition reports whether the i-th token is where a column definition
// or a cast names a type: after the column's name, which follows "(", ",",
// ADD, MODIFY or COLUMN, or after TYPE or CAST's AS.
func typePosition(toks []sqlToken, i int) bool {
	if i == 0 {
		return false
	}
	switch toks[i-1].upper() {
	case "TYPE", "AS":
		return true
	}
	if i < 2 || toks[i-1].kind != tokWord && toks[i-1].kind != tokDQuote && toks[i-1].kind != tokBQuote {
		return false
	}
	switch b := toks[i-2]; {
	case b.text == "(" || b.text == ",":
		return true
	default:
		switch b.upper() {
		case "ADD", "MODIFY", "COLUMN", "EXISTS":
			return true
		}
	}
	return false
}

// tidbMismatch finds PostgreSQL syntax in a TiDB migration.
func tidbMismatch(kind string, toks []sqlToken, add func(string, int, string, ...any)) {
	ddl := isDDLKind(kind)
	index := kind == "CREATE INDEX"
	for i, t := range toks {
		prev, next := sqlToken{}, sqlToken{}
		if i > 0 {
			prev = toks[i-1]
		}
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		switch w := t.upper(); {
		case t.kind == tokDQuote:
			// "x" is a string in TiDB: PostgreSQL's quoting where an
			// identifier is expected.
			identPos := ddl || prev.text == "." || next.text == "." ||
				slices.Contains([]string{"INTO", "UPDATE", "FROM", "JOIN", "TABLE"}, prev.upper())
			if identPos {
				add("dquote", t.off, "double-quoted identifier %s is PostgreSQL syntax; TiDB reads it as a string (quote identifiers with backquotes)", t.text)
			}
		case t.kind == tokCast:
			add("cast", t.off, "the :: cast is PostgreSQL syntax; TiDB needs CAST(x AS type)")
		case t.kind == tokDollar:
			if prev.upper() == "DO" {
				add("dollar", prev.off, "DO blocks are PostgreSQL only; TiDB has no anonymous code blocks")
			} else {
				add("dollar", t.off, "dollar-quoted strings are PostgreSQL syntax")
			}
		case ddl && postgresOnlyTypes[w] != "" && typePosition(toks, i):
			add(w, t.off, "%s is a PostgreSQL type; TiDB has none (use %s)", w, postgresOnlyTypes[w])
		case w == "ILIKE":
			add(w, t.off, "ILIKE is PostgreSQL syntax; TiDB compares case-insensitively with LIKE under a _ci collation")
		case ddl && w == "IDENTITY" && prev.upper() == "AS":
			add(w, t.off, "identity columns are PostgreSQL syntax; TiDB uses AUTO_INCREMENT")
		case index && w == "WHERE" && t.depth == 0:
			add(w, t.off, "partial indexes (CREATE INDEX ... WHERE) are PostgreSQL only; TiDB indexes every row")
		}
	}
}

// dataStatement reports statements that change or read rows, which the
// analyzers cannot judge (SG104).
func dataStatement(kind string, toks []sqlToken) (lexFinding, bool) {
	first, _, _ := strings.Cut(kind, " ")
	target := func(after ...string) string {
		for i, t := range toks {
			if i > 0 && slices.Contains(after, t.upper()) && i+1 < len(toks) {
				n := toks[i+1]
				if n.kind == tokWord || n.kind == tokDQuote || n.kind == tokBQuote {
					if n.upper() == "TABLE" && i+2 < len(toks) {
						n = toks[i+2]
					}
					return " on " + n.text
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
		what = "UPDATE" + target("UPDATE")
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
		return lexFinding{}, false
	}
	return lexFinding{code: "SG104", off: toks[0].off,
		msg: fmt.Sprintf("data change to review: %s (the analyzers read schema changes only)", what)}, true
}

// checkTokens returns the CHECK keywords of a CREATE TABLE or ALTER TABLE
// statement (SG101).
func checkTokens(toks []sqlToken) []sqlToken {
	switch stmtKind(toks) {
	case "CREATE TABLE", "ALTER TABLE":
	default:
		return nil
	}
	var out []sqlToken
	for _, t := range toks {
		if t.upper() == "CHECK" {
			out = append(out, t)
		}
	}
	return out
}
