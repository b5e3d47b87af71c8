package tidb

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	_ "ariga.io/atlas/sql/mysql/mysqlcheck" // registers Atlas's analyzers for MySQL/TiDB
	"ariga.io/atlas/sql/schema"
	gomysql "github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/compiler/expr/parse"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/stmtlex"
	"github.com/schemagen/schemagen/dialects/tidb/internal/online"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

// AtlasLint implements dialects.Lint: Atlas's MySQL driver and analyzers.
func (Dialect) AtlasLint(conn schema.ExecQuerier) (string, migrate.Driver, error) {
	drv, err := mysql.Open(conn)
	return mysql.DriverName, drv, err
}

// LintStmt implements dialects.Lint: TiDB's files are lexed with MySQL's #
// comments and backslash escapes; PostgreSQL syntax in them is SG103, and so
// is a statement TiDB's parser rejects (see syntaxFinding).
func (d Dialect) LintStmt(text string) dialects.StmtLint {
	l := stmtlex.Read(text, stmtGrammar, foreignSyntax, nil)
	if !slices.ContainsFunc(l.Findings, func(f dialects.StmtFinding) bool { return f.Code == "SG103" }) {
		if f, ok := d.syntaxFinding(text); ok {
			l.Findings = append(l.Findings, f)
		}
	}
	toks := stmtlex.Tokenize(text, stmtGrammar)
	l.Findings = append(append(l.Findings, online.LooseChecks(toks)...), online.TruncatedParts(toks)...)
	return l
}

// stmtGrammar is the lexical grammar of a TiDB migration's statements, with
// PostgreSQL's "identifiers", $$ strings and :: casts read as tokens, to be
// reported ("x" reads backslash escapes, as TiDB reads it).
var stmtGrammar = &parse.Grammar{IdentQuote: '`', OtherQuote: '"', HashComments: true, BackslashStrings: true, DollarStrings: true, Operators: []string{"::"}}

// foreignSyntax finds PostgreSQL syntax in a TiDB migration.
func foreignSyntax(kind string, toks []stmtlex.Token, add func(string, int, string, ...any)) {
	ddl := stmtlex.IsDDL(kind)
	index := kind == "CREATE INDEX"
	prev, next := stmtlex.Around(toks)
	for i, t := range toks {
		switch w := t.Upper(); {
		case t.Kind == stmtlex.DQuote:
			// "x" is a string in TiDB: PostgreSQL's quoting where an
			// identifier is expected.
			// A string where TiDB's grammar wants one (Atlas writes
			// comments as COMMENT "...") is not an identifier.
			p := prev(i)
			stringPos := p.Upper() == "COMMENT" || p.Upper() == "DEFAULT" ||
				p.Text == "=" && prev(i-1).Upper() == "COMMENT"
			identPos := !stringPos && (ddl || p.Text == "." || next(i).Text == "." ||
				slices.Contains([]string{"INTO", "UPDATE", "FROM", "JOIN", "TABLE"}, p.Upper()))
			if identPos {
				add("dquote", t.Off, "double-quoted identifier %s is PostgreSQL syntax; TiDB reads it as a string (quote identifiers with backquotes)", t.Text)
			}
		case t.Kind == stmtlex.Cast:
			add("cast", t.Off, "the :: cast is PostgreSQL syntax; TiDB needs CAST(x AS type)")
		case t.Kind == stmtlex.Dollar:
			if prev(i).Upper() == "DO" {
				add("dollar", prev(i).Off, "DO blocks are PostgreSQL only; TiDB has no anonymous code blocks")
			} else {
				add("dollar", t.Off, "dollar-quoted strings are PostgreSQL syntax")
			}
		case ddl && postgresOnlyTypes[w] != "" && stmtlex.TypePosition(toks, i):
			add(w, t.Off, "%s is a PostgreSQL type; TiDB has none (use %s)", w, postgresOnlyTypes[w])
		case w == "ILIKE":
			add(w, t.Off, "ILIKE is PostgreSQL syntax; TiDB compares case-insensitively with LIKE under a _ci collation")
		case ddl && w == "IDENTITY" && prev(i).Upper() == "AS":
			add(w, t.Off, "identity columns are PostgreSQL syntax; TiDB uses AUTO_INCREMENT")
		case index && w == "WHERE" && t.Depth == 0:
			add(w, t.Off, "partial indexes (CREATE INDEX ... WHERE) are PostgreSQL only; TiDB indexes every row")
		}
	}
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

// OneSchema implements dialects.Lint: a connection sees its database.
func (Dialect) OneSchema() bool { return true }

// ReadError implements dialects.Lint: errors 1064 and 1149 are syntax
// errors, located by line, column and the text near.
func (Dialect) ReadError(err error) (dialects.StmtError, bool) {
	var me *gomysql.MySQLError
	if !errors.As(err, &me) {
		return dialects.StmtError{}, false
	}
	e := dialects.StmtError{Syntax: me.Number == 1064 || me.Number == 1149, Msg: me.Message}
	if !e.Syntax {
		return e, true
	}
	e.Msg = "syntax error"
	if m := readback.SyntaxNear.FindStringSubmatch(me.Message); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Col, _ = strconv.Atoi(m[2])
		e.Near = m[3]
	}
	return e, true
}

