// Package draw is the differential tester's generator: from one seed it
// draws random models over the whole language (Random, Gen.Model), the
// statements run on them (keys from a small domain so that they collide,
// values from each type's edges), and portable data migrations
// (DataMigrations). Forms is the fixed model of every generated-column and
// expression form.
//
// It stands alone because drawing is the one part the other oracles share
// (internal/plantest draws its edits with Gen) and the one part that needs
// no database: the model it draws and the runner that applies it live in
// package difftest, which knows nothing of how models are drawn.
package draw

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/internal/difftest"
)

// rnd draws random models and statements from one seed.
type rnd struct {
	r *rand.Rand
}

func newRnd(seed uint64) *rnd { return &rnd{r: rand.New(rand.NewPCG(seed, 0x5eed))} }

func (g *rnd) n(k int) int           { return g.r.IntN(k) }
func (g *rnd) chance(p float64) bool { return g.r.Float64() < p }
func pick[T any](g *rnd, xs []T) T   { return xs[g.r.IntN(len(xs))] }

// columnTypes are neutral types with edge parameters.
var columnTypes = []difftest.Type{
	{Name: "uuid", Args: nil}, {Name: "text", Args: nil}, {Name: "varchar", Args: []int{1}}, {Name: "varchar", Args: []int{5}}, {Name: "varchar", Args: []int{255}},
	{Name: "varchar", Args: []int{1000}}, {Name: "char", Args: []int{1}}, {Name: "char", Args: []int{5}}, {Name: "char", Args: []int{255}},
	{Name: "smallint", Args: nil}, {Name: "int", Args: nil}, {Name: "bigint", Args: nil}, {Name: "bool", Args: nil}, {Name: "double", Args: nil},
	{Name: "decimal", Args: []int{1, 0}}, {Name: "decimal", Args: []int{5, 2}}, {Name: "decimal", Args: []int{65, 30}}, {Name: "decimal", Args: []int{3, 3}},
	{Name: "timestamp", Args: nil}, {Name: "timestamp", Args: []int{0}}, {Name: "timestamp", Args: []int{6}}, {Name: "date", Args: nil},
	{Name: "json", Args: nil}, {Name: "bytes", Args: nil},
	{Name: "float", Args: nil}, {Name: "time", Args: nil}, {Name: "time", Args: []int{0}}, {Name: "datetime", Args: nil}, {Name: "datetime", Args: []int{3}},
}

// keyTypes may be in a primary key or a foreign key.
var keyTypes = []difftest.Type{
	{Name: "int", Args: nil}, {Name: "bigint", Args: nil}, {Name: "smallint", Args: nil}, {Name: "varchar", Args: []int{10}}, {Name: "uuid", Args: nil},
	{Name: "char", Args: []int{3}}, {Name: "decimal", Args: []int{5, 2}}, {Name: "date", Args: nil},
}

// limitTypes are types at and just past a database's limit (TiDB's
// varchar 16383, char 255, decimal 65 and 30): the compiler must refuse
// what a database refuses.
var limitTypes = []difftest.Type{
	{Name: "varchar", Args: []int{4000}}, {Name: "varchar", Args: []int{16383}}, {Name: "varchar", Args: []int{16384}}, {Name: "char", Args: []int{256}},
	{Name: "decimal", Args: []int{66, 0}}, {Name: "decimal", Args: []int{40, 31}}, {Name: "varchar", Args: []int{10485761}},
}

// settings are the values a model may write for each TiDB setting; ""
// leaves it out, as a model without a dialect block does.
// The default is drawn for half of each setting.
var settings = []string{"", "", "true", "false"}

// comments are column and table comments, some at and past TiDB's limits
// (1024 and 2048 bytes; 'é' is two bytes), some quoting what SQL quotes.
var comments = []string{"a note", "it's ü", strings.Repeat("é", 512), strings.Repeat("é", 513), strings.Repeat("x", 1024), strings.Repeat("x", 1025),
	strings.Repeat("x", 2048), strings.Repeat("x", 2049),
	// Texts that quote and escape differently in each dialect's SQL (TiDB's
	// COMMENT "..." was read as an identifier by migrate lint).
	`say "hi"`, `a \ b`, `-- not a comment`, `# nor this`, `/* x */`, "two\nlines", `"`}

var actions = []string{"", "cascade", "restrict", "set_null", "set_default", "no_action"}

