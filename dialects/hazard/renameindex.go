package hazard

import (
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"
)

// RenameIndexes replaces, in each table's changes, an index dropped and one
// added that differs from it in nothing but its name by a RenameIndex,
// which changes only the catalog. The diff gives an index, unique key or
// unique constraint renamed (a table rebuilt through a backup table and a
// copy renames every one) as a drop and a build, which reads every row and,
// when a foreign key the plan changes references the key, builds it under
// a lock that blocks reads and writes (plan oracle, seed 92929, evolution
// 92929278969). Two indexes are the same when the database's own table
// diff finds no change between the old one under the new name and the new
// one; named gives that copy (a dialect renames what else holds the name,
// a constraint), or nil where the dialect keeps the drop and the build.
// A rename is left out where names cross: the new name is one the table
// has now, the old one an index the table gains, or either is dropped or
// added elsewhere in the plan.
func RenameIndexes(d schema.Differ, changes []schema.Change, named func(t *schema.Table, i *schema.Index, name string) *schema.Index) {
	taken := map[string]int{}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.DropTable:
			taken[strings.ToLower(c.T.Name)] += 2
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				switch sc := sc.(type) {
				case *schema.AddIndex:
					taken[strings.ToLower(sc.I.Name)]++
				case *schema.DropIndex:
					taken[strings.ToLower(sc.I.Name)]++
				}
			}
		}
	}
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		for _, sc := range slices.Clone(mt.Changes) {
			add, ok := sc.(*schema.AddIndex)
			if !ok || taken[strings.ToLower(add.I.Name)] != 1 {
				continue
			}
			drop := FindChange(mt.Changes, func(x *schema.DropIndex) bool {
				return taken[strings.ToLower(x.I.Name)] == 1 && !strings.EqualFold(x.I.Name, add.I.Name) &&
					x.I.Unique == add.I.Unique && len(x.I.Parts) == len(add.I.Parts) && !hasIndex(x.I.Table, add.I.Name) && !hasIndex(mt.T, x.I.Name) &&
					sameIndex(d, mt.T, named(mt.T, x.I, add.I.Name), add.I)
			})
			if drop == nil {
				continue
			}
			i := slices.IndexFunc(mt.Changes, func(x schema.Change) bool { return x == schema.Change(add) })
			mt.Changes[i] = &schema.RenameIndex{From: drop.I, To: add.I}
			mt.Changes = slices.DeleteFunc(mt.Changes, func(x schema.Change) bool { return x == schema.Change(drop) })
		}
	}
}

// sameIndex tells whether the database's table diff finds no change from
// index a to index b of table t (a nil a: no).
func sameIndex(d schema.Differ, t *schema.Table, a, b *schema.Index) bool {
	if a == nil {
		return false
	}
	t1 := &schema.Table{Name: t.Name, Schema: t.Schema, Columns: t.Columns, Indexes: []*schema.Index{a}}
	t2 := &schema.Table{Name: t.Name, Schema: t.Schema, Columns: t.Columns, Indexes: []*schema.Index{b}}
	diff, err := d.TableDiff(t1, t2)
	return err == nil && len(diff) == 0
}

// hasIndex tells whether table t has an index named name (a nil t: no).
func hasIndex(t *schema.Table, name string) bool {
	return t != nil && slices.ContainsFunc(t.Indexes, func(i *schema.Index) bool { return strings.EqualFold(i.Name, name) })
}

// FindChange is the first of changes of type T that ok accepts, or nil.
func FindChange[T schema.Change](changes []schema.Change, ok func(T) bool) T {
	var zero T
	for _, c := range changes {
		if x, is := c.(T); is && ok(x) {
			return x
		}
	}
	return zero
}
