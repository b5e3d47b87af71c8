package migration

import (
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// rawIndexes takes the indexes that the model creates with raw statements
// out of changes (the planner would write them from the text the database
// printed back) and returns those statements, by the change they were taken
// from, to run as the model gives them. A changed raw index is dropped by
// the planner and created again by its statement.
func rawIndexes(changes []schema.Change, x *dialects.Exprs) ([]schema.Change, map[schema.Change][]*migrate.Change) {
	raw := map[schema.Change][]*migrate.Change{}
	if x == nil || len(x.RawIndexes) == 0 {
		return changes, raw
	}
	var from schema.Change
	take := func(t *schema.Table, idx *schema.Index) bool {
		stmt, ok := x.RawIndexes[dialects.ObjectName{Table: t.Name, Name: idx.Name}]
		if ok {
			raw[from] = append(raw[from], &migrate.Change{
				Cmd:     stmt,
				Source:  from,
				Comment: fmt.Sprintf("create index %q to table: %q (the model's raw statement)", idx.Name, t.Name),
			})
		}
		return ok
	}
	out := changes[:0:0]
	for _, c := range changes {
		from = c
		switch c := c.(type) {
		case *schema.AddTable:
			kept := c.T.Indexes[:0:0]
			for _, idx := range c.T.Indexes {
				if !take(c.T, idx) {
					kept = append(kept, idx)
				}
			}
			c.T.Indexes = kept
		case *schema.ModifyTable:
			sub := c.Changes[:0:0]
			for _, tc := range c.Changes {
				switch tc := tc.(type) {
				case *schema.AddIndex:
					if take(c.T, tc.I) {
						continue
					}
				case *schema.ModifyIndex:
					if take(c.T, tc.To) {
						sub = append(sub, &schema.DropIndex{I: tc.From})
						continue
					}
				}
				sub = append(sub, tc)
			}
			c.Changes = sub
			if len(sub) == 0 {
				continue
			}
		}
		out = append(out, c)
	}
	return out, raw
}

// withRaw places the raw statements taken from each change in the plan: a
// new table's right after its CREATE TABLE (before the foreign keys added
// later, for which TiDB would otherwise make an index of its own), a
// changed table's after its other statements, and those of a change that
// planned nothing last.
func withRaw(planned []*migrate.Change, raw map[schema.Change][]*migrate.Change) []*migrate.Change {
	if len(raw) == 0 {
		return planned
	}
	last := map[schema.Change]int{}
	for i, c := range planned {
		if _, ok := c.Source.(*schema.AddTable); ok {
			if _, seen := last[c.Source]; seen {
				continue
			}
		}
		last[c.Source] = i
	}
	var out []*migrate.Change
	for i, c := range planned {
		out = append(out, c)
		if rs, ok := raw[c.Source]; ok && last[c.Source] == i {
			out = append(out, rs...)
			delete(raw, c.Source)
		}
	}
	// In a fixed order: by the index and table they create.
	var rest []*migrate.Change
	for _, rs := range raw {
		rest = append(rest, rs...)
	}
	slices.SortStableFunc(rest, func(a, b *migrate.Change) int { return strings.Compare(a.Comment, b.Comment) })
	return append(out, rest...)
}
