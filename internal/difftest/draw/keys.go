package draw

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/schemagen/schemagen/internal/difftest"
)

// keyOptions sometimes gives a table's identity the key options of issue
// 33: ordered = false (TiDB AUTO_RANDOM) on a bigint that leads the
// primary key, with shard bits and a range now and then, or a cache (TiDB
// AUTO_ID_CACHE). Rarely it draws one the compiler must refuse. Each
// database gives unordered ids of its own, so no foreign key, CHECK, index
// expression or generated column may read them, and the statements that
// name the column in their WHERE are dropped (the rows compared have the
// ids masked).
func (g *rnd) keyOptions(m *difftest.Model, stmts []difftest.Stmt) []difftest.Stmt {
	for _, t := range m.Tables {
		if len(t.PK) == 0 {
			continue
		}
		c := t.Col(t.PK[0])
		switch {
		case c.Identity && !c.Unordered && g.chance(0.3) && unorderable(m, t, c, false):
			// Batches per TiDB server: ids unique, in no promised order
			// either (a refused INSERT may drop the rest of a batch).
			c.IdentityCache = pick(g, []int64{2, 100, 30000})
			stmts = slices.DeleteFunc(stmts, func(s difftest.Stmt) bool { return s.Table == t.Name && s.WhereCol == c.Name })
		case g.chance(0.25) && unorderable(m, t, c, true):
			c.Identity, c.Unordered, c.IdentityStart, c.IdentityCache = true, true, 0, 0
			if g.chance(0.5) {
				// Shard bits and range (0: TiDB's default), at TiDB's limits.
				r := pick(g, [][2]int{{1, 0}, {15, 0}, {4, 32}, {15, 43}, {6, 40}, {0, 48}})
				c.ShardBits, c.RangeBits = r[0], r[1]
			}
			if g.chance(0.03) {
				// Past them: refused at compile time.
				r := pick(g, [][2]int{{16, 0}, {5, 32}, {1, 31}})
				c.ShardBits, c.RangeBits = r[0], r[1]
			}
			stmts = slices.DeleteFunc(stmts, func(s difftest.Stmt) bool { return s.Table == t.Name && s.WhereCol == c.Name })
		}
		g.layout(t, c)
	}
	return stmts
}

// layout sometimes stores a table by hidden row ids (clustered = false),
// perhaps with shard bits and pre-split regions, or says clustered = true;
// rarely it draws a layout the compiler must refuse (shard bits on a
// clustered key, more regions than shard bits, a non-clustered key under
// an unordered identity). None changes what the rows mean.
func (g *rnd) layout(t *difftest.Table, key *difftest.Col) {
	switch {
	case g.chance(0.03):
		t.ShardRowIDBits, t.PreSplitRegions = pick(g, []int{2, 4}), pick(g, []int{0, 5})
		t.Clustered = pick(g, []string{"", "true", "false"})
		if key.Unordered {
			t.Clustered = "false"
		}
	case key.Unordered:
	case g.chance(0.15):
		t.Clustered = "false"
		if g.chance(0.6) {
			t.ShardRowIDBits = pick(g, []int{1, 4, 15})
			t.PreSplitRegions = g.n(t.ShardRowIDBits + 1)
		}
	case g.chance(0.05):
		t.Clustered = "true"
	}
}

// unorderable reports whether c, t's first key column, can become an
// unordered identity without the statements depending on its values: a
// bigint (for ordered = false) no other column, key, CHECK or index reads.
func unorderable(m *difftest.Model, t *difftest.Table, c *difftest.Col, bigint bool) bool {
	if bigint && c.Type.Name != "bigint" || c.Null || c.Default != "" || c.As != "" || c.Override != "" {
		return false
	}
	if slices.ContainsFunc(t.Cols, func(o *difftest.Col) bool { return o != c && o.Identity }) {
		return false
	}
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(c.Name) + `\b`)
	for _, o := range t.Cols {
		if word.MatchString(o.As) {
			return false
		}
	}
	for _, ck := range t.Checks {
		if word.MatchString(ck.Expr) || word.MatchString(ck.Override) {
			return false
		}
	}
	for _, x := range t.Indexes {
		if word.MatchString(x.Where) || slices.ContainsFunc(x.Cols, func(e string) bool { return e != c.Name && word.MatchString(e) }) {
			return false
		}
	}
	for _, o := range m.Tables {
		for _, fk := range o.FKs {
			if fk.RefTable == t.Name && slices.Contains(fk.RefCols, c.Name) || o == t && slices.Contains(fk.Cols, c.Name) {
				return false
			}
		}
	}
	return true
}

