package datadraw

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// DataMigrations draws n data migrations over m (a model the compiler
// accepts), from seed.
func DataMigrations(seed uint64, m *difftest.Model, n int) []difftest.Migration {
	g := &dataGen{rnd: newRnd(seed ^ 0xda7a), m: m}
	out := make([]difftest.Migration, n)
	for i := range out {
		k := 1 + g.n(3)
		for range k {
			st := g.stmt()
			// A batched statement is the only one of its file.
			if strings.Contains(st, " BATCH = ") {
				if len(out[i].Stmts) == 0 {
					out[i].Stmts = []string{st}
					break
				}
				continue
			}
			out[i].Stmts = append(out[i].Stmts, st)
		}
	}
	return out
}

// dataGen draws data statements over a model.
type dataGen struct {
	*rnd
	m       *difftest.Model
	aliases int
}

// ref is a table a query sees, under its alias.
type ref struct {
	t     *difftest.Table
	alias string
}

func dq(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func (r ref) col(c *difftest.Col) string { return dq(r.alias) + "." + dq(c.Name) }

func (g *dataGen) alias(t *difftest.Table) ref {
	g.aliases++
	return ref{t, fmt.Sprintf("a%d", g.aliases)}
}

// class is what the generator may do with a column's values.
func class(t difftest.Type) string {
	switch t.Name {
	case "smallint", "int", "bigint":
		return "int"
	case "decimal":
		return "dec"
	case "text", "varchar", "char":
		return "str"
	case "uuid", "bool", "timestamp", "date":
		return t.Name
	}
	return "other" // double, json, bytes: copied and tested for NULL only
}

// colClass is class for a column whose values both databases compare
// alike; a column of uuid() values or unordered ids (each database draws
// its own) is tested for NULL only (seed 1, model 1000006: uid < a constant).
func colClass(c *difftest.Col) string {
	if c.Random || c.Default == "uuid()" || c.OwnIDs() {
		return "other"
	}
	return class(c.Type)
}

// lit is a literal of column c's type that the compiler takes: mostly from
// the small key domain, so that rows match.
func (g *dataGen) lit(c *difftest.Col) string {
	vs := difftest.Keys(c.Type)
	if g.chance(0.3) {
		vs = difftest.Edges(c.Type)
	}
	for range 20 {
		v := pick(g.rnd, vs)
		// Values the checker refuses for the column (special numbers, which
		// no literal writes; strings longer than the column) are drawn again.
		long := len(c.Type.Args) > 0 && (c.Type.Name == "char" || c.Type.Name == "varchar") && utf8.RuneCountInString(v.S) > c.Type.Args[0]
		// Nor values the databases store or compare differently under the
		// model's settings (a trailing space without exact_strings; model
		// seed 36036108131).
		if lit, ok := draw.Literal(v, c.Type); ok && !difftest.Special(v.S) && !long && !(c.Type.Name == "double" && strings.ContainsAny(v.S, "eE")) && !g.m.Differs(c.Type, v) {
			if c.Type.Name == "bool" {
				return strings.ToUpper(v.S)
			}
			return lit
		}
	}
	return "NULL"
}

// same returns the columns of the scope whose class is k.
func same(scope []ref, k string) []string {
	var out []string
	for _, r := range scope {
		for _, c := range r.t.Cols {
			if colClass(c) == k {
				out = append(out, r.col(c))
			}
		}
	}
	return out
}

// value draws an expression for a value of column c's type over scope.
func (g *dataGen) value(c *difftest.Col, scope []ref) string {
	k := class(c.Type)
	var cols []string
	for _, r := range scope {
		for _, sc := range r.t.Cols {
			if (sc.OwnIDs() || sc.Now || sc.Default == "now()" || sc.OnUpdate) && sc != c {
				// Its values differ by design (see pinnable), as the
				// times of now() do: the rows compare them as "(an id)"
				// and "(a time)", not another column given one.
				continue
			}
			if sc.Type.String() == c.Type.String() || k != "other" && class(sc.Type) == k && g.chance(0.3) {
				cols = append(cols, r.col(sc))
			}
		}
	}
	if len(cols) == 0 || g.chance(0.3) {
		if c.Null && g.chance(0.1) {
			return "NULL"
		}
		return g.lit(c)
	}
	x := pick(g.rnd, cols)
	if g.chance(0.06) {
		if sq := g.scalar(c, scope); sq != "" {
			return sq
		}
	}
	if g.chance(0.45) {
		f := ""
		switch k {
		case "str":
			// Without exact_strings, TiDB ignores trailing spaces, which
			// the functions may leave (a documented difference).
			if g.m.ExactStrings != "false" {
				f = g.strFunc(x, scope)
			}
		case "int":
			f = g.intFunc(x, scope)
		case "timestamp":
			f = g.timeFunc(x, scope)
		case "dec":
			f = g.decFunc(c, scope)
		case "date":
			if ts := same(scope, "timestamp"); len(ts) > 0 {
				f = "CAST(" + pick(g.rnd, ts) + " AS date)"
			} else {
				f = "least(" + x + ", " + pick(g.rnd, same(scope, "date")) + ")"
			}
		}
		if f != "" {
			return f
		}
	}
	switch k {
	case "int":
		switch g.n(5) {
		case 0:
			return x + " + 1"
		case 1:
			return "coalesce(" + x + ", " + g.lit(c) + ")"
		case 2:
			return "CASE WHEN " + g.cond(scope, 1) + " THEN " + g.lit(c) + " ELSE " + x + " END"
		}
	case "str":
		switch g.n(6) {
		case 0:
			return x + " || " + draw.SQLString(pick(g.rnd, []string{"x", "", "-"}))
		case 1:
			if ints := same(scope, "int"); len(ints) > 0 {
				return "'k' || " + pick(g.rnd, ints) + "::text"
			}
		case 2:
			if us := same(scope, "uuid"); len(us) > 0 {
				return "CAST(" + pick(g.rnd, us) + " AS text)"
			}
		case 3:
			return "coalesce(" + x + ", " + g.lit(c) + ")"
		case 4:
			return "lower(" + x + ")"
		}
	case "bool":
		if g.chance(0.3) {
			return "NOT " + x
		}
	}
	return x
}

// cond draws a condition over scope (the innermost table first).
func (g *dataGen) cond(scope []ref, depth int) string {
	if depth > 0 && g.chance(0.4) {
		switch g.n(6) {
		case 0:
			return "(" + g.cond(scope, depth-1) + " AND " + g.cond(scope, depth-1) + ")"
		case 1:
			return "(" + g.cond(scope, depth-1) + " OR " + g.cond(scope, depth-1) + ")"
		case 2:
			return "NOT (" + g.cond(scope, depth-1) + ")"
		case 3:
			// AND in an order both databases keep, which the checker takes
			// around a cast that can fail (datamig's unorderedFailures).
			return "CASE WHEN " + g.cond(scope, depth-1) + " THEN " + g.cond(scope, depth-1) + " ELSE false END"
		default:
			return g.subquery(scope, depth-1)
		}
	}
	r := scope[0]
	if len(scope) > 1 && g.chance(0.3) {
		r = pick(g.rnd, scope)
	}
	c := pick(g.rnd, r.t.Cols)
	x := r.col(c)
	k := colClass(c)
	if k == "other" || g.chance(0.15) {
		return x + pick(g.rnd, []string{" IS NULL", " IS NOT NULL"})
	}
	switch g.n(8) {
	case 6:
		switch k {
		case "str":
			if g.m.ExactStrings == "false" {
				break
			}
			return "char_length(" + g.strFunc(x, scope) + ")" + pick(g.rnd, []string{" > 1", " = 0", " < 3"})
		case "int":
			return g.intFunc(x, scope) + pick(g.rnd, []string{" > 1", " = 0", " < 3"})
		case "timestamp":
			return g.timeFunc(x, scope) + pick(g.rnd, []string{" > ", " <= "}) + x
		}
	case 0:
		if others := slices.DeleteFunc(same(scope, k), func(s string) bool { return s == x }); len(others) > 0 {
			return x + pick(g.rnd, []string{" = ", " <> ", " IS DISTINCT FROM ", " IS NOT DISTINCT FROM "}) + pick(g.rnd, others)
		}
	case 1:
		return x + " IS DISTINCT FROM " + g.lit(c)
	case 2:
		if k == "bool" {
			return x
		}
		return x + pick(g.rnd, []string{" < ", " >= "}) + g.lit(c)
	case 3:
		if k == "timestamp" {
			return x + " < now()"
		}
		if k == "str" {
			return x + " || 'x' = " + g.lit(c) + " || 'x'"
		}
		if k == "int" {
			return x + "::text = '1'"
		}
	case 4:
		return "coalesce(" + x + ", " + g.lit(c) + ") = " + g.lit(c)
	case 5:
		return "CASE WHEN " + x + " IS NULL THEN 0 ELSE 1 END = 1"
	}
	return x + pick(g.rnd, []string{" = ", " <> "}) + g.lit(c)
}

// subquery draws [NOT] EXISTS or [NOT] IN over a table, correlated with
// the scope when the classes allow.
func (g *dataGen) subquery(scope []ref, depth int) string {
	u := g.alias(pick(g.rnd, g.m.Tables))
	inner := append([]ref{u}, scope...)
	where := ""
	// Correlate a column of u with one of the scope of the same class.
	for range 4 {
		c := pick(g.rnd, u.t.Cols)
		if k := colClass(c); k != "other" {
			if outer := same(scope, k); len(outer) > 0 {
				where = u.col(c) + " = " + pick(g.rnd, outer)
				break
			}
		}
	}
	if where == "" || g.chance(0.3) {
		w := g.cond(inner, depth)
		if where == "" {
			where = w
		} else {
			where += " AND " + w
		}
	}
	from := " FROM " + dq(u.t.Name) + " " + dq(u.alias) + " WHERE " + where
	if g.chance(0.4) {
		c := pick(g.rnd, u.t.Cols)
		if k := colClass(c); k != "other" {
			if outer := same(scope, k); len(outer) > 0 {
				not := pick(g.rnd, []string{"", "NOT "})
				return pick(g.rnd, outer) + " " + not + "IN (SELECT " + u.col(c) + from + ")"
			}
		}
	}
	return pick(g.rnd, []string{"", "NOT "}) + "EXISTS (SELECT 1" + from + ")"
}

// from draws FROM t [JOIN u ON ...] and returns its text and scope.
// single joins only on the joined table's whole primary key, so that a
// row of t meets at most one row of u.
func (g *dataGen) from(t *difftest.Table, single bool) (string, []ref) {
	r := g.alias(t)
	text := dq(t.Name) + " " + dq(r.alias)
	scope := []ref{r}
	if g.chance(0.4) {
		u := g.alias(pick(g.rnd, g.m.Tables))
		var on []string
		for _, pk := range u.t.PK {
			pc := u.t.Col(pk)
			var cands []string
			for _, c := range t.Cols {
				if c.Type.String() == pc.Type.String() && comparable(c, pc) {
					cands = append(cands, r.col(c))
				}
			}
			if len(cands) == 0 {
				on = nil
				break
			}
			on = append(on, u.col(pc)+" = "+pick(g.rnd, cands))
		}
		if !single && len(on) == 0 {
			on = []string{g.cond([]ref{u, r}, 0)}
		}
		if len(on) > 0 {
			join := pick(g.rnd, []string{" JOIN ", " LEFT JOIN ", " INNER JOIN "})
			text += join + dq(u.t.Name) + " " + dq(u.alias) + " ON " + strings.Join(on, " AND ")
			scope = append(scope, u)
		}
	}
	return text, scope
}

func (g *dataGen) stmt() string {
	t := pick(g.rnd, g.m.Tables)
	switch g.n(12) {
	case 8, 9:
		if s := g.updateFrom(t); s != "" {
			return s
		}
		return g.update(t)
	case 10, 11:
		if s := g.batched(t); s != "" {
			return s
		}
		return g.update(t)
	case 0, 1, 2:
		return g.insert(t)
	case 3, 4:
		return g.update(t)
	case 5:
		return "DELETE FROM " + dq(t.Name) + " WHERE " + g.cond([]ref{{t, t.Name}}, 2)
	default:
		from, scope := g.from(t, false)
		return "ASSERT NOT EXISTS (SELECT 1 FROM " + from + " WHERE " + g.cond(scope, 2) + ") MESSAGE " + draw.SQLString(fmt.Sprintf("guard %d: it's found", g.aliases))
	}
}

// insert draws INSERT INTO t (...) SELECT ... . With ON CONFLICT DO
// NOTHING, which of two rows of the query with one key is kept depends on
// the order each database produces them in, on PostgreSQL alone too: the
// query then gives one row (a source filtered by its whole primary key),
// or rows that are all alike (literals only).
func (g *dataGen) insert(t *difftest.Table) string {
	var cols []*difftest.Col
	for _, c := range t.Cols {
		if c.As != "" {
			continue // the database computes it
		}
		if c.Unordered && !g.chance(0.05) {
			// TiDB's AUTO_RANDOM takes no value: the checker refuses it
			// (drawn now and then, to see the refusal).
			continue
		}
		if slices.Contains(t.PK, c.Name) || !c.Null && c.Default == "" || g.chance(0.5) {
			cols = append(cols, c)
		}
	}
	src := pick(g.rnd, g.m.Tables)
	doNothing := g.chance(0.5)
	literals := doNothing && (g.chance(0.3) || !pinnable(src))
	from, scope := g.from(src, doNothing)
	var where string
	if doNothing && !literals {
		var keyConds []string
		for _, pk := range src.PK {
			keyConds = append(keyConds, scope[0].col(src.Col(pk))+" = "+g.lit(src.Col(pk)))
		}
		where = strings.Join(keyConds, " AND ")
	} else if g.chance(0.6) {
		where = g.cond(scope, 1)
	}
	items := make([]string, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = dq(c.Name)
		if literals {
			items[i] = g.lit(c)
		} else {
			items[i] = g.value(c, scope)
		}
	}
	s := "INSERT INTO " + dq(t.Name) + " (" + strings.Join(names, ", ") + ") SELECT " + strings.Join(items, ", ") + " FROM " + from
	if where != "" {
		s += " WHERE " + where
	}
	if doNothing {
		s += " ON CONFLICT DO NOTHING"
	}
	return s
}

// update draws UPDATE t SET ... WHERE .... A key column is set only on one
// row (the WHERE names its whole primary key): PostgreSQL checks unique
// keys row by row, in an order of its own, so UPDATE t SET id = id + 1
// may fail there alone.
func (g *dataGen) update(t *difftest.Table) string {
	self := []ref{{t, t.Name}}
	var sets []string
	used := map[string]bool{}
	keyed := false
	for range 1 + g.n(2) {
		c := pick(g.rnd, t.Cols)
		for tries := 0; c.As != "" && tries < 5; tries++ {
			c = pick(g.rnd, t.Cols) // a generated column is the database's
		}
		if used[c.Name] || c.As != "" {
			continue
		}
		used[c.Name] = true
		if g.keyCol(t, c.Name) {
			keyed = true
		}
		sets = append(sets, dq(c.Name)+" = "+g.value(c, self))
	}
	where := g.cond(self, 2)
	if keyed && !pinnable(t) {
		// No literal finds the same row on both: its key is ids each
		// database gives by itself. The statement is drawn on no row.
		where = self[0].col(t.Col(t.PK[0])) + " IS NULL"
	} else if keyed {
		var keyConds []string
		for _, pk := range t.PK {
			keyConds = append(keyConds, self[0].col(t.Col(pk))+" = "+g.lit(t.Col(pk)))
		}
		where = strings.Join(keyConds, " AND ")
	}
	return "UPDATE " + dq(t.Name) + " SET " + strings.Join(onUpdateSets(g.m, t, sets), ", ") + " WHERE " + where
}

// onUpdateSets drops from sets (`"col" = value`, over t's columns) the
// columns set beside other columns to a value other than their own whose
// value kept is done differently by the databases: on a row whose column
// holds that value already (the literals come from a small domain, NULL
// too), an on_update = now() column is kept by TiDB and given now() by
// PostgreSQL's trigger, and a column a foreign key of m references with
// on_update = set_null or set_default has the key's action run by TiDB
// and not by PostgreSQL; documented differences (docs/semantics.md) the
// oracles must not draw. Set to their own value, they stay: the checker
// refuses that (plan oracle seed 61616, evolution 61616184896; seed 92929,
// evolution 92929278866). At least one assignment is kept.
func onUpdateSets(m *difftest.Model, t *difftest.Table, sets []string) []string {
	if len(sets) < 2 {
		return sets
	}
	var out []string
	for _, s := range sets {
		c := t.Col(strings.Trim(s[:strings.Index(s, `" = `)+1], `"`))
		if c == nil || !c.OnUpdate && !actionOnUpdate(m, t.Name, c.Name) || s == dq(c.Name)+" = "+dq(t.Name)+"."+dq(c.Name) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return sets[:1]
	}
	return out
}

// actionOnUpdate reports whether a foreign key of m references column of
// table with on_update = set_null or set_default.
func actionOnUpdate(m *difftest.Model, table, column string) bool {
	for _, t := range m.Tables {
		for _, fk := range t.FKs {
			if fk.RefTable == table && (fk.OnUpdate == "set_null" || fk.OnUpdate == "set_default") && slices.Contains(fk.RefCols, column) {
				return true
			}
		}
	}
	return false
}

// pinnable reports whether a literal of each primary key column of t
// finds the same row on both databases. An identity whose ids each
// database gives by itself (ordered = false, TiDB's AUTO_RANDOM, or a
// cache of more than one) holds different values on the two by design
// (docs/data-migrations.md), so no literal, nor another column's value,
// finds the same rows on both by it (model seed 58585175815): the
// generator compares such a column only with itself.
func pinnable(t *difftest.Table) bool {
	for _, pk := range t.PK {
		if t.Col(pk).OwnIDs() {
			return false
		}
	}
	return true
}

// comparable reports whether comparing columns a and b finds the same rows
// on both databases: not when one has ids of its own, unless both are it.
func comparable(a, b *difftest.Col) bool {
	return a == b || !a.OwnIDs() && !b.OwnIDs()
}

// keyCol reports whether a unique key, unique index or foreign key of t
// (or of a table referencing t) covers column name.
func (g *dataGen) keyCol(t *difftest.Table, name string) bool {
	if slices.Contains(t.PK, name) {
		return true
	}
	for _, u := range t.Uniques {
		if slices.Contains(u.Cols, name) {
			return true
		}
	}
	for _, x := range t.Indexes {
		if x.Unique {
			return true // expression parts may cover it
		}
	}
	return false
}
