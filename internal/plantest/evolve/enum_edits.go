package evolve

import (
	"fmt"
	"slices"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// The enum edits: a column of a new or existing enum, values added at the
// end, the front or in the middle, values removed or reordered (which
// PostgreSQL cannot make and migrate diff refuses), a column changed to an
// enum or from one, and an enum no column uses dropped.

// enumType is the type of a column of enum e.
func enumType(e difftest.Enum) difftest.Type {
	return difftest.Type{Name: "enum", Enum: e.Name, Values: slices.Clone(e.Values)}
}

// setEnum gives enum name the values, in the model and in the types of its
// columns.
func setEnum(m *difftest.Model, name string, values []string) bool {
	i := slices.IndexFunc(m.Enums, func(e difftest.Enum) bool { return e.Name == name })
	if i < 0 {
		return false
	}
	m.Enums[i].Values = slices.Clone(values)
	for _, t := range m.Tables {
		for _, c := range t.Cols {
			if c.Type.Name == "enum" && c.Type.Enum == name {
				c.Type.Values = slices.Clone(values)
			}
		}
	}
	return true
}

// addEnumColumn adds a column of an enum, declaring a new enum now and then.
func addEnumColumn(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	var e difftest.Enum
	fresh := len(m.Enums) == 0 || g.Chance(0.3)
	if fresh {
		e = difftest.Enum{Name: freeEnum(m), Values: g.EnumValues()}
	} else {
		e = m.Enums[g.N(len(m.Enums))]
	}
	c := &difftest.Col{Name: freeName(m, "a"), Type: enumType(e), Null: g.Chance(0.5)}
	// A NOT NULL enum column gets a default: without one, TiDB would give
	// existing rows and INSERTs without it the first value (a documented
	// difference).
	if !c.Null || g.Chance(0.3) {
		c.Default = g.Default(c.Type)
	}
	return onTable(fmt.Sprintf("add column %s %s to %s", c.Name, c.Type, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		if fresh {
			if slices.ContainsFunc(m.Enums, func(x difftest.Enum) bool { return x.Name == e.Name }) {
				return false
			}
			m.Enums = append(m.Enums, difftest.Enum{Name: e.Name, Values: slices.Clone(e.Values)})
		} else if !slices.ContainsFunc(m.Enums, func(x difftest.Enum) bool { return x.Name == e.Name }) {
			return false
		}
		nc := cloneCol(c)
		nc.Type = enumType(e)
		t.Cols = append(t.Cols, nc)
		return true
	})
}

func freeEnum(m *difftest.Model) string {
	for i := 0; ; i++ {
		n := fmt.Sprintf("en%d", i)
		if !slices.ContainsFunc(m.Enums, func(e difftest.Enum) bool { return e.Name == n }) && freeName(m, n) == n+"0" {
			return n
		}
	}
}

// changeEnumValues adds a value to an enum (at the end, the front or in
// the middle), or, rarely, removes or reorders its values.
func changeEnumValues(g *draw.Gen, m *difftest.Model) *Edit {
	if len(m.Enums) == 0 {
		return nil
	}
	e := m.Enums[g.N(len(m.Enums))]
	to := slices.Clone(e.Values)
	what := ""
	switch k := g.N(10); {
	case k < 7:
		v := fmt.Sprintf("v%d", len(to))
		for slices.Contains(to, v) {
			v += "x"
		}
		at := len(to)
		if k >= 4 {
			at = g.N(len(to) + 1)
		}
		to = slices.Insert(to, at, v)
		what = fmt.Sprintf("add value %q to enum %s at %d", v, e.Name, at)
	case k < 9 && len(to) > 1:
		i := g.N(len(to))
		what = fmt.Sprintf("remove value %q from enum %s", to[i], e.Name)
		to = slices.Delete(to, i, i+1)
	case len(to) > 1:
		to[0], to[1] = to[1], to[0]
		what = fmt.Sprintf("reorder enum %s", e.Name)
	default:
		return nil
	}
	name := e.Name
	return &Edit{What: what, Apply: func(m *difftest.Model) bool { return setEnum(m, name, to) }}
}

// changeToEnum makes a column of no key an enum column, or an enum column
// a varchar(32) one.
func changeToEnum(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(m.Enums) == 0 {
		return nil
	}
	cols := nonKey(t)
	if len(cols) == 0 {
		return nil
	}
	c := cols[g.N(len(cols))]
	e := m.Enums[g.N(len(m.Enums))]
	to := enumType(e)
	if c.Type.Name == "enum" {
		to = difftest.Type{Name: "varchar", Args: []int{32}}
	}
	name := c.Name
	edit := onTable(fmt.Sprintf("change type of %s.%s from %s to %s", t.Name, name, c.Type, to), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil || to.Name == "enum" && !slices.ContainsFunc(m.Enums, func(x difftest.Enum) bool { return x.Name == to.Enum }) {
			return false
		}
		c.Type, c.Override, c.Default = to, "", ""
		if to.Name == "enum" {
			c.Type = enumType(m.Enums[slices.IndexFunc(m.Enums, func(x difftest.Enum) bool { return x.Name == to.Enum })])
			if !c.Null {
				c.Default = `"` + c.Type.Values[0] + `"`
			}
		}
		return true
	})
	if to.Name != "enum" {
		edit.Kind = "change_to_enum/from_enum" // counted apart
	}
	return edit
}

