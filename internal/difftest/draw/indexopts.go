package draw

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
)

// indexOptions sometimes gives an index the index options of issue 33:
// non-key columns (include), storage parameters its method takes, visible
// = false, and NULLS NOT DISTINCT on a unique index whose key columns are
// NOT NULL (the same rows unique on both; over nullable keys TiDB's
// compile refuses it, drawn rarely). Rarely a parameter PostgreSQL's
// compile refuses. None changes what a statement does. visible = false
// on an index led by the columns of a foreign key with a referential
// action is drawn too: TiDB's compile refuses it (TiDB's CASCADE and SET
// NULL cannot use an invisible index, error 1176), and TestDifferential
// repairs the model. Vector indexes are
// not drawn: pgvector is not installed here and the pinned TiDB refuses
// them without TiFlash (see docs/language.md).
func (g *rnd) indexOptions(m *difftest.Model) {
	for _, t := range m.Tables {
		for i := range t.Indexes {
			x := &t.Indexes[i]
			using := strings.ToLower(x.Using)
			btree := using == "" || using == "btree"
			if btree && g.chance(0.08) {
				var rest []string
				for _, c := range t.Cols {
					if !slices.Contains(x.Cols, c.Name) {
						rest = append(rest, c.Name)
					}
				}
				if len(rest) > 0 {
					x.Include = []string{pick(g, rest)}
				}
			}
			switch {
			case (btree || using == "hash") && g.chance(0.08):
				x.Storage = pick(g, []string{"{ fillfactor = 70 }", "{ fillfactor = 10 }", "{ fillfactor = 100 }"})
				if btree && g.chance(0.3) {
					x.Storage = "{ fillfactor = 90, deduplicate_items = false }"
				}
			case using == "gin" && g.chance(0.1):
				x.Storage = "{ fastupdate = false }"
			case g.chance(0.005):
				x.Storage = "{ lists = 5 }" // no btree parameter: refused
			}
			if g.chance(0.06) {
				x.Invisible = true
			}
			if x.Unique && g.chance(0.1) {
				notNull := !slices.ContainsFunc(x.Cols, func(p string) bool {
					c := t.Col(p)
					return c == nil || c.Null
				})
				if notNull || g.chance(0.1) {
					x.NullsNotDistinct = true
				}
			}
		}
	}
}

// IndexOptionChange draws a change of one option of index idx of t (issue
// 33): its non-key columns (a rebuild on PostgreSQL, nothing on TiDB), its
// storage parameters (ALTER INDEX ... SET / RESET on PostgreSQL), its
// visibility (ALTER TABLE ... ALTER INDEX ... VISIBLE | INVISIBLE on TiDB),
// or a unique index's NULLS NOT DISTINCT over NOT NULL key columns (a
// rebuild on PostgreSQL). It returns what it does and the change, which
// reports false where the index no longer allows it.
func (g *Gen) IndexOptionChange(t *difftest.Table, idx difftest.Index) (what string, f func(x *difftest.Index, t *difftest.Table) bool) {
	using := strings.ToLower(idx.Using)
	btree := using == "" || using == "btree"
	switch k := g.g.n(4); {
	case k == 0 && btree:
		var rest []string
		for _, c := range t.Cols {
			if !slices.Contains(idx.Cols, c.Name) {
				rest = append(rest, c.Name)
			}
		}
		var inc []string
		if len(rest) > 0 && (len(idx.Include) == 0 || g.g.chance(0.5)) {
			inc = []string{rest[g.g.n(len(rest))]}
		}
		what = fmt.Sprintf("include %v", inc)
		f = func(x *difftest.Index, t *difftest.Table) bool {
			for _, c := range inc {
				if t.Col(c) == nil || slices.Contains(x.Cols, c) {
					return false
				}
			}
			x.Include = inc
			return true
		}
	case k == 1 && (btree || using == "hash"):
		s := []string{"", "{ fillfactor = 50 }", "{ fillfactor = 80 }", "{ fillfactor = 100 }"}[g.g.n(4)]
		what, f = "storage "+s, func(x *difftest.Index, _ *difftest.Table) bool { x.Storage = s; return true }
	case k == 2 && idx.Unique:
		what, f = "nulls_distinct toggled", func(x *difftest.Index, t *difftest.Table) bool {
			if !x.NullsNotDistinct && slices.ContainsFunc(x.Cols, func(p string) bool { c := t.Col(p); return c == nil || c.Null }) {
				return false
			}
			x.NullsNotDistinct = !x.NullsNotDistinct
			return true
		}
	default:
		what, f = "visible toggled", func(x *difftest.Index, _ *difftest.Table) bool { x.Invisible = !x.Invisible; return true }
	}
	return what, f
}
