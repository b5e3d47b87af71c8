package evolve

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// The edit kinds of what is not a table: extensions, raw statements
// (views), and the dimensionless vector type.

// extensions are extensions every PostgreSQL server ships (contrib); the
// model's TiDB DDL leaves them out.
var extensions = []string{"citext", "pgcrypto", "hstore", "pg_trgm", "btree_gin"}

func toggleExtension(g *draw.Gen, m *difftest.Model) *Edit {
	e := extensions[g.N(len(extensions))]
	on := !slices.Contains(m.Extensions, e)
	return &Edit{What: fmt.Sprintf("set extension %q to %v", e, on), Apply: func(m *difftest.Model) bool {
		if slices.Contains(m.Extensions, e) == on {
			return false
		}
		if on {
			m.Extensions = append(m.Extensions, e)
		} else {
			m.Extensions = slices.DeleteFunc(m.Extensions, func(x string) bool { return x == e })
		}
		return true
	}}
}

// changeSetting sets one dialect setting of m (uuid_check, exact_strings,
// value_domains) to another of left out (the default, on), true or false:
// what a project does when it turns a default off or back on, or writes it
// out. migrate diff must then plan the CHECKs and collations each adds or
// drops, or refuse what TiDB cannot change in place.
func changeSetting(g *draw.Gen, m *difftest.Model) *Edit {
	fields := []struct {
		name string
		f    func(*difftest.Model) *string
	}{
		{"uuid_check", func(m *difftest.Model) *string { return &m.UUIDCheck }},
		{"exact_strings", func(m *difftest.Model) *string { return &m.ExactStrings }},
		{"value_domains", func(m *difftest.Model) *string { return &m.ValueDomains }},
	}
	f := fields[g.N(len(fields))]
	values := slices.DeleteFunc([]string{"", "true", "false"}, func(v string) bool {
		// exact_strings is never turned off: the rows drawn while it was on
		// may end in a space, which TiDB then compares as if it were not
		// there (a documented difference): a data migration's WHERE found
		// other rows there (evolution 91717275196).
		return v == *f.f(m) || f.name == "exact_strings" && v == "false"
	})
	v := values[g.N(len(values))]
	what := v
	if v == "" {
		what = "left out (the default)"
	}
	e := &Edit{What: fmt.Sprintf("set %s to %s", f.name, what), Apply: func(m *difftest.Model) bool {
		if *f.f(m) == v {
			return false
		}
		*f.f(m) = v
		return true
	}}
	if f.name == "uuid_check" && g.Chance(0.5) {
		return uuidKeyWith(g, m, e)
	}
	return e
}

// uuidKeyWith is edit e (a uuid_check switch) and, in the same step, a new
// nullable uuid column of one table, unique, referenced by a new one of
// another table or the same one through a foreign key with a referential
// action: TiDB forbids the uuid_check CHECK on the key's columns (3823), so
// the plan must leave it out there and order the rest as TiDB accepts. Its
// kind is change_setting/uuid_key, counted apart.
func uuidKeyWith(g *draw.Gen, m *difftest.Model, e *Edit) *Edit {
	child, parent := pickTable(g, m), pickTable(g, m)
	if child == nil {
		return e
	}
	key := &difftest.Col{Name: freeName(m, "k"), Type: difftest.Type{Name: "uuid"}, Null: true}
	ref := &difftest.Col{Name: freeName(m, "r"), Type: key.Type, Null: true}
	uq := difftest.Unique{Name: freeName(m, parent.Name+"_uq"), Cols: []string{key.Name}}
	fk := difftest.FK{Name: freeName(m, child.Name+"_fk"), Cols: []string{ref.Name}, RefTable: parent.Name, RefCols: []string{key.Name},
		OnDelete: []string{"cascade", "set_null"}[g.N(2)], OnUpdate: g.Action(true)}
	setting := e.Apply
	return &Edit{Kind: "change_setting/uuid_key", What: fmt.Sprintf("%s, with uuid column %s, unique, added to %s and foreign key %s of %s(%s) to it on_delete %q on_update %q",
		e.What, key.Name, parent.Name, fk.Name, child.Name, ref.Name, fk.OnDelete, fk.OnUpdate), Apply: func(m *difftest.Model) bool {
		p, c := m.Table(parent.Name), m.Table(child.Name)
		if p == nil || c == nil || p.Col(key.Name) != nil || c.Col(ref.Name) != nil || !setting(m) {
			return false
		}
		p.Cols, p.Uniques = append(p.Cols, cloneCol(key)), append(p.Uniques, uq)
		c = m.Table(child.Name)
		c.Cols, c.FKs = append(c.Cols, cloneCol(ref)), append(c.FKs, fk)
		return true
	}}
}