// Model draws a random model.
func (g *rnd) Model() *difftest.Model {
	// Each setting left out (the default), on or off: values a setting
	// that is off leaves different are drawn only in a Full survey
	// (Model.Differs).
	m := &difftest.Model{UUIDCheck: pick(g, settings), ExactStrings: pick(g, settings), ValueDomains: pick(g, settings)}
	nt := 1 + g.n(3)
	for i := range nt {
		t := &difftest.Table{Name: fmt.Sprintf("t%d", i)}
		if g.chance(0.08) {
			t.Comment = pick(g, comments)
		}
		if g.chance(0.05) {
			t.Name = pick(g, []string{"T", "Tab", "a b", "sel ect", "ü"}) + fmt.Sprint(i)
		}
		npk := 1
		if g.chance(0.25) {
			npk = 2
		}
		for k := range npk {
			t.Cols = append(t.Cols, &difftest.Col{Name: fmt.Sprintf("id%d", k), Type: pick(g, keyTypes)})
			t.PK = append(t.PK, fmt.Sprintf("id%d", k))
		}
		for k := range 1 + g.n(5) {
			c := &difftest.Col{Name: fmt.Sprintf("c%d", k), Type: pick(g, columnTypes), Null: g.chance(0.5)}
			if g.chance(0.03) {
				c.Type = pick(g, limitTypes)
			}
			if g.chance(0.05) {
				c.Comment = pick(g, comments)
			}
			if g.chance(0.05) {
				c.Name = pick(g, []string{"C", "Col", "select", "x y"}) + fmt.Sprint(k)
			}
			if g.chance(0.3) && (!slices.Contains([]string{"text", "json", "bytes"}, c.Type.Name) || g.chance(0.1)) {
				c.Default = g.defaultFor(c.Type)
			}
			c.Override = g.columnOverride(c.Type)
			t.Cols = append(t.Cols, c)
		}
		// Foreign keys to an earlier table, over new columns of the key's
		// types: to its primary key or a unique key, their columns now
		// and then in another order than the key's.
		if i > 0 && g.chance(0.8) {
			parent := m.Tables[g.n(i)]
			null := g.chance(0.6)
			ref := parent.PK
			if len(parent.Uniques) > 0 && g.chance(0.4) {
				u := &parent.Uniques[g.n(len(parent.Uniques))]
				ref = u.Cols
				if g.chance(0.1) {
					// A key left out of one database, which then has no
					// key for the foreign key: the compiler must refuse it.
					u.Override = pick(g, []string{"tidb", "postgres"}) + " {\n  skip = true\n}"
				}
			}
			if len(ref) > 1 && g.chance(0.5) {
				ref = slices.Clone(ref)
				slices.Reverse(ref)
			}
			fk := difftest.FK{Name: fmt.Sprintf("%s_fk%d", t.Name, len(t.FKs)), RefTable: parent.Name, RefCols: ref,
				OnDelete: g.action(null), OnUpdate: g.action(null)}
			for k, rc := range ref {
				name := fmt.Sprintf("f%d", k)
				c := &difftest.Col{Name: name, Type: parent.Col(rc).Type, Null: null}
				if g.chance(0.1) {
					c.Default = g.defaultFor(c.Type)
				}
				t.Cols = append(t.Cols, c)
				fk.Cols = append(fk.Cols, name)
			}
			t.FKs = append(t.FKs, fk)
		}
		for k := range g.n(3) {
			ck := difftest.Check{Name: fmt.Sprintf("%s_ck%d", t.Name, k), Expr: g.boolExpr(t, 2)}
			if g.chance(0.1) {
				// A live database's own name for the check in one dialect.
				ck.Override = fmt.Sprintf("%s {\n  name = %q\n}", pick(g, []string{"postgres", "tidb"}), ck.Name+"_own")
			}
			t.Checks = append(t.Checks, ck)
		}
		// Names that clash on one database only: the compiler must refuse them.
		if g.chance(0.03) && len(t.Checks) > 0 {
			t.Checks[0].Name = pick(g, []string{"shared_ck", t.Name + "_ix0", strings.ToUpper(t.Name) + "_CK0"})
		}
		if last := t.Cols[len(t.Cols)-1].Name; g.chance(0.02) && strings.ToUpper(last) != last {
			t.Cols = append(t.Cols, &difftest.Col{Name: strings.ToUpper(last), Type: difftest.Type{Name: "int", Args: nil}, Null: true})
		}
		if g.chance(0.3) {
			var cols []string
			for _, c := range g.some(t.Cols, 2) {
				cols = append(cols, c.Name)
			}
			t.Uniques = append(t.Uniques, difftest.Unique{Name: t.Name + "_uq", Cols: cols})
		}
		for k := range g.n(3) {
			t.Indexes = append(t.Indexes, g.index(t, fmt.Sprintf("%s_ix%d", t.Name, k)))
		}
		// A unique key over a now() default depends on when each database
		// runs the statement (two rows in one second collide on
		// timestamp(0)), on either database alone: not drawn.
		now := func(cols []string) bool {
			return slices.ContainsFunc(cols, func(n string) bool { c := t.Col(n); return c != nil && c.Default == "now()" })
		}
		t.Uniques = slices.DeleteFunc(t.Uniques, func(u difftest.Unique) bool { return now(u.Cols) })
		t.Indexes = slices.DeleteFunc(t.Indexes, func(x difftest.Index) bool { return x.Unique && now(x.Cols) })
		g.identity(t)
		g.limits(t)
		g.tree(t)
		m.Tables = append(m.Tables, t)
	}
	return m
}

