package histories

import (
	"reflect"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// Fill is an UPDATE of a history: its text, as its family's client sends
// it without the delimiter, and what it sets (as the family's statement rules read it).
type Fill struct {
	Stmt string
	dialects.Fill
}

// ReadFills reads the UPDATEs of the files of script family f of vs, in
// order, as rules (the family's statement rules) read them. A history adds
// a NOT NULL column in three steps (added nullable, filled by an UPDATE,
// then SET NOT NULL), which import, reading a database, sees as one: the
// fills are what a team writes as the data migration between the two
// diffs (TwoSteps, Backfill). A table is named as at the statement.
func ReadFills(vs []Version, f string, rules dialects.StmtRules) ([]Fill, error) {
	var out []Fill
	for _, v := range vs {
		stmts, err := v.Statements(f)
		if err != nil {
			return nil, err
		}
		for _, s := range stmts {
			if fl := rules.LintStmt(s).Fill; fl != nil && len(fl.Columns) > 0 {
				out = append(out, Fill{Stmt: strings.TrimSuffix(strings.TrimSpace(s), ";"), Fill: *fl})
			}
		}
	}
	return out, nil
}

// TwoSteps are the columns of next, by table, that a team adopting
// schemagen makes in two migrate diffs, as the history made them: NOT NULL
// in next with nothing to fill the rows a table holds (no default, not
// generated, no identity), on a table prev has (by its name or
// renamed_from) that lacks the column, or holds it nullable and an UPDATE
// of fills (the history's since prev) sets it. migrate diff
// refuses such a column added at once (it may not invent values for the
// rows, and says to write two steps): the first diff adds it nullable
// (Nullable), a data migration fills it (Backfill: the history's UPDATEs
// of it), the second diff makes it NOT NULL. Where the history fills it in
// no SQL (Kratos's identity_id of 2025, filled by its Go code), nothing
// fills it: rows left NULL stop the second diff's file, as they would a
// team's. prev nil (no directory yet) has no table with rows.
func TwoSteps(prev, next *compiler.Schema, fills []Fill) map[string][]string {
	if prev == nil {
		return nil
	}
	out := map[string][]string{}
	for _, t := range next.Tables {
		pt := prev.Table(t.Name)
		if t.RenamedFrom != "" && prev.Table(t.RenamedFrom) != nil {
			pt = prev.Table(t.RenamedFrom)
		}
		if pt == nil {
			continue
		}
		for _, c := range t.Columns {
			if !notNull(c) || filledBy(c) {
				continue
			}
			pc := pt.Column(c.Name)
			if c.RenamedFrom != "" && pt.Column(c.RenamedFrom) != nil {
				pc = pt.Column(c.RenamedFrom)
			}
			// A column nullable before needs the data migration alone
			// (its SET NOT NULL is planned): two diffs when one fills it.
			if pc != nil && (!mayBeNull(pc) || !slices.ContainsFunc(fills, func(f Fill) bool {
				return f.Table == t.Name && slices.Contains(f.Columns, c.Name)
			})) {
				continue
			}
			out[t.Name] = append(out[t.Name], c.Name)
		}
	}
	return out
}

// notNull reports whether c takes no NULL in some dialect.
func notNull(c *compiler.Column) bool {
	if !c.Null {
		return true
	}
	for _, o := range c.Overrides {
		if o.Null != nil && !*o.Null {
			return true
		}
	}
	return false
}

// mayBeNull reports whether c takes NULL in some dialect.
func mayBeNull(c *compiler.Column) bool {
	if c.Null {
		return true
	}
	for _, o := range c.Overrides {
		if o.Null != nil && *o.Null {
			return true
		}
	}
	return false
}

// filledBy reports whether the database gives c's existing rows a value
// by itself: a default (of the model or a dialect), an expression, an
// identity.
func filledBy(c *compiler.Column) bool {
	if c.Default != nil || c.Generated != nil || c.Identity != nil {
		return true
	}
	for _, o := range c.Overrides {
		if o.Default != "" {
			return true
		}
	}
	return false
}

// Backfill is the data migration between the two diffs of cols (TwoSteps):
// the statements of fills that set one of them, in order.
func Backfill(fills []Fill, cols map[string][]string) []string {
	var out []string
	for _, f := range fills {
		if slices.ContainsFunc(f.Columns, func(c string) bool { return slices.Contains(cols[f.Table], c) }) {
			out = append(out, f.Stmt)
		}
	}
	return out
}

// Nullable is s with the columns cols null in every dialect: the model of
// the first of the two diffs. s is left as it is.
func Nullable(s *compiler.Schema, cols map[string][]string) *compiler.Schema {
	out := *s
	out.Tables = slices.Clone(s.Tables)
	for i, t := range out.Tables {
		if len(cols[t.Name]) == 0 {
			continue
		}
		nt := *t
		nt.Columns = slices.Clone(t.Columns)
		for j, c := range nt.Columns {
			if !slices.Contains(cols[t.Name], c.Name) {
				continue
			}
			nc := *c
			nc.Null = true
			nc.Overrides = compiler.Overrides{}
			for d, o := range c.Overrides {
				no := *o
				no.Null = nil
				// An override of the column's null alone goes with it.
				if !reflect.DeepEqual(no, compiler.Override{Dialect: o.Dialect, Range: o.Range}) {
					nc.Overrides[d] = &no
				}
			}
			nt.Columns[j] = &nc
		}
		out.Tables[i] = &nt
	}
	out.Reindex()
	return &out
}