// viewSQL is the raw statements of a view of cols of table, per dialect.
func viewSQL(name, table string, cols []string) (pg, ti string) {
	q := func(quote string, xs []string) string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = quote + x + quote
		}
		return strings.Join(out, ", ")
	}
	return fmt.Sprintf(`CREATE VIEW "%s" AS SELECT %s FROM "%s"`, name, q(`"`, cols), table),
		fmt.Sprintf("CREATE VIEW `%s` AS SELECT %s FROM `%s`", name, q("`", cols), table)
}

var viewForm = regexp.MustCompile(`^CREATE VIEW "([^"]+)" AS SELECT (.+) FROM "([^"]+)"$`)

// ViewsValid reports whether every view of m reads a table and columns m
// has (an edit that breaks one is drawn again).
func ViewsValid(m *difftest.Model) bool {
	for _, r := range m.Raws {
		v := viewForm.FindStringSubmatch(r.Postgres)
		if v == nil {
			continue
		}
		t := m.Table(v[3])
		if t == nil || strings.ContainsAny(v[3], "`") {
			return false
		}
		for _, c := range strings.Split(v[2], ", ") {
			if t.Col(strings.Trim(c, `"`)) == nil {
				return false
			}
		}
	}
	return true
}

// pickColumns draws one to three columns of t.
func pickColumns(g *draw.Gen, t *difftest.Table) []string {
	var cols []string
	for range 1 + g.N(3) {
		c := t.Cols[g.N(len(t.Cols))].Name
		if !slices.Contains(cols, c) && !strings.ContainsAny(c, "`\"") {
			cols = append(cols, c)
		}
	}
	return cols
}

func addView(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || strings.ContainsAny(t.Name, "`\"") {
		return nil
	}
	cols := pickColumns(g, t)
	if len(cols) == 0 {
		return nil
	}
	name := freeName(m, "v")
	pg, ti := viewSQL(name, t.Name, cols)
	return &Edit{What: fmt.Sprintf("add view %s of %s%v", name, t.Name, cols), Apply: func(m *difftest.Model) bool {
		if slices.ContainsFunc(m.Raws, func(r difftest.Raw) bool { return r.Name == name }) {
			return false
		}
		m.Raws = append(m.Raws, difftest.Raw{Name: name, Postgres: pg, TiDB: ti})
		return true
	}}
}

// pickView returns a view of m, its table and its index in m.Raws.
func pickView(g *draw.Gen, m *difftest.Model) (string, string) {
	var names, tables []string
	for _, r := range m.Raws {
		if v := viewForm.FindStringSubmatch(r.Postgres); v != nil {
			names, tables = append(names, r.Name), append(tables, v[3])
		}
	}
	if len(names) == 0 {
		return "", ""
	}
	i := g.N(len(names))
	return names[i], tables[i]
}

func changeView(g *draw.Gen, m *difftest.Model) *Edit {
	name, table := pickView(g, m)
	t := m.Table(table)
	if t == nil {
		return nil
	}
	cols := pickColumns(g, t)
	if len(cols) == 0 {
		return nil
	}
	pg, ti := viewSQL(name, table, cols)
	return &Edit{What: fmt.Sprintf("change view %s to %s%v", name, table, cols), Apply: func(m *difftest.Model) bool {
		i := slices.IndexFunc(m.Raws, func(r difftest.Raw) bool { return r.Name == name })
		if i < 0 {
			return false
		}
		m.Raws[i].Postgres, m.Raws[i].TiDB = pg, ti
		return true
	}}
}

