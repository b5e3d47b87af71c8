package draw

import (
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
)

// indexOptions sometimes gives an index the index options of issue 33:
// non-key columns (include), storage parameters its method takes, visible
// = false, and NULLS NOT DISTINCT on a unique index whose key columns are
// NOT NULL (the same rows unique on both; over nullable keys TiDB's
// compile refuses it, drawn rarely). Rarely a parameter PostgreSQL's
// compile refuses. None changes what a statement does. Vector indexes are
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
