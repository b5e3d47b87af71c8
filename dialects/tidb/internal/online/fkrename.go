package online

import (
	"reflect"
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
)

// renameKeyIndexes makes, in each table's changes, the index TiDB made for
// a foreign key that the plan renames (drops and adds again under another
// name over the same columns: TiDB has no RENAME CONSTRAINT) follow the
// key's name by RENAME INDEX, which changes only the catalog, instead of
// an ADD INDEX under the new name, which reads every row to build it, and
// a DROP INDEX of the old one. The index TiDB made for a key is named
// after it; without a change of its own it would keep the old name when
// the new key finds it, and the database would differ from one built from
// the model (issue 31). The diff gives it as that pair of changes, which
// this replaces.
func renameKeyIndexes(changes []schema.Change) {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		for _, sc := range slices.Clone(mt.Changes) {
			drop, ok := sc.(*schema.DropForeignKey)
			if !ok {
				continue
			}
			add := hazard.FindChange(mt.Changes, func(a *schema.AddForeignKey) bool {
				return !strings.EqualFold(a.F.Symbol, drop.F.Symbol) && sameColumns(a.F.Columns, drop.F.Columns)
			})
			if add == nil {
				continue
			}
			di := hazard.FindChange(mt.Changes, func(d *schema.DropIndex) bool {
				return strings.EqualFold(d.I.Name, drop.F.Symbol) && keyIndex(d.I, drop.F.Columns)
			})
			ai := hazard.FindChange(mt.Changes, func(a *schema.AddIndex) bool {
				return strings.EqualFold(a.I.Name, add.F.Symbol) && keyIndex(a.I, add.F.Columns)
			})
			if di == nil || ai == nil || !reflect.DeepEqual(di.I.Attrs, ai.I.Attrs) {
				continue
			}
			i := slices.IndexFunc(mt.Changes, func(x schema.Change) bool { return x == schema.Change(ai) })
			mt.Changes[i] = &schema.RenameIndex{From: di.I, To: ai.I}
			mt.Changes = slices.DeleteFunc(mt.Changes, func(x schema.Change) bool { return x == schema.Change(di) })
		}
	}
}

// keyIndex reports whether i is an index like the one TiDB makes for a
// foreign key over cols: not unique, over exactly those columns.
func keyIndex(i *schema.Index, cols []*schema.Column) bool {
	if i.Unique || len(i.Parts) != len(cols) {
		return false
	}
	for k, p := range i.Parts {
		if p.C == nil || p.X != nil || !strings.EqualFold(p.C.Name, cols[k].Name) {
			return false
		}
	}
	return true
}

func sameColumns(a, b []*schema.Column) bool {
	return slices.EqualFunc(a, b, func(x, y *schema.Column) bool { return strings.EqualFold(x.Name, y.Name) })
}