func dropView(g *draw.Gen, m *difftest.Model) *Edit {
	name, _ := pickView(g, m)
	if name == "" {
		return nil
	}
	return &Edit{What: "drop view " + name, Apply: func(m *difftest.Model) bool {
		n := len(m.Raws)
		m.Raws = slices.DeleteFunc(m.Raws, func(r difftest.Raw) bool { return r.Name == name })
		return len(m.Raws) < n
	}}
}

// dropViewsOf removes the views that read table name (which goes).
func dropViewsOf(m *difftest.Model, name string) {
	m.Raws = slices.DeleteFunc(m.Raws, func(r difftest.Raw) bool {
		v := viewForm.FindStringSubmatch(r.Postgres)
		return v != nil && v[3] == name
	})
}

// addVector adds a vector column, with or without a dimension: TiDB's
// VECTOR; on PostgreSQL TEXT, since pgvector is not installed here (its
// path through migrations is TestVectorThroughMigrationsPostgres's).
func addVector(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	typ := []difftest.Type{{Name: "vector"}, {Name: "vector", Args: []int{3}}}[g.N(2)]
	c := &difftest.Col{Name: freeName(m, "vec"), Type: typ, Null: true, Override: "postgres {\n  type = \"TEXT\"\n}"}
	return onTable(fmt.Sprintf("add column %s %s to %s", c.Name, typ, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		t.Cols = append(t.Cols, cloneCol(c))
		return true
	})
}

// indexComments are the comments an index is given: quotes and escapes
// that differ between the dialects' SQL, and TiDB's longest (1024 bytes).
var indexComments = []string{"finds rows by their key", `it's "quoted"`, `a \ b`, "two\nlines", strings.Repeat("é", 512)}

// changeIndexComment gives an index a comment, another one, or none: a
// statement of its own on PostgreSQL, the index made again on TiDB.
func changeIndexComment(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.Indexes) == 0 {
		return nil
	}
	idx := t.Indexes[g.N(len(t.Indexes))]
	comment := ""
	if idx.Comment == "" || g.Chance(0.7) {
		comment = indexComments[g.N(len(indexComments))]
	}
	if comment == idx.Comment {
		return nil
	}
	return onTable(fmt.Sprintf("comment index %s.%s %q", t.Name, idx.Name, comment), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		for i := range t.Indexes {
			if t.Indexes[i].Name == idx.Name {
				t.Indexes[i].Comment = comment
				return true
			}
		}
		return false
	})
}

// changeVectorDimension gives a vector column a dimension or takes it
// away (vector(3) to vector: issue 29, where PostgreSQL's plan saw no
// change). TiDB's VECTOR changes; the column stays TEXT on PostgreSQL
// (pgvector is not installed here: TestBaseTypeChangeIsPlanned tests that
// diff without it).
func changeVectorDimension(g *draw.Gen, m *difftest.Model) *Edit {
	type vec struct{ table, col string }
	var vecs []vec
	for _, t := range m.Tables {
		for _, c := range t.Cols {
			if c.Type.Name == "vector" {
				vecs = append(vecs, vec{t.Name, c.Name})
			}
		}
	}
	if len(vecs) == 0 {
		return nil
	}
	v := vecs[g.N(len(vecs))]
	return onTable(fmt.Sprintf("change the dimension of vector column %s.%s", v.table, v.col), v.table, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(v.col)
		if c == nil || c.Type.Name != "vector" {
			return false
		}
		if len(c.Type.Args) > 0 {
			c.Type = difftest.Type{Name: "vector"}
		} else {
			c.Type = difftest.Type{Name: "vector", Args: []int{3}}
		}
		return true
	})
}