// identity now and then makes an integer column the database numbers: the
// first key column, else another, perhaps from a start; rarely one the
// compiler must refuse (a nullable or text column, a second identity).
func (g *rnd) identity(t *difftest.Table) {
	if !g.chance(0.2) {
		return
	}
	c := t.Cols[0]
	if g.chance(0.3) {
		c = pick(g, t.Cols)
	}
	integer := slices.Contains([]string{"smallint", "int", "bigint"}, c.Type.Name)
	if (!integer || c.Null || c.Default != "") && !g.chance(0.1) {
		return
	}
	c.Identity = true
	if g.chance(0.3) {
		c.IdentityStart = pick(g, []int64{2, 100, 32767, 32768, 2147483647, 9223372036854775807})
	}
	if g.chance(0.03) {
		for _, o := range t.Cols {
			if o != c && slices.Contains([]string{"smallint", "int", "bigint"}, o.Type.Name) {
				o.Identity = true
				break
			}
		}
	}
}

// limits now and then takes t to a database's limit or just past it: its
// columns (TiDB 1017, PostgreSQL 1600), its indexes (TiDB 64) and the
// columns of one index (TiDB 16, PostgreSQL 32). Such columns are named w*,
// such indexes *_many*, so that shrinking drops them at once.
func (g *rnd) limits(t *difftest.Table) {
	switch k := g.n(400); {
	case k < 2:
		n := pick(g, []int{1017, 1018, 1600, 1601}) - len(t.Cols)
		for i := range n {
			t.Cols = append(t.Cols, &difftest.Col{Name: fmt.Sprintf("w%d", i), Type: difftest.Type{Name: "int", Args: nil}, Null: true})
		}
	case k < 4:
		n := pick(g, []int{63, 64, 65}) - 1 - len(t.Uniques) - len(t.Indexes) - len(t.FKs)
		for i := range max(n, 0) {
			t.Indexes = append(t.Indexes, difftest.Index{Name: fmt.Sprintf("%s_many%d", t.Name, i), Cols: []string{t.Cols[len(t.Cols)-1].Name}})
		}
	case k < 8:
		n := pick(g, []int{16, 17, 32, 33})
		idx := difftest.Index{Name: t.Name + "_many_parts", Unique: g.chance(0.3)}
		for i := range n {
			t.Cols = append(t.Cols, &difftest.Col{Name: fmt.Sprintf("w%d", i), Type: difftest.Type{Name: "smallint", Args: nil}, Null: true})
			idx.Cols = append(idx.Cols, fmt.Sprintf("w%d", i))
		}
		t.Indexes = append(t.Indexes, idx)
	}
}

// tree now and then gives t a foreign key to its own primary key that
// cascades deletes (a tree of rows, as comments and folders are), so that
// statements can chain rows as deep as TiDB's cascade limit and past it
// (Stmts).
func (g *rnd) tree(t *difftest.Table) {
	if len(t.PK) != 1 || !g.chance(0.12) {
		return
	}
	pk := t.Col(t.PK[0])
	if !slices.Contains([]string{"smallint", "int", "bigint"}, pk.Type.Name) || pk.Identity || t.Col("up") != nil {
		return
	}
	t.Cols = append(t.Cols, &difftest.Col{Name: "up", Type: pk.Type, Null: true})
	t.FKs = append(t.FKs, difftest.FK{Name: t.Name + "_up_fk", RefTable: t.Name, RefCols: []string{pk.Name}, Cols: []string{"up"}, OnDelete: "cascade"})
}

// action draws a referential action, mostly one the model can have.
func (g *rnd) action(null bool) string {
	if g.chance(0.05) {
		return pick(g, actions)
	}
	if null && g.chance(0.3) {
		return "set_null"
	}
	return pick(g, []string{"", "cascade", "restrict", "no_action"})
}

func (g *rnd) some(cols []*difftest.Col, max int) []*difftest.Col {
	n := 1 + g.n(max)
	perm := g.r.Perm(len(cols))
	var out []*difftest.Col
	for _, i := range perm[:min(n, len(cols))] {
		out = append(out, cols[i])
	}
	return out
}

func (g *rnd) defaultFor(t difftest.Type) string {
	if t.Name == "timestamp" && g.chance(0.5) {
		return "now()"
	}
	if t.Name == "enum" {
		if g.chance(0.05) {
			return pick(g, []string{`"lost"`, `""`, `1`})
		}
		return difftest.String(pick(g, t.Values))
	}
	if g.chance(0.1) {
		return pick(g, []string{`"x"`, `1`, `true`, `1.5`, `""`})
	}
	v := pick(g, difftest.Edges(t))
	switch t.Name {
	case "smallint", "int", "bigint", "decimal", "double":
		return v.S
	case "bool":
		return v.S
	}
	return difftest.String(v.S)
}

