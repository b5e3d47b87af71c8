package hazard

import (
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"
)

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

// RebuildOverRecreated drops, before, and adds again, after, the indexes
// and CHECKs over a column that a table's changes drop and add again (a
// plain column made generated), unless the changes already drop, add or
// modify them: TiDB refuses to drop a column an index or CHECK uses (3837,
// 3959), and PostgreSQL drops them with the column, so that the database
// would lose them. The base order puts the drops before the column's and
// the adds after. It returns changes.
func RebuildOverRecreated(changes []schema.Change) []schema.Change {
	return rebuildAll(changes, true, func(mt *schema.ModifyTable) []string {
		dropped, added := map[string]bool{}, map[string]bool{}
		for _, sc := range mt.Changes {
			switch x := sc.(type) {
			case *schema.DropColumn:
				dropped[x.C.Name] = true
			case *schema.AddColumn:
				added[x.C.Name] = true
			}
		}
		var recreated []string
		for _, c := range mt.T.Columns {
			if dropped[c.Name] && added[c.Name] {
				recreated = append(recreated, c.Name)
			}
		}
		return recreated
	})
}

// RebuildChecksOfRetyped drops, before, and adds again, after, the CHECKs
// over a column whose type a table's changes change, unless the changes
// already drop or add them: for a database that rebuilds such a CHECK from
// its own printed text (PostgreSQL), which is not the text a fresh
// database built from the model holds, and checks every row against it
// while it rewrites the table. A CHECK the changes modify is split into
// its drop and its add, which the base order puts around the type change:
// dropped after it, it was rebuilt and validated by the type change
// (lint's PG103 on migrate diff's file, a text column changed to char(n)
// under a CHECK, whose printed text then changes too). It returns changes.
func RebuildChecksOfRetyped(changes []schema.Change) []schema.Change {
	retypedOf := func(mt *schema.ModifyTable) []string {
		var retyped []string
		for _, sc := range mt.Changes {
			if x, ok := sc.(*schema.ModifyColumn); ok && x.Change.Is(schema.ChangeType) {
				retyped = append(retyped, x.To.Name)
			}
		}
		return retyped
	}
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		retyped := retypedOf(mt)
		SplitModifies([]schema.Change{mt}, func(m *schema.ModifyCheck) (schema.Change, schema.Change, bool) {
			uses := slices.ContainsFunc(retyped, func(col string) bool { return usesIdent(m.From.Expr, col) || usesIdent(m.To.Expr, col) })
			return &schema.DropCheck{C: m.From}, &schema.AddCheck{C: m.To}, uses
		})
	}
	return rebuildAll(changes, false, retypedOf)
}

// rebuildAll rebuilds, in each table's changes, the CHECKs (and, with
// indexes, the indexes) over the columns cols names that the changes do
// not already drop, add or modify.
func rebuildAll(changes []schema.Change, indexes bool, cols func(*schema.ModifyTable) []string) []schema.Change {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		rebuildOver(mt, cols(mt), Touched(mt), indexes)
	}
	return changes
}

// Touched are the indexes ("index NAME") and CHECKs ("check NAME") that a
// table's changes already drop, add or modify: a rebuild leaves them be.
func Touched(mt *schema.ModifyTable) map[string]bool {
	touched := map[string]bool{}
	for _, sc := range mt.Changes {
		switch x := sc.(type) {
		case *schema.DropIndex:
			touched["index "+x.I.Name] = true
		case *schema.AddIndex:
			touched["index "+x.I.Name] = true
		case *schema.ModifyIndex:
			touched["index "+x.From.Name], touched["index "+x.To.Name] = true, true
		case *schema.DropCheck:
			touched["check "+x.C.Name] = true
		case *schema.AddCheck:
			touched["check "+x.C.Name] = true
		case *schema.ModifyCheck:
			touched["check "+x.From.Name], touched["check "+x.To.Name] = true, true
		}
	}
	return touched
}

// rebuildOver adds to mt the drop and the add of each CHECK (and, with
// indexes, each index) of mt's table over one of cols that touched does not
// name.
func rebuildOver(mt *schema.ModifyTable, cols []string, touched map[string]bool, indexes bool) {
	if len(cols) == 0 {
		return
	}
	uses := func(text string) bool {
		return slices.ContainsFunc(cols, func(col string) bool { return usesIdent(text, col) })
	}
	var drops, adds []schema.Change
	for _, idx := range mt.T.Indexes {
		if !indexes || touched["index "+idx.Name] || !slices.ContainsFunc(idx.Parts, func(p *schema.IndexPart) bool {
			if p.C != nil {
				return slices.Contains(cols, p.C.Name)
			}
			x, ok := p.X.(*schema.RawExpr)
			return ok && uses(x.X)
		}) {
			continue
		}
		drops, adds = append(drops, &schema.DropIndex{I: idx}), append(adds, &schema.AddIndex{I: idx})
	}
	for _, a := range mt.T.Attrs {
		if ck, ok := a.(*schema.Check); ok && !touched["check "+ck.Name] && uses(ck.Expr) {
			drops, adds = append(drops, &schema.DropCheck{C: ck}), append(adds, &schema.AddCheck{C: ck})
		}
	}
	mt.Changes = append(append(mt.Changes, drops...), adds...)
}

// usesIdent reports whether expression text names column col, bare or
// quoted, in any case.
func usesIdent(text, col string) bool {
	lower, c := strings.ToLower(text), strings.ToLower(col)
	word := func(b byte) bool {
		return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
	}
	for i := 0; ; {
		j := strings.Index(lower[i:], c)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(c)
		if (start == 0 || !word(lower[start-1])) && (end == len(lower) || !word(lower[end])) {
			return true
		}
		i = start + 1
	}
}