// KeyTable draws a table named name for the plan oracle whose bigint
// primary key is an unordered identity (now and then with shard bits and a
// range), an identity with a cache, or a plain non-clustered key (now and
// then with shard bits and pre-split regions), and says which.
func (g *Gen) KeyTable(name string) (*difftest.Table, string) {
	id := &difftest.Col{Name: "id0", Type: difftest.Type{Name: "bigint"}, Identity: true}
	what := "unordered"
	var clustered string
	var shard, split int
	switch {
	case g.Chance(0.3):
		// A plain key, stored by hidden row ids.
		id.Identity, clustered, what = false, "false", "none, clustered = false"
		if g.Chance(0.7) {
			shard = 1 + g.N(15)
			split = g.N(shard + 1)
			what += fmt.Sprintf(", shard_row_id_bits %d, pre_split_regions %d", shard, split)
		}
	case g.Chance(0.4):
		id.IdentityCache = []int64{2, 100}[g.N(2)]
		what = fmt.Sprintf("cache %d", id.IdentityCache)
	default:
		id.Unordered = true
		if g.Chance(0.5) {
			id.ShardBits = []int{1, 4, 6, 15}[g.N(4)]
		}
		if g.Chance(0.3) {
			id.RangeBits = 48
		}
	}
	t := &difftest.Table{Name: name, Cols: []*difftest.Col{id}, PK: []string{"id0"}, Clustered: clustered, ShardRowIDBits: shard, PreSplitRegions: split}
	for k := range 1 + g.N(2) {
		t.Cols = append(t.Cols, &difftest.Col{Name: fmt.Sprintf("c%d", k), Type: g.Type(false), Null: true})
	}
	return t, what
}

// KeyOptionChange draws a change of the key options of identity c: shard
// bits up or down, the range, ordered on or off, the cache.
func (g *Gen) KeyOptionChange(c *difftest.Col) (what string, f func(c *difftest.Col)) {
	switch k := g.N(5); {
	case c.Unordered && k < 2:
		bits := []int{1, 3, 6, 8, 15}[g.N(5)]
		what, f = fmt.Sprintf("shard bits %d", bits), func(c *difftest.Col) { c.ShardBits = bits }
	case c.Unordered && k == 2:
		what, f = "range 50", func(c *difftest.Col) { c.RangeBits = 50 }
	case c.Unordered:
		what, f = "ordered", func(c *difftest.Col) { c.Unordered, c.ShardBits, c.RangeBits = false, 0, 0 }
	case c.Type.Name == "bigint" && k < 2:
		what, f = "ordered = false", func(c *difftest.Col) { c.Unordered, c.IdentityStart, c.IdentityCache = true, 0, 0 }
	default:
		n := []int64{1, 2, 100, 500}[g.N(4)]
		what, f = fmt.Sprintf("cache %d", n), func(c *difftest.Col) { c.IdentityCache = n }
	}
	return what, f
}

// LayoutChange draws a change of how TiDB stores table t: its key made
// clustered or not, its shard bits, its pre-split regions.
func (g *Gen) LayoutChange(t *difftest.Table) (what string, f func(t *difftest.Table)) {
	switch k := g.N(4); {
	case t.Clustered == "false" && k < 2:
		n := []int{0, 1, 5, 15}[g.N(4)]
		what, f = fmt.Sprintf("shard_row_id_bits %d", n), func(t *difftest.Table) { t.ShardRowIDBits, t.PreSplitRegions = n, min(t.PreSplitRegions, n) }
	case t.Clustered == "false" && k == 2 && t.ShardRowIDBits > 0:
		n := g.N(t.ShardRowIDBits + 1)
		what, f = fmt.Sprintf("pre_split_regions %d", n), func(t *difftest.Table) { t.PreSplitRegions = min(n, t.ShardRowIDBits) }
	case t.Clustered == "false":
		what, f = "clustered", func(t *difftest.Table) { t.Clustered, t.ShardRowIDBits, t.PreSplitRegions = "true", 0, 0 }
	default:
		what, f = "not clustered", func(t *difftest.Table) { t.Clustered = "false" }
	}
	return what, f
}
