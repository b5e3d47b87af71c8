package evolve

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// The edit kinds of issue 19's constructs: identity, generated columns,
// uuid(), on_update, renames.

func isInt(t difftest.Type) bool {
	return t.Name == "smallint" || t.Name == "int" || t.Name == "bigint"
}

// plainCols returns the columns of t in no key that are not generated and
// have no identity.
func plainCols(t *difftest.Table) []*difftest.Col {
	return slices.DeleteFunc(nonKey(t), func(c *difftest.Col) bool { return c.As != "" || c.Identity })
}

// generatedExpr is a portable expression of a generated column of type to
// over plain column src, false when there is none.
func generatedExpr(to difftest.Type, src *difftest.Col) (string, bool) {
	n := difftest.QuoteIdent(src.Name)
	switch {
	case isInt(to) && (isInt(src.Type) || src.Type.Name == "decimal" || src.Type.Name == "double"):
		return "CASE WHEN " + n + " > 0 THEN 1 WHEN " + n + " < 0 THEN -1 ELSE 0 END", true
	case to.Name == "text" && (src.Type.Name == "text" || src.Type.Name == "varchar"):
		return "lower(" + n + ")", true
	case to.Name == "varchar" && src.Type.Name == "varchar" && src.Type.Args[0] <= to.Args[0]:
		return "upper(" + n + ")", true
	case to.Name == "bool" && src.Type.Name == "bool":
		return "NOT " + n, true
	case to.Name == "bool" && isInt(src.Type):
		return n + " > 0", true
	}
	return "", false
}

// addGenerated adds a generated column (stored or not) over a plain
// column of a table.
func addGenerated(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	srcs := slices.DeleteFunc(slices.Clone(t.Cols), func(c *difftest.Col) bool { return c.As != "" })
	if len(srcs) == 0 {
		return nil
	}
	src := srcs[g.N(len(srcs))]
	var to difftest.Type
	switch {
	case isInt(src.Type) || src.Type.Name == "decimal" || src.Type.Name == "double":
		to = difftest.Type{Name: []string{"smallint", "int", "bigint"}[g.N(3)]}
	case src.Type.Name == "text":
		to = src.Type
	case src.Type.Name == "varchar":
		to = difftest.Type{Name: "varchar", Args: []int{src.Type.Args[0] + g.N(2)*10}}
	case src.Type.Name == "bool":
		to = src.Type
	default:
		return nil
	}
	expr, ok := generatedExpr(to, src)
	if !ok {
		return nil
	}
	c := &difftest.Col{Name: freeName(m, "g"), Type: to, Null: true, As: expr, Virtual: g.Chance(0.5)}
	stored := map[bool]string{true: "virtual", false: "stored"}[c.Virtual]
	return onTable(fmt.Sprintf("add %s generated column %s %s as %q to %s", stored, c.Name, to, expr, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		if s := t.Col(src.Name); s == nil || s.As != "" {
			return false
		}
		t.Cols = append(t.Cols, cloneCol(c))
		return true
	})
}

// makeGenerated turns a plain column into a generated one over another
// plain column of its table.
func makeGenerated(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	cols := plainCols(t)
	if len(cols) == 0 {
		return nil
	}
	c := cols[g.N(len(cols))]
	var srcs []*difftest.Col
	for _, s := range t.Cols {
		if _, ok := generatedExpr(c.Type, s); ok && s != c && s.As == "" {
			srcs = append(srcs, s)
		}
	}
	if len(srcs) == 0 {
		return nil
	}
	src := srcs[g.N(len(srcs))]
	expr, _ := generatedExpr(c.Type, src)
	name, virtual := c.Name, g.Chance(0.5)
	return onTable(fmt.Sprintf("make %s.%s generated as %q (stored = %v)", t.Name, name, expr, !virtual), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c, s := t.Col(name), t.Col(src.Name)
		if c == nil || s == nil || s.As != "" || c.As != "" {
			return false
		}
		c.As, c.Virtual, c.Default, c.Override, c.OnUpdate, c.Identity = expr, virtual, "", "", false, false
		return true
	})
}

