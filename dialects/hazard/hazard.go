// Package hazard is the typed model of what a migration statement does to a
// table that already holds rows: the lock it takes and what that lock
// blocks, whether it scans or rewrites the table, whether it can fail on
// existing data and whether it loses data. Dialects compute hazards from
// Atlas's planned changes (see dialects.Online); this package only holds the
// types and renders them, and names no dialect.
package hazard

import (
	"fmt"
	"sort"
	"strings"

	"ariga.io/atlas/sql/schema"
)

// Blocks is what other sessions cannot do on the table while a lock is held.
type Blocks int

// What a lock blocks, from least to most.
const (
	BlocksNothing Blocks = iota // DDL of other sessions only
	BlocksWrites                // INSERT, UPDATE, DELETE wait; reads go on
	BlocksAll                   // reads wait too
)

func (b Blocks) String() string {
	return [...]string{"blocks no reads or writes", "blocks writes", "blocks reads and writes"}[b]
}

// Duration is how long a lock is held.
type Duration int

// Lock durations.
const (
	Brief     Duration = iota // a catalog update: milliseconds, once granted
	WholeScan                 // for as long as the table is scanned or rewritten
)

// Hazard is one hazard of one statement.
type Hazard struct {
	// Code identifies the hazard (docs/lint.md documents every code).
	Code string
	// Table is the table affected.
	Table string
	// Lock is the lock the statement takes on Table, in the database's own
	// terms ("ACCESS EXCLUSIVE"), empty when it takes none that matters.
	Lock   string
	Blocks Blocks
	// Held is how long the lock is held.
	Held Duration
	// Scan: the statement reads every row; Rewrite: it writes every row.
	Scan, Rewrite bool
	// CanFail: existing rows can make the statement fail (duplicates, NULLs,
	// rows breaking a CHECK or a foreign key, values that do not fit).
	CanFail bool
	// LosesData: values or rows are lost.
	LosesData bool
	// Text says it in a sentence.
	Text string
}

// Severe tells that the hazard stalls writes for as long as the table takes
// to scan, or loses data.
func (h Hazard) Severe() bool {
	return h.LosesData || (h.Blocks >= BlocksWrites && h.Held == WholeScan)
}

// Summary is the hazard on one line, as written above a statement.
func (h Hazard) Summary() string {
	var parts []string
	if h.Lock != "" {
		held := "briefly"
		if h.Held == WholeScan {
			held = "for the whole scan"
		}
		parts = append(parts, fmt.Sprintf("%s lock %s (%s)", h.Lock, held, h.Blocks))
	}
	switch {
	case h.Rewrite:
		parts = append(parts, "rewrites the table")
	case h.Scan:
		parts = append(parts, "scans the table")
	}
	if h.CanFail {
		parts = append(parts, "can fail on existing rows")
	}
	if h.LosesData {
		parts = append(parts, "loses data")
	}
	s := h.Code
	if h.Table != "" {
		s += " " + h.Table
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if h.Text != "" {
		s += "; " + h.Text
	}
	return s
}

// Code describes a hazard code for lint rules and documentation.
type Code struct {
	Code    string
	Dialect string
	Title   string
	Help    string
	// Severe codes are lint errors, the others warnings.
	Severe bool
	// Example is a statement that has the hazard.
	Example string
	// CoveredBy names the lint codes that already report the hazard: lint
	// does not report it again, the migration file's comments do.
	CoveredBy string
}

// Stmt is one planned statement with its hazards.
type Stmt struct {
	Cmd     string
	Comment string
	Hazards []Hazard
	// NoTx: the statement cannot run in a transaction (it must go to a file
	// marked `-- atlas:txmode none`).
	NoTx bool
	// Later: an online plan runs it after the statements that take strong
	// locks, outside their transaction (VALIDATE CONSTRAINT).
	Later bool
	// Precheck is a query whose rows are existing rows the statement would
	// fail on, written above it so that an apply reports them before
	// running anything; several are separated by line breaks.
	Precheck string
	// Nolint is what lint need not report about the statement, as codes
	// and a reason ("DS103 the model drops column x"): a loss the model
	// asks for, which the reviewer of the file sees above the statement.
	Nolint string
}

// NolintDirective is the comment prefix (without "-- ") by which a
// statement's reviewed lint codes are suppressed (internal/lint).
const NolintDirective = "schemagen:nolint "

// DropNolint is Stmt.Nolint of a statement dropping a table or column the
// model no longer has: Atlas's destructive analyzer reports it (DS102,
// DS103), and the model asked for it.
func DropNolint(table, column string) string {
	if column == "" {
		return fmt.Sprintf("DS102 the model drops table %s (planned by migrate diff: its rows are lost)", table)
	}
	return fmt.Sprintf("DS103 the model drops column %s.%s (planned by migrate diff: its values are lost)", table, column)
}

// PartNolint is Stmt.Nolint of a statement dropping a part of a
// partitioned table that the model no longer has, where the part is a
// table (PostgreSQL's DROP TABLE, which lint reports as DS102).
func PartNolint(table, part string) string {
	return fmt.Sprintf("DS102 the model drops part %s of table %s (planned by migrate diff: its rows are lost)", part, table)
}

// PrecheckDirective is the comment prefix of a pre-check query in a
// migration file.
const PrecheckDirective = "-- schemagen:precheck "

// FileComment is what the migration file says above the statement: the
// statement's own comment, then one line per hazard.
func (s Stmt) FileComment() string {
	lines := []string{}
	if s.Comment != "" {
		lines = append(lines, s.Comment)
	}
	for _, h := range s.Hazards {
		lines = append(lines, "hazard "+h.Summary())
	}
	if s.Nolint != "" {
		lines = append(lines, NolintDirective+s.Nolint)
	}
	// One directive line per query (a statement may carry those of later
	// ones, so that a file stops before its first statement).
	for q := range strings.SplitSeq(s.Precheck, "\n") {
		if q != "" {
			lines = append(lines, strings.TrimPrefix(PrecheckDirective, "-- ")+q)
		}
	}
	return strings.Join(lines, "\n-- ")
}

// Codes returns the codes of hazards, sorted and without repeats.
func Codes(hs []Hazard) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hs {
		if !seen[h.Code] {
			seen[h.Code] = true
			out = append(out, h.Code)
		}
	}
	sort.Strings(out)
	return out
}

