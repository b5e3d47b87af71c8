package evolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// changeIndexOptions changes one option of an index (issue 33): its
// non-key columns (a rebuild on PostgreSQL, nothing on TiDB), its storage
// parameters (ALTER INDEX ... SET / RESET on PostgreSQL), its visibility
// (ALTER TABLE ... ALTER INDEX ... VISIBLE | INVISIBLE on TiDB), or a
// unique index's NULLS NOT DISTINCT over NOT NULL key columns (a rebuild
// on PostgreSQL). Drawn by the generator of the kinds added later (see
// drawEdit).
func changeIndexOptions(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.Indexes) == 0 {
		return nil
	}
	idx := t.Indexes[g.N(len(t.Indexes))]
	using := strings.ToLower(idx.Using)
	btree := using == "" || using == "btree"
	var what string
	var f func(x *difftest.Index, t *difftest.Table) bool
	switch k := g.N(4); {
	case k == 0 && btree:
		var rest []string
		for _, c := range t.Cols {
			if !slices.Contains(idx.Cols, c.Name) {
				rest = append(rest, c.Name)
			}
		}
		var inc []string
		if len(rest) > 0 && (len(idx.Include) == 0 || g.Chance(0.5)) {
			inc = []string{rest[g.N(len(rest))]}
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
		s := []string{"", "{ fillfactor = 50 }", "{ fillfactor = 80 }", "{ fillfactor = 100 }"}[g.N(4)]
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
	return onTable(fmt.Sprintf("index %s.%s: %s", t.Name, idx.Name, what), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		for i := range t.Indexes {
			if t.Indexes[i].Name == idx.Name {
				return f(&t.Indexes[i], t)
			}
		}
		return false
	})
}
