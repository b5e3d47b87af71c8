package evolve

import (
	"fmt"
	"slices"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// isKeyKind reports the edits of issue 33's key options: a table numbered
// by an unordered identity (TiDB AUTO_RANDOM) or an identity with a cache
// (AUTO_ID_CACHE), and changes of both, which TiDB makes in place (more
// shard bits, a cache between two values other than 1) or migrate diff
// refuses (the rest). They are drawn by a generator of their own (see
// drawEdit), so that the other kinds' draws of each seed stay as they were.
func isKeyKind(k EditKind) bool {
	return k.Name == "add_key_table" || k.Name == "change_key_options" || k.Name == "change_layout"
}

// addKeyTable adds a table whose bigint primary key is an unordered
// identity (now and then with shard bits and a range), an identity with a
// cache, or a plain non-clustered key (now and then with shard bits and
// pre-split regions).
func addKeyTable(g *draw.Gen, m *difftest.Model) *Edit {
	name := freeName(m, "n")
	t, what := g.KeyTable(name)
	return addTableCopy(t, "", fmt.Sprintf("add table %s with identity %s", name, what))
}

// addTableCopy is the edit that adds a copy of t (kind "" for the kind drawn).
func addTableCopy(t *difftest.Table, kind, what string) *Edit {
	return &Edit{Kind: kind, What: what, Apply: func(m *difftest.Model) bool {
		if m.Table(t.Name) != nil {
			return false
		}
		nt := *t
		nt.Cols = nil
		for _, c := range t.Cols {
			nt.Cols = append(nt.Cols, cloneCol(c))
		}
		nt.PK = slices.Clone(t.PK)
		m.Tables = append(m.Tables, &nt)
		return true
	}}
}

// changeKeyOptions changes the key options of a table's identity key:
// shard bits up or down, the range, ordered on or off, the cache.
func changeKeyOptions(g *draw.Gen, m *difftest.Model) *Edit {
	var cands []*difftest.Table
	for _, t := range m.Tables {
		if len(t.PK) > 0 && t.Col(t.PK[0]) != nil && t.Col(t.PK[0]).Identity {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	t := cands[g.N(len(cands))]
	name := t.PK[0]
	c := t.Col(name)
	what, f := g.KeyOptionChange(c)
	return onTable(fmt.Sprintf("set the identity of %s.%s to %s", t.Name, name, what), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil || !c.Identity {
			return false
		}
		f(c)
		return true
	})
}

// changeLayout changes how TiDB stores a table: its key made clustered or
// not (refused), its shard bits (planned; on a non-clustered key), its
// pre-split regions (refused, but with the shard bits removed).
func changeLayout(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.PK) == 0 {
		return nil
	}
	what, f := g.LayoutChange(t)
	return onTable(fmt.Sprintf("lay out table %s: %s", t.Name, what), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		if len(t.PK) == 0 {
			return false
		}
		f(t)
		return true
	})
}

// tableOption edits a table's ttl (kind "ttl", its jobs off) or
// partitioning (kind "partition"), as draw's TableOptionEdit draws.
func tableOption(kind string) func(g *draw.Gen, m *difftest.Model) *Edit {
	return func(g *draw.Gen, m *difftest.Model) *Edit {
		t := pickTable(g, m)
		if kind == "partition" {
			var fresh bool
			if t, fresh = g.PartitionTarget(m, t); fresh {
				return addPartitionedTable(g, m)
			}
		}
		if t == nil {
			return nil
		}
		if what, f, ok := g.TableOptionEdit(m, t, kind); ok {
			return onTable(what, t.Name, func(m *difftest.Model, t *difftest.Table) bool { f(t); return true })
		}
		return nil
	}
}

// addPartitionedTable adds a partitioned table (draw.PartitionedTable),
// whose parts later change_partition steps add and drop.
func addPartitionedTable(g *draw.Gen, m *difftest.Model) *Edit {
	name := freeName(m, "p")
	t, what := g.PartitionedTable(name)
	return addTableCopy(t, "change_partition/new_table", fmt.Sprintf("add table %s partitioned %s", name, what))
}

// changeIndexOptions changes one option of an index (issue 33; see
// draw.Gen.IndexOptionChange), drawn by the generator of the later kinds.
func changeIndexOptions(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.Indexes) == 0 {
		return nil
	}
	name := t.Indexes[g.N(len(t.Indexes))].Name
	what, f := g.IndexOptionChange(t, *t.Index(name))
	return onTable(fmt.Sprintf("index %s.%s: %s", t.Name, name, what), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		x := t.Index(name)
		return x != nil && f(x, t)
	})
}
