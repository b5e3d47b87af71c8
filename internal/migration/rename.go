package migration

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// renameChanges makes in current, the state a directory produces, the
// renames the model asks for (renamed_from) whose old name current still
// has and whose new name it has not, and returns them as Atlas's changes:
// planned before the diff of current against the desired state, they keep
// the rows a drop and an add would lose. A rename current has already made
// (its old name is gone) is left alone, so the attribute may stay in the
// model.
//
// The CHECKs, expression index parts and generated columns whose text names
// a renamed column are dropped first and left to the diff to add again:
// TiDB refuses to rename a column they use (errors 3959, 3837, 3108), and on
// PostgreSQL their text then says what the model says.
//
// A column rename whose old and new names current both has, into a table
// of desired that no longer has the old name, is refused with an
// *AmbiguousRenameError: the model may mean the rename (the column under
// the new name dropped, the old one taking its name and rows) or a rename
// made long ago and a later column of the old name dropped, and the two
// keep different rows.
func renameChanges(current, desired *schema.Schema, renames []dialects.Rename, fold bool) ([]schema.Change, error) {
	same := func(a, b string) bool { return a == b || fold && strings.EqualFold(a, b) }
	has := func(s *schema.Schema, table, column string) bool {
		i := slices.IndexFunc(s.Tables, func(t *schema.Table) bool { return same(t.Name, table) })
		return i >= 0 && slices.ContainsFunc(s.Tables[i].Columns, func(c *schema.Column) bool { return same(c.Name, column) })
	}
	table := func(name string) *schema.Table {
		i := slices.IndexFunc(current.Tables, func(t *schema.Table) bool { return same(t.Name, name) })
		if i < 0 {
			return nil
		}
		return current.Tables[i]
	}
	var tables []schema.Change
	mods := map[*schema.Table]*schema.ModifyTable{}
	var order []*schema.Table
	modify := func(t *schema.Table) *schema.ModifyTable {
		if mods[t] == nil {
			mods[t] = &schema.ModifyTable{T: t}
			order = append(order, t)
		}
		return mods[t]
	}
	for _, r := range renames {
		switch {
		case r.FromTable != "":
			t := table(r.FromTable)
			if t == nil || table(r.ToTable) != nil {
				continue
			}
			old := *t
			t.Name = r.ToTable
			tables = append(tables, &schema.RenameTable{From: &old, To: t})
		case r.FromColumn != "":
			t := table(r.ToTable)
			if t == nil {
				continue
			}
			i := slices.IndexFunc(t.Columns, func(c *schema.Column) bool { return same(c.Name, r.FromColumn) })
			if i < 0 {
				continue
			}
			if slices.ContainsFunc(t.Columns, func(c *schema.Column) bool { return same(c.Name, r.ToColumn) }) {
				if desired != nil && !has(desired, r.ToTable, r.FromColumn) {
					return nil, &AmbiguousRenameError{Table: r.ToTable, Column: r.ToColumn, From: r.FromColumn}
				}
				continue
			}
			m := modify(t)
			m.Changes = append(m.Changes, dropDependents(t, r.FromColumn, fold)...)
			c := t.Columns[slices.IndexFunc(t.Columns, func(c *schema.Column) bool { return same(c.Name, r.FromColumn) })]
			old := *c
			c.Name = r.ToColumn
			m.Changes = append(m.Changes, &schema.RenameColumn{From: &old, To: c})
		}
	}
	out := tables
	for _, t := range order {
		out = append(out, mods[t])
	}
	return out, nil
}

// AmbiguousRenameError is a column rename (renamed_from) that migrate diff
// cannot tell from a drop: the database has the column under both names,
// and the model keeps only the new one.
type AmbiguousRenameError struct {
	Table, Column, From string
}

func (e *AmbiguousRenameError) Error() string {
	return fmt.Sprintf("cannot plan column %q of table %q (renamed_from = %q): the database has both %q and %q, so the model may mean that %q is dropped and %q takes its name and rows, or that %q was renamed long ago and the later %q is dropped; the two keep different rows. "+
		"To rename: first drop %q (the model without it, migrate diff), then rename in the next migration. If the rename was made long ago: remove renamed_from = %q",
		e.Column, e.Table, e.From, e.From, e.Column, e.Column, e.From, e.Column, e.From, e.Column, e.From)
}

// dropDependents removes from t the CHECKs, expression indexes and
// generated columns whose text names column col, and returns their drops.
func dropDependents(t *schema.Table, col string, fold bool) []schema.Change {
	flags := ""
	if fold {
		flags = "(?i)"
	}
	names := regexp.MustCompile(flags + "(^|[^A-Za-z0-9_$])[`\"]?" + regexp.QuoteMeta(col) + "[`\"]?($|[^A-Za-z0-9_$])")
	var drops []schema.Change
	t.Attrs = slices.DeleteFunc(t.Attrs, func(a schema.Attr) bool {
		c, ok := a.(*schema.Check)
		if ok && names.MatchString(c.Expr) {
			drops = append(drops, &schema.DropCheck{C: c})
			return true
		}
		return false
	})
	t.Indexes = slices.DeleteFunc(t.Indexes, func(idx *schema.Index) bool {
		for _, p := range idx.Parts {
			if x, ok := p.X.(*schema.RawExpr); ok && names.MatchString(x.X) {
				drops = append(drops, &schema.DropIndex{I: idx})
				return true
			}
		}
		return false
	})
	var gone []*schema.Column
	t.Columns = slices.DeleteFunc(t.Columns, func(c *schema.Column) bool {
		for _, a := range c.Attrs {
			if g, ok := a.(*schema.GeneratedExpr); ok && names.MatchString(g.Expr) {
				drops = append(drops, &schema.DropColumn{C: c})
				gone = append(gone, c)
				return true
			}
		}
		return false
	})
	// An index over a generated column dropped goes with it.
	t.Indexes = slices.DeleteFunc(t.Indexes, func(idx *schema.Index) bool {
		for _, p := range idx.Parts {
			if p.C != nil && slices.Contains(gone, p.C) {
				drops = append(drops, &schema.DropIndex{I: idx})
				return true
			}
		}
		return false
	})
	return drops
}

// withRenames puts the renames before changes, the diff planned after them:
// a table's column renames go first in the diff's change of that table, as
// planners take one change a table.
func withRenames(renames, changes []schema.Change) []schema.Change {
	var out []schema.Change
	for _, r := range renames {
		m, ok := r.(*schema.ModifyTable)
		if !ok {
			out = append(out, r)
			continue
		}
		i := slices.IndexFunc(changes, func(c schema.Change) bool {
			dm, ok := c.(*schema.ModifyTable)
			return ok && dm.T.Name == m.T.Name
		})
		if i < 0 {
			out = append(out, m)
			continue
		}
		dm := changes[i].(*schema.ModifyTable)
		dm.Changes = append(slices.Clip(m.Changes), dm.Changes...)
	}
	return append(out, changes...)
}