// pickGenerated returns a table of m with a generated column, and it.
func pickGenerated(g *draw.Gen, m *difftest.Model) (*difftest.Table, *difftest.Col) {
	var ts []*difftest.Table
	for _, t := range m.Tables {
		if slices.ContainsFunc(t.Cols, func(c *difftest.Col) bool { return c.As != "" }) {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		return nil, nil
	}
	t := ts[g.N(len(ts))]
	gs := slices.DeleteFunc(slices.Clone(t.Cols), func(c *difftest.Col) bool { return c.As == "" })
	return t, gs[g.N(len(gs))]
}

// makePlain turns a generated column into a plain one (its values kept).
func makePlain(g *draw.Gen, m *difftest.Model) *Edit {
	t, c := pickGenerated(g, m)
	if t == nil {
		return nil
	}
	name := c.Name
	return onTable(fmt.Sprintf("make generated column %s.%s plain", t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil || c.As == "" {
			return false
		}
		c.As, c.Virtual = "", false
		return true
	})
}

// toggleStored moves a generated column between stored and virtual.
func toggleStored(g *draw.Gen, m *difftest.Model) *Edit {
	t, c := pickGenerated(g, m)
	if t == nil {
		return nil
	}
	name, virtual := c.Name, !c.Virtual
	return onTable(fmt.Sprintf("set stored = %v on generated column %s.%s", !virtual, t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil || c.As == "" {
			return false
		}
		c.Virtual = virtual
		return true
	})
}

// addIdentityTable adds a table whose primary key is an identity, perhaps
// from a start.
func addIdentityTable(g *draw.Gen, m *difftest.Model) *Edit {
	name := freeName(m, "n")
	id := &difftest.Col{Name: "id0", Type: difftest.Type{Name: []string{"smallint", "int", "bigint"}[g.N(3)]}, Identity: true}
	if g.Chance(0.5) {
		id.IdentityStart = []int64{2, 100, 1000}[g.N(3)]
	}
	t := &difftest.Table{Name: name, Cols: []*difftest.Col{id}, PK: []string{"id0"}}
	for k := range 1 + g.N(2) {
		c := &difftest.Col{Name: fmt.Sprintf("c%d", k), Type: g.Type(false), Null: true}
		t.Cols = append(t.Cols, c)
	}
	return &Edit{What: fmt.Sprintf("add table %s with identity %s (start %d)", name, id.Type, id.IdentityStart), Apply: func(m *difftest.Model) bool {
		if m.Table(name) != nil {
			return false
		}
		nt := *t
		nt.Cols = nil
		for _, c := range t.Cols {
			nt.Cols = append(nt.Cols, cloneCol(c))
		}
		nt.PK = slices.Clone(t.PK)
		m.Tables = append(m.Tables, &nt)
		return true
	}}
}

// toggleIdentity adds identity to an integer primary key column or removes
// it (TiDB refuses both, PostgreSQL plans them).
func toggleIdentity(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.PK) != 1 {
		return nil
	}
	c := t.Col(t.PK[0])
	if c == nil || !isInt(c.Type) || c.Default != "" || slices.ContainsFunc(t.Cols, func(o *difftest.Col) bool { return o != c && o.Identity }) {
		return nil
	}
	name, on := c.Name, !c.Identity
	return onTable(fmt.Sprintf("set identity on %s.%s to %v", t.Name, name, on), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil || c.Identity == on {
			return false
		}
		c.Identity, c.IdentityStart = on, 0
		return true
	})
}

// uuidDefault adds a uuid column with default uuid(), or gives an existing
// uuid column that default.
func uuidDefault(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	for _, c := range t.Cols {
		if c.Type.Name == "uuid" && c.As == "" && c.Default != "uuid()" && g.Chance(0.5) {
			name := c.Name
			return onTable(fmt.Sprintf("set the default of %s.%s to uuid()", t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
				c := t.Col(name)
				if c == nil || c.Type.Name != "uuid" {
					return false
				}
				c.Default = "uuid()"
				return true
			})
		}
	}
	c := &difftest.Col{Name: freeName(m, "u"), Type: difftest.Type{Name: "uuid"}, Null: g.Chance(0.3), Default: "uuid()"}
	return onTable(fmt.Sprintf("add column %s uuid default uuid() to %s", c.Name, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		t.Cols = append(t.Cols, cloneCol(c))
		return true
	})
}

