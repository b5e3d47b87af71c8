package draw

import (
	"slices"

	"github.com/schemagen/schemagen/internal/difftest"
)

// everyday sometimes adds to m issue 19's column kinds that Model does not
// draw: a generated column (stored or not) over a plain column, a uuid
// column with default uuid(), a timestamp or datetime column with
// on_update = now(), and a foreign key to a unique index of its own table,
// with inserts that fill the new key columns. It has a generator of its
// own (Random), so that each seed's model and statements otherwise stay as
// they were.
func (g *rnd) everyday(m *difftest.Model, stmts []difftest.Stmt) {
	for _, t := range m.Tables {
		if g.chance(0.25) {
			g.generatedColumn(t)
		}
		if g.chance(0.15) {
			t.Cols = append(t.Cols, &difftest.Col{Name: "uid", Type: difftest.Type{Name: "uuid"}, Null: g.chance(0.5), Default: "uuid()"})
		}
		if g.chance(0.15) {
			c := &difftest.Col{Name: "upd", Type: pick(g, []difftest.Type{{Name: "timestamp"}, {Name: "timestamp", Args: []int{3}}, {Name: "datetime"}, {Name: "datetime", Args: []int{0}}}), Null: g.chance(0.5), OnUpdate: true}
			if !c.Null || g.chance(0.5) {
				c.Default = "now()"
			}
			t.Cols = append(t.Cols, c)
		}
		if g.chance(0.15) {
			g.selfKey(t, stmts)
		}
	}
}

// generatedForms are the portable expressions of a generated column over
// column n of type t, with the column's type.
func generatedForms(n string, t difftest.Type) (forms []string, types []difftest.Type) {
	switch t.Name {
	case "smallint", "int", "bigint", "decimal", "double":
		return []string{"CASE WHEN " + n + " > 0 THEN 1 WHEN " + n + " < 0 THEN -1 ELSE 0 END", n + " > 0"}, []difftest.Type{{Name: "int"}, {Name: "bool"}}
	case "varchar", "text":
		return []string{"lower(" + n + ")", "upper(" + n + ")", n + " || 'x'", "char_length(" + n + ")"}, []difftest.Type{{Name: "text"}, {Name: "text"}, {Name: "text"}, {Name: "int"}}
	case "bool":
		return []string{"NOT " + n, "CASE WHEN " + n + " THEN 1 ELSE 0 END"}, []difftest.Type{{Name: "bool"}, {Name: "smallint"}}
	}
	return nil, nil
}

func (g *rnd) generatedColumn(t *difftest.Table) {
	var srcs []*difftest.Col
	for _, c := range t.Cols {
		if f, _ := generatedForms(difftest.QuoteIdent(c.Name), c.Type); len(f) > 0 && c.Override == "" && !c.Identity {
			srcs = append(srcs, c)
		}
	}
	if len(srcs) == 0 {
		return
	}
	src := pick(g, srcs)
	forms, types := generatedForms(difftest.QuoteIdent(src.Name), src.Type)
	i := g.n(len(forms))
	c := &difftest.Col{Name: "gen", Type: types[i], Null: true, As: forms[i], Virtual: g.chance(0.5)}
	t.Cols = append(t.Cols, c)
	if g.chance(0.2) {
		t.Indexes = append(t.Indexes, difftest.Index{Name: t.Name + "_gen_ix", Cols: []string{c.Name}})
	}
}

// selfKey adds a foreign key from a new column of t to a unique index of t
// over one of its key-typed columns, and fills it in some inserts with the
// row's own value.
func (g *rnd) selfKey(t *difftest.Table, stmts []difftest.Stmt) {
	var cands []*difftest.Col
	for _, c := range t.Cols {
		if slices.ContainsFunc(keyTypes, func(k difftest.Type) bool { return k.String() == c.Type.String() }) && c.As == "" && !c.Identity && c.Override == "" && c.Default == "" {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return
	}
	ref := pick(g, cands)
	ix := difftest.Index{Name: t.Name + "_self_uq", Unique: true, Cols: []string{ref.Name}}
	t.Indexes = append(t.Indexes, ix)
	c := &difftest.Col{Name: "self_ref", Type: ref.Type, Null: true}
	t.Cols = append(t.Cols, c)
	t.FKs = append(t.FKs, difftest.FK{Name: t.Name + "_self_fk", Cols: []string{c.Name}, RefTable: t.Name, RefCols: []string{ref.Name}, OnDelete: pick(g, []string{"", "cascade", "set_null"})})
	for i := range stmts {
		s := &stmts[i]
		if s.Table != t.Name || s.Kind != "insert" || !g.chance(0.6) {
			continue
		}
		if k := slices.Index(s.Cols, ref.Name); k >= 0 {
			s.Cols = append(s.Cols, c.Name)
			s.Vals = append(s.Vals, s.Vals[k])
		}
	}
}