// columnOverride sometimes gives a per-dialect override that keeps the meaning.
func (g *rnd) columnOverride(t difftest.Type) string {
	if !g.chance(0.1) {
		return ""
	}
	switch t.Name {
	case "text":
		return "postgres {\n  type = \"TEXT\"\n}"
	case "int":
		return "tidb {\n  type = \"INT\"\n}"
	case "varchar":
		return fmt.Sprintf("tidb {\n  type = varchar(%d)\n}", t.Args[0])
	}
	return ""
}

var regexes = []string{`^[a-z]*$`, `.`, `^a`, `a$`, `^.*$`, `[0-9]`, `^$`, `a|b`, `^(a|b)+$`,
	`[^a]`, `^.$`, `x{2,}`, `\.`, `[é]`, `a.b`, `[[:digit:]]`, `\d+`, `^[A-Za-z ]+$`, `é`, `^(ab|a)$`}

// atom is a boolean test of one column; now and then one the compiler
// must refuse.
func (g *rnd) atom(t *difftest.Table) string {
	bad := g.chance(0.05)
	c := pick(g, t.Cols)
	// TiDB refuses CHECKs on columns a referential action changes; draw
	// them rarely.
	for tries := 0; tries < 5 && !bad && actionColumn(t, c.Name); tries++ {
		c = pick(g, t.Cols)
	}
	n := difftest.QuoteIdent(c.Name)
	if g.chance(0.1) {
		if !c.Null && !bad {
			return n + " IS NOT NULL"
		}
		return n + pick(g, []string{" IS NULL", " IS NOT NULL"})
	}
	lit := func() string {
		v := pick(g, difftest.Edges(c.Type))
		for !bad && !literalFits(v, c.Type) {
			v = pick(g, difftest.Edges(c.Type))
		}
		return literal(v, c.Type)
	}
	good, wrong := atomForms(n, c.Type, lit, func() string { return pick(g, regexes) }, func() int { return 1 + g.n(6) })
	if bad {
		return pick(g, wrong)
	}
	return pick(g, good)
}

// literalFits reports whether v is a literal the generator writes for type
// t in a test it means to pass (not a refused one).
func literalFits(v difftest.Value, t difftest.Type) bool {
	if t.Name == "double" && difftest.Special(v.S) || t.Name == "bool" && v.S != "true" && v.S != "false" || strings.Contains(v.S, "infinity") || strings.HasSuffix(v.S, " BC") || strings.HasPrefix(v.S, "10000-") {
		return false // values, not literals of the language
	}
	if t.Name == "enum" {
		return slices.Contains(t.Values, v.S)
	}
	return !(strings.Contains(v.S, "e") && t.Name == "double") && expr.LiteralProblem(v.S, kinds[t.Name]) == ""
}

// literal writes v as a literal of the expression language for type t.
func literal(v difftest.Value, t difftest.Type) string {
	switch t.Name {
	case "smallint", "int", "bigint", "decimal", "double", "bool":
		return v.S
	}
	return sqlString(v.S)
}