// onUpdate adds a timestamp or datetime column set on every update, or
// turns on_update on or off on an existing one.
func onUpdate(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	for _, c := range plainCols(t) {
		if (c.Type.Name == "timestamp" || c.Type.Name == "datetime") && g.Chance(0.5) {
			name, on := c.Name, !c.OnUpdate
			return onTable(fmt.Sprintf("set on_update on %s.%s to %v", t.Name, name, on), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
				c := t.Col(name)
				if c == nil || c.As != "" {
					return false
				}
				c.OnUpdate = on
				return true
			})
		}
	}
	typ := []difftest.Type{{Name: "timestamp"}, {Name: "timestamp", Args: []int{3}}, {Name: "datetime"}, {Name: "datetime", Args: []int{0}}}[g.N(4)]
	c := &difftest.Col{Name: freeName(m, "u"), Type: typ, Null: g.Chance(0.5), OnUpdate: true}
	if !c.Null || g.Chance(0.5) {
		c.Default = "now()"
	}
	return onTable(fmt.Sprintf("add column %s %s on_update = now() to %s", c.Name, typ, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		t.Cols = append(t.Cols, cloneCol(c))
		return true
	})
}

// renameTable renames a table (renamed_from), with the foreign keys that
// reference it and the views that read it.
func renameTable(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	from, to := t.Name, freeName(m, "r")
	return &Edit{What: fmt.Sprintf("rename table %s to %s", from, to), Apply: func(m *difftest.Model) bool {
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
		return true
	}}
}

// renameColumn renames a column (renamed_from), with the keys, indexes,
// CHECKs, generated columns and foreign keys that name it.
func renameColumn(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	c := t.Cols[g.N(len(t.Cols))]
	from, to := c.Name, freeName(m, "rc")
	return onTable(fmt.Sprintf("rename column %s.%s to %s", t.Name, from, to), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(from)
		if c == nil || t.Col(to) != nil {
			return false
		}
		c.Name, c.RenamedFrom = to, from
		ren := func(xs []string) {
			for i, x := range xs {
				if x == from {
					xs[i] = to
				}
			}
		}
		ren(t.PK)
		for i := range t.Uniques {
			t.Uniques[i].Cols = slices.Clone(t.Uniques[i].Cols)
			ren(t.Uniques[i].Cols)
		}
		for i := range t.Indexes {
			x := &t.Indexes[i]
			x.Cols = slices.Clone(x.Cols)
			for k, p := range x.Cols {
				if e, ok := strings.CutPrefix(p, "expr:"); ok {
					x.Cols[k] = "expr:" + renameInExpr(e, from, to)
				}
			}
			ren(x.Cols)
			x.Include = slices.Clone(x.Include)
			ren(x.Include)
			x.Where = renameInExpr(x.Where, from, to)
		}
		for i := range t.Checks {
			t.Checks[i].Expr = renameInExpr(t.Checks[i].Expr, from, to)
		}
		for _, o := range t.Cols {
			o.As = renameInExpr(o.As, from, to)
		}
		for i := range t.FKs {
			t.FKs[i].Cols = slices.Clone(t.FKs[i].Cols)
			ren(t.FKs[i].Cols)
		}
		for _, o := range m.Tables {
			for i := range o.FKs {
				if o.FKs[i].RefTable == t.Name {
					o.FKs[i].RefCols = slices.Clone(o.FKs[i].RefCols)
					ren(o.FKs[i].RefCols)
				}
			}
		}
		renameInRaws(m, from, to)
		return true
	})
}

// renameInExpr renames column from to to in an expression of the
// language.
func renameInExpr(e, from, to string) string {
	if e == "" {
		return e
	}
	q := difftest.QuoteIdent(from)
	if q != from {
		return strings.ReplaceAll(e, q, difftest.QuoteIdent(to))
	}
	return regexp.MustCompile(`\b`+regexp.QuoteMeta(from)+`\b`).ReplaceAllString(e, to)
}

// renameInRaws renames a table or column in the raw statements of m, which
// name it quoted.
func renameInRaws(m *difftest.Model, from, to string) {
	for i := range m.Raws {
		r := &m.Raws[i]
		r.Postgres = strings.ReplaceAll(r.Postgres, `"`+from+`"`, `"`+to+`"`)
		r.TiDB = strings.ReplaceAll(r.TiDB, "`"+from+"`", "`"+to+"`")
	}
}
