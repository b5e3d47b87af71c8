package lint

import (
	"slices"

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