// atomForms are the boolean tests of column n of type t that the generator
// draws: good ones, and wrong ones the compiler must refuse. lit and regex
// give the literals and patterns, chars a length (called in the order the
// forms are written, so that a seed draws the same model).
func atomForms(n string, t difftest.Type, lit, regex func() string, chars func() int) (good, wrong []string) {
	switch t.Name {
	case "smallint", "int", "bigint", "decimal", "double":
		good = []string{
			n + " > " + lit(), n + " <= " + lit(), n + " BETWEEN " + lit() + " AND " + lit(),
			n + " IN (" + lit() + ", " + lit() + ")", "abs(" + n + ") < " + lit(), n + " + 1 > " + lit(),
			n + " * 2 <> " + lit(), "-" + n + " < " + lit(), n + " - 1.5 >= 0", n + " IS DISTINCT FROM " + lit(),
			"coalesce(" + n + ", 0) >= " + lit(),
		}
		if t.Name != "double" {
			good = append(good, n+" % 2 = 0")
		}
		wrong = []string{n + " + 1", n + " = 'x'", n + " % 2 = 0"}
	case "bool":
		good = []string{n, "NOT " + n, n + " = true", n + " <> false", n + " IS NOT DISTINCT FROM false"}
		wrong = []string{n + " = 'b'", n + " + 1 > 0"}
	case "uuid":
		good = []string{n + " <> " + lit(), "char_length(" + n + ") = 36", n + " ~ '^[0-9a-f-]+$'", n + " > " + lit(), n + " LIKE 'a%'"}
		wrong = []string{n + " <> 'not-a-uuid'", n + " = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'"}
	case "timestamp":
		good = []string{n + " > '2000-01-01 00:00:00'", n + " >= " + lit(), n + " <> '2020-01-01'", n + " < '2020-06-15 10:20:30.5'"}
		wrong = []string{n + " < '2020-13-01 00:00:00'", n + " > 'yesterday'"}
	case "date":
		good = []string{n + " >= '1900-01-01'", n + " < " + lit(), n + " BETWEEN '2000-01-01' AND '2030-12-31'"}
		wrong = []string{n + " <> '2020-02-30'"}
	case "datetime":
		good = []string{n + " > '2000-01-01 00:00:00'", n + " >= " + lit(), n + " < '2020-06-15 10:20:30.5'"}
		wrong = []string{n + " < '2020-13-01 00:00:00'"}
	case "time":
		good = []string{n + " > '08:00:00'", n + " <= " + lit(), n + " BETWEEN '00:00:00' AND '12:30:00'"}
		wrong = []string{n + " < '25:00:00'", n + " > '-01:00:00'"}
	case "float":
		// Literals compare with a 4-byte float differently where they are
		// not one (0.1): only tests against 0.
		good = []string{n + " > 0", n + " IS NOT NULL", n + " <= 0"}
		wrong = []string{n + " = 'x'"}
	case "json":
		good = []string{"json_type(" + n + ") = 'object'", "json_type(" + n + ") IN ('array', 'object')",
			"json_type(" + n + ") <> 'null'", "json_type(" + n + ") NOT IN ('number', 'string')"}
		wrong = []string{n + " = '{}'"}
	case "bytes":
		good = []string{n + " IS NOT NULL"}
		wrong = []string{n + " = 'x'"}
	case "enum":
		// Equality with its values; an ordering comparison, a value it
		// lacks and a text function are refused.
		good = []string{n + " = " + lit(), n + " <> " + lit(), n + " IN (" + lit() + ", " + lit() + ")",
			n + " IS DISTINCT FROM " + lit(), "NOT (" + n + " = " + lit() + ")", "CAST(" + n + " AS text) = " + lit()}
		wrong = []string{n + " < " + lit(), n + " BETWEEN " + lit() + " AND " + lit(), n + " = 'lost'", "lower(" + n + ") = 'a'", n + " || 'x' <> 'x'"}
	default:
		good = []string{
			n + " <> ''", "char_length(" + n + ") <= " + fmt.Sprint(chars()), "lower(" + n + ") = " + lit(), "upper(" + n + ") <> " + lit(),
			n + " || 'x' <> 'ax'", n + " IN (" + lit() + ", " + lit() + ")", n + " IS DISTINCT FROM " + lit(), n + " = " + lit(),
			n + " > " + lit(), "coalesce(" + n + ", '') <> " + lit(),
		}
		// Regex and LIKE over char(n) see the padding on PostgreSQL only:
		// a documented difference, warned about, not drawn.
		if t.Name != "char" {
			good = append(good, n+" LIKE 'a%'", n+" NOT LIKE '%b'", n+" ~ "+sqlString(regex()), n+" !~ "+sqlString(regex()), n+" LIKE 'A_'")
		}
		wrong = []string{n + " ~ ''", n + " ~ '\\pL'", n + " + 1 > 0", n}
	}
	return good, wrong
}

// actionColumn reports whether a foreign key with an action TiDB writes
// (cascade, set_null) covers column name.
func actionColumn(t *difftest.Table, name string) bool {
	for _, fk := range t.FKs {
		if fk.OnDelete != "cascade" && fk.OnDelete != "set_null" && fk.OnUpdate != "cascade" && fk.OnUpdate != "set_null" {
			continue
		}
		if slices.Contains(fk.Cols, name) {
			return true
		}
	}
	return false
}

// kinds maps neutral type names to their kinds in expressions.
var kinds = map[string]expr.Kind{"uuid": expr.KindUUID, "date": expr.KindDate, "timestamp": expr.KindTime, "datetime": expr.KindTime, "time": expr.KindClock}

func (g *rnd) boolExpr(t *difftest.Table, depth int) string {
	if depth == 0 || g.chance(0.5) {
		return g.atom(t)
	}
	switch g.n(4) {
	case 0:
		return g.boolExpr(t, depth-1) + " AND " + g.boolExpr(t, depth-1)
	case 1:
		return "(" + g.boolExpr(t, depth-1) + " OR " + g.boolExpr(t, depth-1) + ")"
	case 2:
		return g.caseExpr(t, depth-1)
	}
	return "NOT (" + g.boolExpr(t, depth-1) + ")"
}

// caseExpr is a condition made with a searched CASE: of conditions (a NULL
// condition is not true, a missing ELSE is NULL, which a CHECK passes), or
// of integers compared with one.
func (g *rnd) caseExpr(t *difftest.Table, depth int) string {
	ints := g.chance(0.5)
	result := func(i int) string {
		if ints {
			return fmt.Sprint(i)
		}
		return g.boolExpr(t, depth)
	}
	s := "CASE"
	for i := range 1 + g.n(2) {
		s += " WHEN " + g.boolExpr(t, depth) + " THEN " + result(i+1)
	}
	if g.chance(0.7) {
		s += " ELSE " + result(0)
	}
	s += " END"
	if ints {
		return s + pick(g, []string{" = 1", " <> 2", " >= 1"})
	}
	return s
}

