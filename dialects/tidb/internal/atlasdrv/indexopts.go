package atlasdrv

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
)

// Invisible marks an index TiDB's optimizer does not use (INVISIBLE),
// which Atlas's MySQL driver neither inspects nor plans.
type Invisible struct{ schema.Attr }

// ModifyVisibility is an index made visible or invisible, nothing else of
// it changing: ALTER TABLE ... ALTER INDEX ... VISIBLE | INVISIBLE, a change
// of the table's metadata only.
type ModifyVisibility struct {
	schema.Change
	T         *schema.Table
	Old, I    *schema.Index
	Invisible bool
}

// IndexChange returns the index before and after the change (drift reports
// it as a changed index).
func (c *ModifyVisibility) IndexChange() (from, to *schema.Index) { return c.Old, c.I }

// InvisibleOf reports whether idx is invisible.
func InvisibleOf(idx *schema.Index) bool {
	return slices.ContainsFunc(idx.Attrs, func(a schema.Attr) bool {
		_, ok := a.(*Invisible)
		return ok
	})
}

// SHOW CREATE TABLE prints an invisible index as
// KEY `name` (`a`) /*!80000 INVISIBLE */ (UNIQUE KEY alike).
var invisibleKey = regexp.MustCompile("(?m)^\\s*(?:UNIQUE |VECTOR )?(?:KEY|INDEX) `((?:[^`]|``)+)` ?\\([^\\n]*?\\) /\\*!80000 INVISIBLE \\*/")

// VectorIndex marks TiDB's VECTOR INDEX over Distance (VEC_COSINE_DISTANCE
// or VEC_L2_DISTANCE) of Column, which Atlas reads as an expression part.
type VectorIndex struct {
	schema.Attr
	Distance, Column string
}

// VectorOf returns idx's VectorIndex, or nil.
func VectorOf(idx *schema.Index) *VectorIndex {
	for _, a := range idx.Attrs {
		if v, ok := a.(*VectorIndex); ok {
			return v
		}
	}
	return nil
}

// SHOW CREATE TABLE prints a vector index as
// VECTOR INDEX `name`((VEC_COSINE_DISTANCE(`col`))) USING HNSW.
var vectorKey = regexp.MustCompile("(?m)^\\s*VECTOR (?:KEY|INDEX) `((?:[^`]|``)+)` ?\\(\\((VEC_(?:COSINE|L2)_DISTANCE)\\(`((?:[^`]|``)+)`\\)\\)\\)")

// ReadIndexOptions returns the invisible indexes and the vector indexes
// (by name) that a CREATE TABLE text shows.
func ReadIndexOptions(create string) (invisible []string, vector map[string]VectorIndex) {
	for _, m := range invisibleKey.FindAllStringSubmatch(create, -1) {
		invisible = append(invisible, strings.ReplaceAll(m[1], "``", "`"))
	}
	for _, m := range vectorKey.FindAllStringSubmatch(create, -1) {
		if vector == nil {
			vector = map[string]VectorIndex{}
		}
		vector[strings.ReplaceAll(m[1], "``", "`")] = VectorIndex{Distance: m[2], Column: strings.ReplaceAll(m[3], "``", "`")}
	}
	return invisible, vector
}

// readIndexOptions sets Invisible and VectorIndex on the indexes of t that
// its CREATE TABLE text shows invisible or vector indexes.
func readIndexOptions(t *schema.Table, create string) {
	invisible, vector := ReadIndexOptions(create)
	for name, v := range vector {
		if idx, ok := t.Index(name); ok {
			schema.ReplaceOrAppend(&idx.Attrs, &v)
		}
	}
	if invisible == nil {
		return
	}
	for _, name := range invisible {
		if idx, ok := t.Index(name); ok {
			schema.ReplaceOrAppend(&idx.Attrs, &Invisible{})
		}
	}
}

