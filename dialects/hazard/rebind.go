package hazard

import "ariga.io/atlas/sql/schema"

// RebindForeignKeys drops and adds again the foreign keys that changes keep
// but whose referenced key they drop (a unique key or primary key replaced
// by another over the same columns, under a new name or with new options),
// for a database that binds a foreign key to the index it was created with
// and refuses to drop that index while the key stands, whatever other index
// the plan adds. The order (order.go) then drops the keys first and adds
// them after the old key is gone and the new one is there.
func RebindForeignKeys(changes []schema.Change) []schema.Change {
	dropped := map[string]bool{}
	tables := map[string]*schema.ModifyTable{}
	var sch *schema.Schema
	created := map[string]bool{}
	for _, c := range changes {
		if at, ok := c.(*schema.AddTable); ok {
			created[at.T.Name] = true
		}
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		tables[mt.T.Name] = mt
		if mt.T.Schema != nil {
			sch = mt.T.Schema
		}
		for _, sc := range mt.Changes {
			var from *schema.Index
			switch x := sc.(type) {
			case *schema.DropIndex:
				if x.I.Unique {
					from = x.I
				}
			case *schema.ModifyIndex:
				if x.From.Unique {
					from = x.From
				}
			case *schema.DropPrimaryKey:
				from = x.P
			case *schema.ModifyPrimaryKey:
				from = x.From
			}
			if from == nil {
				continue
			}
			if cols, plain := indexCols(from); plain && len(cols) > 0 {
				dropped[keyToken(mt.T.Name, cols)] = true
			}
		}
	}
	if len(dropped) == 0 || sch == nil {
		return changes
	}
	for _, t := range sch.Tables {
		if created[t.Name] {
			continue
		}
		mt := tables[t.Name]
		touched := map[string]bool{}
		if mt != nil {
			for _, sc := range mt.Changes {
				switch x := sc.(type) {
				case *schema.AddForeignKey:
					touched[x.F.Symbol] = true
				case *schema.DropForeignKey:
					touched[x.F.Symbol] = true
				case *schema.ModifyForeignKey:
					touched[x.From.Symbol], touched[x.To.Symbol] = true, true
				}
			}
		}
		for _, fk := range t.ForeignKeys {
			if touched[fk.Symbol] || fk.RefTable == nil || !dropped[keyToken(fk.RefTable.Name, colNames(fk.RefColumns))] {
				continue
			}
			if mt == nil {
				mt = &schema.ModifyTable{T: t}
				tables[t.Name] = mt
				changes = append(changes, mt)
			}
			mt.Changes = append(mt.Changes, &schema.DropForeignKey{F: fk}, &schema.AddForeignKey{F: fk})
		}
	}
	return changes
}

// SplitModifies replaces, in place, each change of type M within the table
// changes of changes by the drop and the add that split makes of it (where
// split says ok), for a database that cannot make such a modify in one
// statement: TiDB cannot alter a CHECK, and refuses Atlas's one ALTER for a
// foreign key whose columns change; neither database turns a plain column
// into a generated one. The other changes keep their order. It returns
// changes.
func SplitModifies[M schema.Change](changes []schema.Change, split func(M) (drop, add schema.Change, ok bool)) []schema.Change {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		var out []schema.Change
		for _, sc := range mt.Changes {
			if m, ok := sc.(M); ok {
				if drop, add, ok := split(m); ok {
					out = append(out, drop, add)
					continue
				}
			}
			out = append(out, sc)
		}
		mt.Changes = out
	}
	return changes
}
