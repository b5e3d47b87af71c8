package evolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// The edits of this file are what hand-written histories of other teams do
// (../shared/corpora/histories, issue 29), as the model sees their result:
// Authelia rebuilds a table through a renamed backup table and a copy,
// Kratos moves foreign keys to new columns under the same constraint
// name, replaces columns by new ones of another type and renames tables
// with their keys. A serial column whose sequence has another name is not
// here: the model has no sequence names (an identity's sequence is the
// database's), so it cannot say it.

// rebuildTable makes at once what a rebuild through a backup table and a
// copy leaves: a column of another type, a new column, and every index,
// unique constraint and CHECK of the table under a new name.
func rebuildTable(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	cols := nonKey(t)
	if len(cols) == 0 {
		return nil
	}
	c := cols[g.N(len(cols))]
	to, ok := widen(c.Type)
	if !ok {
		to = g.Type(false)
	}
	added := &difftest.Col{Name: freeName(m, "b"), Type: g.Type(false), Null: true}
	renames := map[string]string{}
	used := m.Clone()
	for _, n := range t.ObjectNames() {
		nn := freeName(used, t.Name+"_b")
		renames[n] = nn
		used.Tables[0].Checks = append(used.Tables[0].Checks, difftest.Check{Name: nn})
	}
	name, col := t.Name, c.Name
	what := fmt.Sprintf("rebuild table %s: %s to %s, add column %s, %d names changed", name, col, to, added.Name, len(renames))
	return onTable(what, name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(col)
		if c == nil || t.Col(added.Name) != nil {
			return false
		}
		c.Type, c.Override, c.Default = to, "", ""
		t.Cols = append(t.Cols, cloneCol(added))
		t.RenameObjects(renames)
		return true
	})
}

// moveForeignKey moves a foreign key to new columns under the same name:
// the new columns are added beside the old ones, the key (and an index
// over exactly its columns, under its name) points from them, and the old
// columns are dropped.
func moveForeignKey(g *draw.Gen, m *difftest.Model) *Edit {
	t, fkName := pickFK(g, m)
	if t == nil {
		return nil
	}
	i := slices.IndexFunc(t.FKs, func(fk difftest.FK) bool { return fk.Name == fkName })
	old := slices.Clone(t.FKs[i].Cols)
	for _, c := range old {
		if slices.Contains(t.PK, c) {
			return nil
		}
	}
	used := m.Clone()
	var moved []string
	for range old {
		n := freeName(used, "mv")
		moved = append(moved, n)
		used.Tables[0].Checks = append(used.Tables[0].Checks, difftest.Check{Name: n})
	}
	what := fmt.Sprintf("move foreign key %s.%s from %s to new columns %s", t.Name, fkName, strings.Join(old, ", "), strings.Join(moved, ", "))
	return onTable(what, t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		i := slices.IndexFunc(t.FKs, func(fk difftest.FK) bool { return fk.Name == fkName })
		if i < 0 || !slices.Equal(t.FKs[i].Cols, old) {
			return false
		}
		for k, o := range old {
			c := t.Col(o)
			if c == nil || t.Col(moved[k]) != nil || slices.Contains(t.PK, o) {
				return false
			}
			nc := cloneCol(c)
			nc.Name, nc.RenamedFrom, nc.Default, nc.As = moved[k], "", "", ""
			t.Cols = append(t.Cols, nc)
		}
		t.FKs[i].Cols = slices.Clone(moved)
		for k := range t.Indexes {
			if slices.Equal(t.Indexes[k].Cols, old) {
				t.Indexes[k].Cols = slices.Clone(moved)
			}
		}
		for _, o := range old {
			if j := slices.IndexFunc(t.Cols, func(c *difftest.Col) bool { return c.Name == o }); j >= 0 {
				difftest.DropColumn(m, t, j)
			}
		}
		return true
	})
}

// renameForeignKey renames a foreign key alone (TiDB, which has no RENAME
// CONSTRAINT, drops it and adds it again; the index it made for the key
// must follow its name: issue 31).
func renameForeignKey(g *draw.Gen, m *difftest.Model) *Edit {
	t, name := pickFK(g, m)
	if t == nil {
		return nil
	}
	to := freeName(m, t.Name+"_fk")
	return onFK(fmt.Sprintf("rename foreign key %s.%s to %s", t.Name, name, to), t.Name, name, func(t *difftest.Table, i int) bool {
		t.FKs[i].Name = to
		return true
	})
}

// replaceColumn replaces a column by a new one of another type: the new
// column is added, an index over the old column alone moves to it under
// its name, and the old column is dropped.
func replaceColumn(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	cols := nonKey(t)
	if len(cols) < 2 {
		return nil
	}
	c := cols[g.N(len(cols))]
	nc := &difftest.Col{Name: freeName(m, "rp"), Type: g.Type(false), Null: c.Null}
	if nc.Type.String() == c.Type.String() {
		return nil
	}
	if !nc.Null {
		nc.Default = g.Default(nc.Type)
	}
	name, col := t.Name, c.Name
	return onTable(fmt.Sprintf("replace column %s.%s by %s %s", name, col, nc.Name, nc.Type), name, func(m *difftest.Model, t *difftest.Table) bool {
		j := slices.IndexFunc(t.Cols, func(c *difftest.Col) bool { return c.Name == col })
		if j < 0 || t.Col(nc.Name) != nil || slices.Contains(t.PK, col) || len(t.Cols) < 2 {
			return false
		}
		t.Cols = append(t.Cols, cloneCol(nc))
		for k := range t.Indexes {
			if slices.Equal(t.Indexes[k].Cols, []string{col}) && t.Indexes[k].Where == "" {
				t.Indexes[k].Cols = []string{nc.Name}
			}
		}
		difftest.DropColumn(m, t, j)
		return true
	})
}

// renameTableWithKeys renames a table (renamed_from) and, in the same
// step, every index, unique constraint, CHECK and foreign key of it, as a
// history renaming a request table to a flow table does.
func renameTableWithKeys(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.ObjectNames()) == 0 {
		return nil
	}
	from := t.Name
	used := m.Clone()
	to := freeName(used, "r")
	used.Tables[0].Checks = append(used.Tables[0].Checks, difftest.Check{Name: to})
	renames := map[string]string{}
	for _, n := range t.ObjectNames() {
		nn := freeName(used, to+"_k")
		renames[n] = nn
		used.Tables[0].Checks = append(used.Tables[0].Checks, difftest.Check{Name: nn})
	}
	return &Edit{What: fmt.Sprintf("rename table %s to %s with its keys (%d)", from, to, len(renames)), Apply: func(m *difftest.Model) bool {
		t := m.Table(from)
		if t == nil || m.Table(to) != nil {
			return false
		}
		t.Name, t.RenamedFrom = to, from
		for _, o := range m.Tables {
			for i := range o.FKs {
				if o.FKs[i].RefTable == from {
					o.FKs[i].RefTable = to
				}
			}
		}
		renameInRaws(m, from, to)
		t.RenameObjects(renames)
		return true
	}}
}