// visibilityChanges adds a ModifyVisibility for each index of a table on
// both sides whose visibility alone differs (an index dropped, added or
// rebuilt is created with its visibility).
func visibilityChanges(changes []schema.Change, from, to *schema.Table) []schema.Change {
	mt := modifyOf(changes, to.Name)
	var extra []schema.Change
	for _, idx := range to.Indexes {
		old, ok := from.Index(idx.Name)
		if !ok || InvisibleOf(old) == InvisibleOf(idx) {
			continue
		}
		if mt != nil && slices.ContainsFunc(mt.Changes, func(c schema.Change) bool {
			switch c := c.(type) {
			case *schema.ModifyIndex:
				return c.To.Name == idx.Name
			case *schema.DropIndex:
				return c.I.Name == idx.Name
			case *schema.AddIndex:
				return c.I.Name == idx.Name
			}
			return false
		}) {
			continue
		}
		extra = append(extra, &ModifyVisibility{T: to, Old: old, I: idx, Invisible: InvisibleOf(idx)})
	}
	if len(extra) == 0 {
		return changes
	}
	if mt == nil {
		return append(changes, &schema.ModifyTable{T: to, Changes: extra})
	}
	mt.Changes = append(mt.Changes, extra...)
	return changes
}

// VisibilityStmt is the statement that makes index of table visible or
// invisible.
func VisibilityStmt(qualifier, table, index string, invisible bool) string {
	name := ident(table)
	if qualifier != "" {
		name = ident(qualifier) + "." + name
	}
	return fmt.Sprintf("ALTER TABLE %s ALTER INDEX %s %s", name, ident(index), map[bool]string{true: "INVISIBLE", false: "VISIBLE"}[invisible])
}

// splitVisibility takes the ModifyVisibility changes out of changes (Atlas's
// planner does not know them) and returns their statements, and those that
// make the indexes the changes create invisible, each after its source's
// statements: Atlas writes an index visible.
func splitVisibility(changes []schema.Change, qualifier *string) (rest []schema.Change, after map[schema.Change][]*migrate.Change, own []*migrate.Change) {
	after = map[schema.Change][]*migrate.Change{}
	q := func(t *schema.Table) string {
		if qualifier != nil {
			return *qualifier
		}
		if t.Schema != nil {
			return t.Schema.Name
		}
		return ""
	}
	invisible := func(src schema.Change, t *schema.Table, idx *schema.Index) {
		if InvisibleOf(idx) {
			after[src] = append(after[src], &migrate.Change{Cmd: VisibilityStmt(q(t), t.Name, idx.Name, true), Source: src,
				Comment: fmt.Sprintf("make index %q invisible", idx.Name)})
		}
	}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.AddTable:
			for _, idx := range c.T.Indexes {
				invisible(c, c.T, idx)
			}
		case *schema.ModifyTable:
			var sub []schema.Change
			for _, sc := range c.Changes {
				switch sc := sc.(type) {
				case *ModifyVisibility:
					own = append(own, &migrate.Change{Cmd: VisibilityStmt(q(c.T), c.T.Name, sc.I.Name, sc.Invisible), Source: c,
						Comment: fmt.Sprintf("make index %q %s", sc.I.Name, map[bool]string{true: "invisible", false: "visible"}[sc.Invisible])})
					continue
				case *schema.AddIndex:
					invisible(c, c.T, sc.I)
				case *schema.ModifyIndex:
					invisible(c, c.T, sc.To)
				}
				sub = append(sub, sc)
			}
			if len(sub) == 0 {
				continue
			}
			if len(sub) != len(c.Changes) {
				nc := &schema.ModifyTable{T: c.T, Changes: sub}
				after[nc] = after[c]
				delete(after, c)
				for _, a := range after[nc] {
					a.Source = nc
				}
				c = nc
			}
			rest = append(rest, c)
			continue
		}
		rest = append(rest, c)
	}
	return rest, after, own
}

// placeAfter puts each source's statements of after right after the last
// statement planned for it, and own last.
func placeAfter(plan *migrate.Plan, after map[schema.Change][]*migrate.Change, own []*migrate.Change) {
	if len(after) == 0 && len(own) == 0 {
		return
	}
	last := map[schema.Change]int{}
	for i, pc := range plan.Changes {
		last[pc.Source] = i
	}
	var out []*migrate.Change
	for i, pc := range plan.Changes {
		out = append(out, pc)
		if last[pc.Source] == i {
			out = append(out, after[pc.Source]...)
			delete(after, pc.Source)
		}
	}
	for _, ss := range after {
		out = append(out, ss...)
	}
	plan.Changes = append(out, own...)
}