// LintCodes implements dialects.Lint.
func (Dialect) LintCodes() []dialects.LintCode {
	return []dialects.LintCode{
		{Code: "MY101", Source: "atlas", Analyzer: "data_depend (MySQL)",
			Title: "Adding a non-nullable column without a default fills existing rows implicitly (TiDB)",
			Help:  "TiDB writes the type's zero value (0, '', ...) into existing rows. Give the column an explicit DEFAULT or backfill it (see also SG102)."},
		{Code: "MY102", Source: "atlas", Analyzer: "inline_refs (MySQL)",
			Title: "Inline REFERENCES on a column is ignored (TiDB)",
			Help:  "Declare the foreign key as a table constraint. schemagen cannot report this one: Atlas finds it with the SQL parser of its CLI, which its library does not include."},
		{Code: "SG107", Source: "schemagen", Analyzer: "portability", Error: true,
			Title: "CHECK whose existing rows TiDB checks wrongly (OR or AND at its top)",
			Help:  "TiDB checks the rows of a table it adds a CHECK to with WHERE NOT <expr>, unparenthesised (pingcap/tidb#71050): with OR at the top it refuses rows that satisfy the CHECK (3819), with AND it accepts rows that break it. Write the expression in one more pair of parentheses, CHECK ((a OR b)), as migrate diff does."},
		{Code: "SG101", Source: "schemagen", Analyzer: "portability", Error: true,
			Title: "CHECK constraint silently ignored: tidb_enable_check_constraint is OFF",
			Help:  "TiDB accepts the CHECK but neither stores nor enforces it. Run SET GLOBAL tidb_enable_check_constraint = ON on that TiDB before applying."},
	}
}

// ChecksSetting implements dialects.Lint: with tidb_enable_check_constraint
// OFF, TiDB drops CHECKs silently.
func (Dialect) ChecksSetting() string { return "tidb_enable_check_constraint" }

// FillsColumn implements dialects.Lint: AUTO_INCREMENT columns.
func (Dialect) FillsColumn(a schema.Attr) bool {
	_, ok := a.(*mysql.AutoIncrement)
	return ok
}

// parseStmt parses one statement with TiDB's parser, the one the server runs
// (LintStmt reports what it rejects). A statement it rejects gets the line,
// column and text near the error that the server's error 1064 gives (see
// readback.ReadError), and the character position where the error starts (Rune).
func (Dialect) parseStmt(text string) (dialects.StmtError, bool) {
	_, err := readback.Parse(text, readback.DefaultMode)
	if err == nil {
		return dialects.StmtError{}, false
	}
	if re, ok := err.(*readback.ReadError); ok {
		// Not the server's syntax error: the parser here failed.
		return dialects.StmtError{Msg: re.Msg}, true
	}
	e := dialects.StmtError{Syntax: true, Msg: "syntax error"}
	m := readback.SyntaxNear.FindStringSubmatch(err.Error())
	if m == nil {
		e.Msg = err.Error()
		return e, true
	}
	e.Line, _ = strconv.Atoi(m[1])
	e.Col, _ = strconv.Atoi(m[2])
	e.Near = m[3]
	// The parser quotes the text from the error's start to the statement's
	// end, cut at 2048 bytes and then followed by its length.
	rest := len(e.Near)
	if m[4] != "" {
		rest, _ = strconv.Atoi(m[4])
	}
	if off := len(text) - rest; off >= 0 && off <= len(text) && strings.HasPrefix(text[off:], e.Near) {
		e.Rune = utf8.RuneCountInString(text[:off]) + 1
	}
	return e, true
}

// syntaxFinding is SG103 for a statement TiDB's parser rejects, at the
// position the server's syntax error would give, found without the dev
// database: also in the statements after one that failed there, which lint
// then checks only by their text. A statement that a lexical SG103 already
// explains does not get it (see LintStmt).
func (d Dialect) syntaxFinding(text string) (dialects.StmtFinding, bool) {
	e, bad := d.parseStmt(text)
	if !bad || !e.Syntax {
		return dialects.StmtFinding{}, false
	}
	off := 0
	if e.Rune > 0 {
		off = len(string([]rune(text)[:e.Rune-1]))
	}
	near := strings.TrimSuffix(strings.TrimSpace(e.Near), ";")
	if i := strings.IndexByte(near, '\n'); i >= 0 {
		near = near[:i]
	}
	msg := fmt.Sprintf("TiDB's parser rejects this statement: %s near %q; is it written for another dialect?", e.Msg, near)
	if near == "" {
		msg = fmt.Sprintf("TiDB's parser rejects this statement: %s at its end; is it written for another dialect?", e.Msg)
	}
	return dialects.StmtFinding{Code: "SG103", Off: off, Msg: msg}, true
}
