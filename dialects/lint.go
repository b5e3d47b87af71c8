package dialects

import (
	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
)

// Lint is what `migrate lint` asks a dialect about its migration files.
type Lint interface {
	Named
	// AtlasLint returns Atlas's own driver on conn and its name, for which
	// Atlas registers the analyzers that check this dialect's migrations
	// (sqlcheck.AnalyzerFor); the dialect's package imports them.
	AtlasLint(conn schema.ExecQuerier) (name string, drv migrate.Driver, err error)
	StmtRules
	// OneSchema reports whether a connection sees one schema, the
	// connected database, rather than a realm of schemas.
	OneSchema() bool
	// ReadError reads a database's error on one statement.
	ReadError(err error) (StmtError, bool)
	// LintCodes are the lint codes only this dialect's migrations get.
	LintCodes() []LintCode
	// ChecksSetting is the server setting under which the server accepts
	// CHECK constraints without keeping them (ServerWarnings then says so),
	// or "": lint asks the env's server (SG101).
	ChecksSetting() string
	// FillsColumn reports whether a column attribute makes the database
	// fill the column by itself (an identity, AUTO_INCREMENT), so that it
	// needs no default.
	FillsColumn(a schema.Attr) bool
}

// StmtRules are the lint rules a dialect applies to the text of each
// statement of its migration files, as Atlas registers analyzers per driver:
// lint reads statements only through them.
type StmtRules interface {
	// LintStmt reads one statement of a migration file, lexed as the
	// dialect's files are written.
	LintStmt(text string) StmtLint
}

// StmtLint is what a dialect reads in the text of one statement.
type StmtLint struct {
	// Findings: another dialect's syntax (SG103) and data statements to
	// review (SG104).
	Findings []StmtFinding
	// Checks are the byte offsets of the CHECK constraints a CREATE TABLE
	// or ALTER TABLE declares (SG101, for servers that may ignore them).
	Checks []int
	// Renames are what the statement renames, clause by clause, so that
	// lint reports a rename rather than the drop and add a diff sees.
	Renames []Rename
	// Fill is what an UPDATE statement sets (nil for any other
	// statement): a history's backfill of a column, read as renames are.
	Fill *Fill
}

// Fill is what an UPDATE statement sets: the columns its SET assigns, of
// Table (a name's last part, read as the dialect reads names).
type Fill struct {
	Table   string
	Columns []string
}

// StmtFinding is a lint finding at byte offset Off of a statement.
type StmtFinding struct {
	Code string
	Off  int
	Msg  string
}

// Rename is what a statement renames: a table (FromTable to ToTable), or a
// column of table ToTable (FromColumn to ToColumn; the table by its name at
// the statement, or in a model's Exprs.Renames by its new name).
type Rename struct {
	FromTable, ToTable   string
	FromColumn, ToColumn string
}

// StmtError is what a dialect reads from a database's error on a statement.
type StmtError struct {
	// Syntax: the statement does not parse.
	Syntax bool
	Msg    string
	// Rune is the 1-based character position of the error in the
	// statement (0: unknown).
	Rune int
	// Line (1-based) and Col locate the error, near the text Near, when
	// Line > 0.
	Line, Col int
	Near      string
}

// LintCode is a lint code of one dialect.
type LintCode struct {
	Code string
	// Source is "atlas" (an analyzer of Atlas's driver) or "schemagen";
	// Analyzer names it.
	Source, Analyzer string
	Error            bool
	Title, Help      string
}
