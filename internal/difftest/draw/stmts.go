package draw

import (
	"fmt"
	"slices"

	"github.com/schemagen/schemagen/internal/difftest"
)

// Stmts draws n random statements for m: keys from a small domain so that
// they collide, other values from the types' edges, and NULLs.
func (g *rnd) Stmts(m *difftest.Model, n int) []difftest.Stmt {
	var out []difftest.Stmt
	if len(m.Tables) == 0 {
		return nil // a model the shrinker emptied
	}
	// draw picks one of vs that m's settings keep alike (Model.Differs).
	draw := func(typ difftest.Type, vs []difftest.Value) difftest.Value {
		kept := slices.DeleteFunc(slices.Clone(vs), func(v difftest.Value) bool { return m.Differs(typ, v) })
		if len(kept) == 0 {
			return null()
		}
		return pick(g, kept)
	}
	value := func(t *difftest.Table, c *difftest.Col) difftest.Value {
		if c.Null && g.chance(0.15) || g.chance(0.03) {
			return null()
		}
		for _, fk := range t.FKs {
			for i, fc := range fk.Cols {
				if fc == c.Name && g.chance(0.85) {
					ref := m.Table(fk.RefTable)
					return draw(c.Type, difftest.Keys(ref.Col(fk.RefCols[i]).Type))
				}
			}
		}
		for _, pk := range t.PK {
			if pk == c.Name && g.chance(0.9) {
				return draw(c.Type, difftest.Keys(c.Type))
			}
		}
		return draw(c.Type, difftest.Edges(c.Type))
	}
	for range n {
		t := pick(g, m.Tables)
		s := difftest.Stmt{Table: t.Name}
		switch k := g.n(10); {
		case k < 6:
			s.Kind = "insert"
			for _, c := range t.Cols {
				if c.Default != "" && g.chance(0.5) || c.Null && g.chance(0.2) || g.chance(0.03) || c.Identity || c.As != "" {
					continue
				}
				s.Cols = append(s.Cols, c.Name)
				s.Vals = append(s.Vals, value(t, c))
			}
		case k < 9:
			s.Kind = "update"
			c := pick(g, t.Cols)
			// An identity column's value is the database's (see
			// docs/semantics.md): set another.
			for tries := 0; (c.Identity || c.As != "") && tries < 5; tries++ {
				c = pick(g, t.Cols)
			}
			v := value(t, c)
			// TiDB's UPDATE stores 9223372036854775808 in a BIGINT as
			// -9223372036854775808 (its INSERT refuses it): a bug of TiDB's
			// statements, not of the schema, left out here.
			for c.Type.Name == "bigint" && v.S == "9223372036854775808" {
				v = value(t, c)
			}
			s.Cols, s.Vals = []string{c.Name}, []difftest.Value{v}
			w := t.Col(t.PK[0])
			s.WhereCol, s.WhereVal = w.Name, draw(w.Type, difftest.Keys(w.Type))
		default:
			s.Kind = "delete"
			w := t.Col(t.PK[0])
			s.WhereCol, s.WhereVal = w.Name, draw(w.Type, difftest.Keys(w.Type))
		}
		out = append(out, s)
	}
	for _, t := range m.Tables {
		if g.chance(0.7) {
			out = append(out, g.chain(m, t)...)
		}
	}
	return out
}

// cascadeLevels are the numbers of rows a DELETE cascades through in a
// chain: TiDB's limit is 14 (15 is error 3008), PostgreSQL has none; past
// it is a documented difference, drawn only in a Full survey.
var cascadeLevels, cascadeLevelsPast = []int{1, 7, 14}, []int{15, 19}

// chain inserts a chain of rows into a table with a foreign key to its own
// primary key that cascades deletes (rnd.tree), each row under the one
// before, and deletes the first: the DELETE cascades through all of them.
func (g *rnd) chain(m *difftest.Model, t *difftest.Table) []difftest.Stmt {
	fk := slices.IndexFunc(t.FKs, func(f difftest.FK) bool { return f.RefTable == t.Name && f.OnDelete == "cascade" && len(f.Cols) == 1 })
	if fk < 0 {
		return nil
	}
	up, pk := t.FKs[fk].Cols[0], t.FKs[fk].RefCols[0]
	levels := cascadeLevels
	if difftest.Full {
		levels = append(slices.Clone(levels), cascadeLevelsPast...)
	}
	n := pick(g, levels) + 1
	var out []difftest.Stmt
	for i := range n {
		s := difftest.Stmt{Kind: "insert", Table: t.Name, Cols: []string{pk}, Vals: []difftest.Value{val(fmt.Sprint(100 + i))}}
		s.Cols = append(s.Cols, up)
		if i == 0 {
			s.Vals = append(s.Vals, null())
		} else {
			s.Vals = append(s.Vals, val(fmt.Sprint(100+i-1)))
		}
		for _, c := range t.Cols {
			if c.Name == pk || c.Name == up || c.Null || c.Default != "" || c.Identity {
				continue
			}
			// The first edge of each type is a plain value both store.
			s.Cols = append(s.Cols, c.Name)
			s.Vals = append(s.Vals, difftest.Edges(c.Type)[0])
		}
		out = append(out, s)
	}
	return append(out, difftest.Stmt{Kind: "delete", Table: t.Name, WhereCol: pk, WhereVal: val("100")})
}