func (g *rnd) index(t *difftest.Table, name string) difftest.Index {
	idx := difftest.Index{Name: name, Unique: g.chance(0.4)}
	for _, c := range g.some(t.Cols, 2) {
		if g.chance(0.25) {
			ok := !g.chance(0.2) // else perhaps a function TiDB cannot index
			good, odd := partForms(difftest.QuoteIdent(c.Name), c.Type)
			forms := good
			if !ok {
				forms = odd
			}
			switch {
			case len(forms) == 0:
				idx.Cols = append(idx.Cols, c.Name)
			case len(forms) == 1:
				idx.Cols = append(idx.Cols, "expr:"+forms[0])
			default:
				idx.Cols = append(idx.Cols, "expr:"+pick(g, forms))
			}
			continue
		}
		idx.Cols = append(idx.Cols, c.Name)
	}
	if g.chance(0.2) || idx.Unique && g.chance(0.2) {
		idx.Where = g.atom(t)
		if idx.Unique && !strings.HasPrefix(idx.Cols[0], "expr:") && g.chance(0.3) {
			// The unique partial index TiDB keeps as a plain one: NULL-free
			// keys. Other predicates (the atom) are lowered on TiDB through
			// generated columns CASE WHEN <predicate> THEN <part> END.
			idx.Where = difftest.QuoteIdent(idx.Cols[0]) + " IS NOT NULL"
		}
		if g.chance(0.5) && !(idx.Unique && g.chance(0.5)) {
			idx.Where = difftest.QuoteIdent(strings.TrimPrefix(idx.Cols[0], "expr:")) + " IS NOT NULL"
			if strings.HasPrefix(idx.Cols[0], "expr:") {
				idx.Where = g.atom(t)
			}
		}
	}
	if g.chance(0.05) {
		idx.Using = pick(g, []string{"btree", "hash", "gin", "nonsense"})
	}
	if g.chance(0.05) {
		idx.Override = pick(g, []string{"postgres {\n  skip = true\n}", "tidb {\n  skip = true\n}"})
		// An index in one dialect only is a difference the model asks for
		// when it rejects rows: a unique one, or one whose key computes
		// arithmetic that can overflow (seed 7, model 7000189: c0 + 1).
		if idx.Unique || slices.ContainsFunc(idx.Cols, func(c string) bool {
			return strings.HasPrefix(c, "expr:") && (strings.Contains(c, " + ") || strings.Contains(c, "abs("))
		}) {
			idx.Override = ""
		}
	} else if g.chance(0.05) {
		idx.Override = fmt.Sprintf("tidb {\n  name = %q\n}", idx.Name+"_own")
	}
	return idx
}

// partForms are the expressions the generator indexes over column n of
// type t: good ones, and odd ones (perhaps a function TiDB cannot index);
// none when it indexes the column itself.
func partForms(n string, t difftest.Type) (good, odd []string) {
	switch t.Name {
	case "text", "varchar", "char":
		return []string{"lower(" + n + ")", "upper(" + n + ")", "CASE WHEN " + n + " = '' THEN 1 ELSE 0 END"}, []string{"char_length(" + n + ")", n + " || 'x'", "coalesce(" + n + ", '')", "CASE WHEN " + n + " LIKE 'a%' THEN " + n + " END"}
	case "smallint", "int", "bigint", "decimal":
		return []string{n + " + 1", "CASE WHEN " + n + " > 0 THEN 1 WHEN " + n + " < 0 THEN -1 ELSE 0 END"}, []string{"abs(" + n + ")", "coalesce(" + n + ", 0)", "CASE WHEN " + n + " > 0 THEN " + n + " ELSE 0 END"}
	case "json":
		return []string{"json_type(" + n + ") = 'object'", "CASE WHEN json_type(" + n + ") = 'object' THEN 1 ELSE 0 END"}, []string{"json_type(" + n + ") = 'object'"}
	case "bool":
		return []string{"CASE WHEN " + n + " THEN 1 ELSE 0 END"}, []string{"CASE WHEN " + n + " THEN 1 END"}
	case "uuid", "date", "timestamp":
		return []string{"CASE WHEN " + n + " IS NULL THEN 0 ELSE 1 END"}, []string{"CASE WHEN " + n + " IS NULL THEN 0 ELSE 1 END"}
	}
	return nil, nil
}

// sqlString quotes a string literal of the expression language.
func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Random draws the model and n statements of one seed.
func Random(seed uint64, n int) (*difftest.Model, []difftest.Stmt) {
	g := newRnd(seed)
	m := g.Model()
	stmts := g.Stmts(m, n)
	// Vectors are drawn by a generator of their own, so that the rest of
	// each seed's model and statements stays as it was.
	newRnd(seed^0x7ec7).vectors(m, stmts)
	// So are issue 19's everyday kinds (everyday.go).
	newRnd(seed^0xe7e1).everyday(m, stmts)
	// Enums likewise.
	newRnd(seed^0xe1a0).enums(m, stmts)
	// And index comments (issue 32).
	newRnd(seed ^ 0xc033).indexComments(m)
	// And the identities' key options (issue 33).
	stmts = newRnd(seed^0xa17d).keyOptions(m, stmts)
	// And per-dialect null and primary key names (issue 31).
	newRnd(seed^0x3131).importedSides(m, stmts)
	// And TTL (issue 33).
	newRnd(seed ^ 0x7711).ttls(m)
	// And partitions.
	newRnd(seed ^ 0x9a27).partitions(m)
	// And the index options (issue 33).
	newRnd(seed ^ 0x1d0b).indexOptions(m)
	return m, stmts
}