// DecimalChange describes a change of a decimal column's precision or
// scale, as both databases make it: a smaller scale rounds every value
// silently (20.05 becomes 20.1 at scale 1), and values whose integer part,
// once rounded, needs more digits than the new type keeps make the change
// fail.
type DecimalChange struct {
	// Rounds: the scale shrinks.
	Rounds bool
	// CanFail: some values may not fit (fewer integer digits, or as many
	// with a rounding that may carry).
	CanFail bool
	// Scale and IntDigits are the new type's.
	Scale, IntDigits int
}

// DecimalNarrowing compares two column types; ok is false unless both are
// decimals and the new one keeps fewer digits.
func DecimalNarrowing(from, to schema.Type) (DecimalChange, bool) {
	f, ok1 := from.(*schema.DecimalType)
	t, ok2 := to.(*schema.DecimalType)
	if !ok1 || !ok2 {
		return DecimalChange{}, false
	}
	fi, ti := f.Precision-f.Scale, t.Precision-t.Scale
	c := DecimalChange{Rounds: t.Scale < f.Scale, Scale: t.Scale, IntDigits: ti}
	c.CanFail = ti < fi || ti == fi && c.Rounds
	return c, c.Rounds || c.CanFail
}

// Text says what the change does to column col's values.
func (c DecimalChange) Text(col string) string {
	var parts []string
	if c.Rounds {
		ex := map[int]string{0: "20.5 becomes 21", 1: "20.05 becomes 20.1", 2: "20.005 becomes 20.01"}[c.Scale]
		if ex == "" {
			ex = "values are rounded half away from zero"
		}
		places := "decimal places"
		if c.Scale == 1 {
			places = "decimal place"
		}
		parts = append(parts, fmt.Sprintf("the values of column %s are rounded to %d %s, silently (%s)", col, c.Scale, places, ex))
	}
	if c.CanFail {
		parts = append(parts, fmt.Sprintf("a value of %s needing more than %d digits before the point, once rounded, makes it fail", col, c.IntDigits))
	}
	return strings.Join(parts, "; ")
}

// Form is how a statement does what its changes say: what the planner chose
// when it wrote the statement, or what lint read in a migration file's
// statement. A dialect maps a change and its form to hazards with one
// function, for both.
type Form struct {
	// Table is the table the statement names (ALTER TABLE t).
	Table string
	// AlterTable: the statement is an ALTER TABLE of Table.
	AlterTable bool
	// Concurrently: the index is built or dropped without blocking writes.
	Concurrently bool
	// NotValid: the constraint is added without checking existing rows.
	NotValid bool
	// Validate: the statement validates a constraint added NOT VALID.
	Validate bool
	// UsingIndex: the constraint is made from an existing index.
	UsingIndex bool
	// NotNullProven: a valid CHECK proves the column a SET NOT NULL makes
	// NOT NULL holds no NULL, so the database need not scan.
	NotNullProven bool
	// LockTimeout: an earlier statement of the session set a lock timeout.
	LockTimeout bool
	// RenamesIndex: the statement renames an index (what a replay reads as
	// a drop and an add), building nothing.
	RenamesIndex bool
	// Only: the statement names a table with ONLY (PostgreSQL's CREATE
	// INDEX ... ON ONLY, ALTER TABLE ONLY): a partitioned table's own
	// catalog, not its parts.
	Only bool
}
