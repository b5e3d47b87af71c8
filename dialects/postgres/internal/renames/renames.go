// Package renames keeps what only a rename changes out of PostgreSQL's
// online plans.
package renames

import (
	"slices"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// Predicates removes from changes the index changes that only a
// column rename of the same plan makes: PostgreSQL keeps a partial index's
// predicate by the column itself, so RENAME COLUMN rewrites it, but the
// diff compared the predicate's old text ("id0 IS NOT NULL") with the
// model's ("rc0 IS NOT NULL") and planned a DROP INDEX and a CREATE INDEX,
// which online blocked writes for the whole build (PG101) when a foreign
// key references the table (plan oracle, seed 31313, evolution
// 31313094151). A change whose old index, with the renamed names written
// in its predicate, differs from the new one in nothing stays out.
func Predicates(d schema.Differ, changes []schema.Change) {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		renamed := map[string]string{}
		for _, sc := range mt.Changes {
			if r, ok := sc.(*schema.RenameColumn); ok {
				renamed[r.From.Name] = r.To.Name
			}
		}
		if len(renamed) == 0 {
			continue
		}
		mt.Changes = slices.DeleteFunc(mt.Changes, func(sc schema.Change) bool {
			mi, ok := sc.(*schema.ModifyIndex)
			if !ok || !mi.Change.Is(schema.ChangeAttr) {
				return false
			}
			var p1, p2 *postgres.IndexPredicate
			for _, a := range mi.From.Attrs {
				if p, ok := a.(*postgres.IndexPredicate); ok {
					p1 = p
				}
			}
			for _, a := range mi.To.Attrs {
				if p, ok := a.(*postgres.IndexPredicate); ok {
					p2 = p
				}
			}
			if p1 == nil || p2 == nil || lexical.Plain(lexical.RenameIdents(p1.P, renamed)) != lexical.Plain(p2.P) {
				return false
			}
			// Nothing else changes: the old index with the new predicate
			// is the new one.
			from := *mi.From
			from.Attrs = slices.Clone(from.Attrs)
			from.Attrs[slices.Index(from.Attrs, schema.Attr(p1))] = p2
			t1 := &schema.Table{Name: mt.T.Name, Schema: mt.T.Schema, Columns: mt.T.Columns, Indexes: []*schema.Index{&from}}
			t2 := &schema.Table{Name: mt.T.Name, Schema: mt.T.Schema, Columns: mt.T.Columns, Indexes: []*schema.Index{mi.To}}
			diff, err := d.TableDiff(t1, t2)
			return err == nil && len(diff) == 0
		})
	}
}

// Index is index i of table t under name, its unique constraint
// too (ALTER INDEX ... RENAME renames the constraint of its index), for
// hazard.RenameIndexes. On a partitioned table the parts' indexes keep
// their names, which PostgreSQL takes from the part and the columns, not
// from the parent's index: as a database built from the model names them.
func Index(_ *schema.Table, i *schema.Index, name string) *schema.Index {
	c := *i
	c.Name, c.Attrs = name, slices.Clone(i.Attrs)
	for k, a := range c.Attrs {
		if x, ok := a.(*postgres.Constraint); ok {
			y := *x
			y.N = name
			c.Attrs[k] = &y
		}
	}
	return &c
}