// importedSides draws what import writes where two databases disagree: a
// NOT NULL column nullable in one dialect's block (tidb { null = true }),
// and a primary key named otherwise than the table (a renamed table kept
// its key's name). The column is one that every statement gives a value
// other than NULL: a NULL would be taken by one database and refused by
// the other, which is the meaning the model gives it, not a disagreement.
func (g *rnd) importedSides(m *difftest.Model, stmts []difftest.Stmt) {
	for _, t := range m.Tables {
		if len(t.PK) > 0 && g.chance(0.1) {
			t.PKName = t.Name + "_was_pkey"
		}
		if !g.chance(0.2) {
			continue
		}
		var cols []*difftest.Col
		for _, c := range t.Cols {
			if !c.Null && !c.Identity && c.As == "" && c.Override == "" && !slices.Contains(t.PK, c.Name) && neverNull(t, c.Name, stmts) {
				cols = append(cols, c)
			}
		}
		if len(cols) > 0 {
			pick(g, cols).Override = pick(g, []string{"postgres", "tidb"}) + " {\n  null = true\n}"
		}
	}
}

// neverNull reports whether every statement on t gives column col a value
// other than NULL: each insert names it, and no insert or update sets it
// to NULL.
func neverNull(t *difftest.Table, col string, stmts []difftest.Stmt) bool {
	for _, s := range stmts {
		if s.Table != t.Name || s.Kind == "delete" {
			continue
		}
		i := slices.Index(s.Cols, col)
		if i < 0 && s.Kind == "insert" || i >= 0 && s.Vals[i].Null {
			return false
		}
	}
	return true
}

// indexComments gives some indexes a comment, over TiDB's limit too (the
// model is then refused where TiDB would refuse the DDL, 1688).
func (g *rnd) indexComments(m *difftest.Model) {
	for _, t := range m.Tables {
		for i := range t.Indexes {
			if g.chance(0.1) {
				t.Indexes[i].Comment = pick(g, comments)
			}
		}
	}
}

// enumValues are the values the enums draw from: plain labels, labels in
// upper and mixed case, with a space, a quote and an accent.
var enumValues = [][]string{
	{"pending", "paid", "shipped", "cancelled"},
	{"b", "a", "c"},
	{"LOW", "Mid", "high"},
	{"it's", "a b", "é", "z"},
	{"x"},
}

// badEnums are value lists the compiler must refuse: a duplicate, values
// that differ in case only, the empty value, a trailing space.
var badEnums = [][]string{{"a", "b", "a"}, {"a", "A"}, {"a", ""}, {"a", "b "}}

// enums sometimes declares an enum and gives it to a new column of one or
// two tables, which inserts fill, updates set and CHECKs and indexes use;
// now and then the column is the second part of a unique index, or a key
// (enumKeys).
func (g *rnd) enums(m *difftest.Model, stmts []difftest.Stmt) {
	if !g.chance(0.3) {
		return
	}
	e := difftest.Enum{Name: "e0", Values: pick(g, enumValues)}
	if g.chance(0.05) {
		e.Values = pick(g, badEnums)
	}
	m.Enums = append(m.Enums, e)
	typ := difftest.Type{Name: "enum", Enum: e.Name, Values: e.Values}
	tables := []*difftest.Table{pick(g, m.Tables)}
	if len(m.Tables) > 1 && g.chance(0.5) {
		if other := pick(g, m.Tables); other != tables[0] {
			tables = append(tables, other)
		}
	}
	for _, t := range tables {
		c := &difftest.Col{Name: "st", Type: typ, Null: g.chance(0.5)}
		if g.chance(0.4) {
			c.Default = g.defaultFor(typ)
		}
		t.Cols = append(t.Cols, c)
		if g.chance(0.5) {
			lit := func() string {
				v := pick(g, difftest.Edges(typ))
				for !literalFits(v, typ) {
					v = pick(g, difftest.Edges(typ))
				}
				return literal(v, typ)
			}
			good, wrong := atomForms("st", typ, lit, nil, nil)
			ck := pick(g, good)
			if g.chance(0.1) {
				ck = pick(g, wrong)
			}
			t.Checks = append(t.Checks, difftest.Check{Name: t.Name + "_st_ck", Expr: ck})
		}
		if g.chance(0.3) {
			idx := difftest.Index{Name: t.Name + "_st_ix", Cols: []string{"st"}}
			if g.chance(0.3) {
				idx.Cols = append(idx.Cols, t.PK[0])
				idx.Unique = true
			}
			t.Indexes = append(t.Indexes, idx)
		}
		for i := range stmts {
			s := &stmts[i]
			if s.Table != t.Name || s.Kind == "delete" {
				continue
			}
			switch {
			// An INSERT that leaves out a NOT NULL enum column without a
			// default is a documented difference (TiDB writes the first
			// value): such a column is always written.
			case s.Kind == "insert" && (g.chance(0.8) || !c.Null && c.Default == ""):
				s.Cols = append(s.Cols, c.Name)
				s.Vals = append(s.Vals, g.enumValue(c))
			case s.Kind == "update" && g.chance(0.3):
				s.Cols, s.Vals = []string{c.Name}, []difftest.Value{g.enumValue(c)}
			}
		}
	}
	g.enumKeys(m, tables)
	// enumKeys may have made a column NOT NULL after the statements were
	// drawn: it is written in every INSERT then too.
	for _, t := range tables {
		c := t.Col("st")
		for i := range stmts {
			if s := &stmts[i]; s.Table == t.Name && s.Kind == "insert" && !c.Null && c.Default == "" && !slices.Contains(s.Cols, c.Name) {
				s.Cols = append(s.Cols, c.Name)
				s.Vals = append(s.Vals, g.enumValue(c))
			}
		}
	}
}

