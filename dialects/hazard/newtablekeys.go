package hazard

import (
	"slices"

	"ariga.io/atlas/sql/schema"
)

// DeferNewTableKeys takes out of each new table the foreign keys that
// reference a unique key the plan adds to an existing, unpartitioned
// table, and adds them to the table after it is created: the key is then
// built online and the foreign keys added after it, not built under a
// lock for CREATE TABLE's foreign key (PostgreSQL's PG111; plan oracle,
// seed 94949, evolution 94949284908). It returns the changes (a copy where
// changed) and the tables whose keys it moved.
func DeferNewTableKeys(changes []schema.Change, partitioned func(*schema.Table) bool) ([]schema.Change, map[string]bool) {
	added := map[string]bool{}
	for _, c := range changes {
		if mt, ok := c.(*schema.ModifyTable); ok && !partitioned(mt.T) {
			for _, sc := range mt.Changes {
				if a, ok := sc.(*schema.AddIndex); ok && a.I.Unique {
					if cols, plain := indexCols(a.I); plain {
						added[keyToken(mt.T.Name, cols)] = true
					}
				}
			}
		}
	}
	if len(added) == 0 {
		return changes, nil
	}
	out := slices.Clone(changes)
	moved := map[string]bool{}
	for i, c := range out {
		at, ok := c.(*schema.AddTable)
		if !ok {
			continue
		}
		var keep []*schema.ForeignKey
		after := &schema.ModifyTable{T: at.T}
		for _, fk := range at.T.ForeignKeys {
			if fk.RefTable != nil && fk.RefTable.Name != at.T.Name && added[keyToken(fk.RefTable.Name, colNames(fk.RefColumns))] {
				after.Changes = append(after.Changes, &schema.AddForeignKey{F: fk})
			} else {
				keep = append(keep, fk)
			}
		}
		if len(after.Changes) == 0 {
			continue
		}
		t := *at.T
		t.ForeignKeys = keep
		out[i] = &schema.AddTable{T: &t, Extra: at.Extra}
		out = append(out, after)
		moved[at.T.Name] = true
	}
	return out, moved
}