// dropUnusedEnums drops the enums no column uses.
func dropUnusedEnums(g *draw.Gen, m *difftest.Model) *Edit {
	used := func(m *difftest.Model, name string) bool {
		for _, t := range m.Tables {
			for _, c := range t.Cols {
				if c.Type.Name == "enum" && c.Type.Enum == name {
					return true
				}
			}
		}
		return false
	}
	if !slices.ContainsFunc(m.Enums, func(e difftest.Enum) bool { return !used(m, e.Name) }) {
		return nil
	}
	return &Edit{What: "drop the enums no column uses", Apply: func(m *difftest.Model) bool {
		n := len(m.Enums)
		m.Enums = slices.DeleteFunc(m.Enums, func(e difftest.Enum) bool { return !used(m, e.Name) })
		return len(m.Enums) < n
	}}
}

// enumKey makes an enum column a key: an enum column of a table no foreign
// key references joins its primary key, or a new enum column of one table,
// unique, is referenced by a foreign key (with actions) over a new enum
// column of another table or the same one.
func enumKey(g *draw.Gen, m *difftest.Model) *Edit {
	if len(m.Enums) == 0 {
		return nil
	}
	if g.Chance(0.5) {
		t := pickTable(g, m)
		if t == nil || referenced(m, t.Name) {
			return nil
		}
		var cands []string
		for _, c := range nonKey(t) {
			if c.Type.Name == "enum" && c.As == "" {
				cands = append(cands, c.Name)
			}
		}
		if len(cands) == 0 {
			return nil
		}
		name := cands[g.N(len(cands))]
		pk := append(slices.Clone(t.PK), name)
		return onTable(fmt.Sprintf("set the primary key of %s to %v (enum column %s)", t.Name, pk, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
			for _, n := range pk {
				c := t.Col(n)
				if c == nil {
					return false
				}
				c.Null = false
			}
			t.PK = slices.Clone(pk)
			return true
		})
	}
	child, parent := pickTable(g, m), pickTable(g, m)
	if child == nil {
		return nil
	}
	e := m.Enums[g.N(len(m.Enums))]
	// Both nullable: rows already there get NULL, which neither the
	// unique key nor the foreign key checks.
	key := &difftest.Col{Name: freeName(m, "k"), Type: enumType(e), Null: true}
	ref := &difftest.Col{Name: freeName(m, "r"), Type: enumType(e), Null: true}
	uq := difftest.Unique{Name: freeName(m, parent.Name+"_uq"), Cols: []string{key.Name}}
	fk := difftest.FK{Name: freeName(m, child.Name+"_fk"), Cols: []string{ref.Name}, RefTable: parent.Name, RefCols: []string{key.Name},
		OnDelete: g.Action(true), OnUpdate: g.Action(true)}
	return &Edit{What: fmt.Sprintf("add enum %s column %s, unique, to %s and foreign key %s of %s(%s) to it", e.Name, key.Name, parent.Name, fk.Name, child.Name, ref.Name), Apply: func(m *difftest.Model) bool {
		p, c := m.Table(parent.Name), m.Table(child.Name)
		i := slices.IndexFunc(m.Enums, func(x difftest.Enum) bool { return x.Name == e.Name })
		if p == nil || c == nil || i < 0 || p.Col(key.Name) != nil || c.Col(ref.Name) != nil {
			return false
		}
		k, r := cloneCol(key), cloneCol(ref)
		k.Type, r.Type = enumType(m.Enums[i]), enumType(m.Enums[i])
		p.Cols = append(p.Cols, k)
		p.Uniques = append(p.Uniques, uq)
		c = m.Table(child.Name)
		c.Cols = append(c.Cols, r)
		c.FKs = append(c.FKs, fk)
		return true
	}}
}