// enumKeys now and then makes the enum column a key: the last part of the
// primary key of a table no foreign key references, or a unique key that a
// foreign key over the second table's enum column references, with its
// actions (rows are then compared by values PostgreSQL and TiDB order and
// cascade by the enum's declared order and labels).
func (g *rnd) enumKeys(m *difftest.Model, tables []*difftest.Table) {
	referenced := func(t *difftest.Table) bool {
		for _, o := range m.Tables {
			for _, fk := range o.FKs {
				if fk.RefTable == t.Name {
					return true
				}
			}
		}
		return false
	}
	p := tables[0]
	switch k := g.n(4); {
	case k == 0 && !referenced(p):
		p.Col("st").Null = false
		p.PK = append(slices.Clone(p.PK), "st")
	case k == 1 && len(tables) == 2:
		ch := tables[1]
		p.Col("st").Null = false
		p.Uniques = append(p.Uniques, difftest.Unique{Name: p.Name + "_st_key", Cols: []string{"st"}})
		null := ch.Col("st").Null
		ch.FKs = append(ch.FKs, difftest.FK{Name: ch.Name + "_st_fk", Cols: []string{"st"}, RefTable: p.Name, RefCols: []string{"st"},
			OnDelete: g.action(null), OnUpdate: g.action(null)})
	}
}

func (g *rnd) enumValue(c *difftest.Col) difftest.Value {
	if c.Null && g.chance(0.15) {
		return null()
	}
	// A label with a trailing space is a documented difference (TiDB
	// pads), drawn only in a Full survey (Model.Differs).
	vs := slices.DeleteFunc(difftest.Edges(c.Type), func(v difftest.Value) bool { return !difftest.Full && strings.HasSuffix(v.S, " ") })
	if g.chance(0.7) {
		vs = vals(c.Type.Values...)
	}
	return pick(g, vs)
}

// vectors sometimes adds to a table a vector column, with or without a
// dimension, that its inserts fill. pgvector cannot be installed here: the
// column is TEXT on PostgreSQL, and the values are well-formed vectors of
// its dimension, so that the rows compare. What is tested is TiDB's VECTOR:
// its DDL, and the values it stores and prints back.
func (g *rnd) vectors(m *difftest.Model, stmts []difftest.Stmt) {
	if !g.chance(0.2) {
		return
	}
	t := pick(g, m.Tables)
	c := &difftest.Col{Name: "vec", Type: pick(g, []difftest.Type{{Name: "vector", Args: nil}, {Name: "vector", Args: []int{3}}}), Null: true, Override: "postgres {\n  type = \"TEXT\"\n}"}
	t.Cols = append(t.Cols, c)
	for i := range stmts {
		if s := &stmts[i]; s.Table == t.Name && s.Kind == "insert" && g.chance(0.7) {
			s.Cols = append(s.Cols, c.Name)
			s.Vals = append(s.Vals, pick(g, vectorValues(c.Type)))
		}
	}
}

// vectorValues are well-formed vectors for type t: of its dimension, or of
// any for a vector without one.
func vectorValues(t difftest.Type) []difftest.Value {
	three := vals("[1,2,3]", "[0.5,-1,0]", "[0.1,1e-3,100000]", "[-0,2.25,3]")
	if len(t.Args) > 0 {
		return three
	}
	return append(three, vals("[1]", "[0.1,0.2]", "[1,2,3,4,5,6,7,8]")...)
}

func null() difftest.Value        { return difftest.Value{Null: true} }
func val(s string) difftest.Value { return difftest.Value{S: s} }
func vals(ss ...string) []difftest.Value {
	out := make([]difftest.Value, len(ss))
	for i, s := range ss {
		out[i] = val(s)
	}
	return out
}
