package hazard_test

import (
	"reflect"
	"slices"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
)

// TestSplitModifies: each modify of the type asked for, inside each table's
// changes, becomes the drop and the add split makes of it, where it stood;
// other changes, and changes of other tables or of no table, are kept.
func TestSplitModifies(t *testing.T) {
	oldCk, newCk := &schema.Check{Name: "a_ck", Expr: "n > 0"}, &schema.Check{Name: "a_ck", Expr: "n > 1"}
	oldFK, newFK := &schema.ForeignKey{Symbol: "a_fk"}, &schema.ForeignKey{Symbol: "a_fk"}
	add := &schema.AddColumn{C: &schema.Column{Name: "m"}}
	modCk := &schema.ModifyCheck{From: oldCk, To: newCk}
	modFK := &schema.ModifyForeignKey{From: oldFK, To: newFK}
	other := &schema.ModifyCheck{From: &schema.Check{Name: "b_ck"}, To: &schema.Check{Name: "b_ck"}}
	addTable := &schema.AddTable{T: &schema.Table{Name: "c"}}
	a := &schema.ModifyTable{T: &schema.Table{Name: "a"}, Changes: []schema.Change{add, modCk, modFK}}
	b := &schema.ModifyTable{T: &schema.Table{Name: "b"}, Changes: []schema.Change{other}}
	changes := []schema.Change{addTable, a, b}

	got := hazard.SplitModifies(changes, func(m *schema.ModifyCheck) (schema.Change, schema.Change, bool) {
		return &schema.DropCheck{C: m.From}, &schema.AddCheck{C: m.To}, true
	})
	if len(got) != 3 || got[0] != schema.Change(addTable) || got[1] != schema.Change(a) || got[2] != schema.Change(b) {
		t.Fatalf("the top-level changes changed: %v", got)
	}
	want := []schema.Change{add, &schema.DropCheck{C: oldCk}, &schema.AddCheck{C: newCk}, modFK}
	if !reflect.DeepEqual(a.Changes, want) || a.Changes[1].(*schema.DropCheck).C != oldCk || a.Changes[2].(*schema.AddCheck).C != newCk {
		t.Errorf("table a: %#v\nwant %#v", a.Changes, want)
	}
	if len(b.Changes) != 2 || b.Changes[0].(*schema.DropCheck).C != other.From || b.Changes[1].(*schema.AddCheck).C != other.To {
		t.Errorf("table b: %#v", b.Changes)
	}

	hazard.SplitModifies(changes, func(m *schema.ModifyForeignKey) (schema.Change, schema.Change, bool) {
		return &schema.DropForeignKey{F: m.From}, &schema.AddForeignKey{F: m.To}, true
	})
	if len(a.Changes) != 5 || a.Changes[3].(*schema.DropForeignKey).F != oldFK || a.Changes[4].(*schema.AddForeignKey).F != newFK {
		t.Errorf("table a after the foreign keys: %#v", a.Changes)
	}

	// A modify that split declines stays as it is.
	plain, gen := &schema.Column{Name: "p"}, &schema.Column{Name: "g", Attrs: []schema.Attr{&schema.GeneratedExpr{Expr: "m + 1"}}}
	keep := &schema.ModifyColumn{From: plain, To: plain}
	toGen := &schema.ModifyColumn{From: plain, To: gen}
	c := &schema.ModifyTable{T: &schema.Table{Name: "c"}, Changes: []schema.Change{keep, toGen}}
	hazard.SplitModifies([]schema.Change{c}, func(m *schema.ModifyColumn) (schema.Change, schema.Change, bool) {
		return &schema.DropColumn{C: m.From}, &schema.AddColumn{C: m.To}, len(m.To.Attrs) > 0
	})
	if len(c.Changes) != 3 || c.Changes[0] != schema.Change(keep) || c.Changes[1].(*schema.DropColumn).C != plain || c.Changes[2].(*schema.AddColumn).C != gen {
		t.Errorf("table c: %#v", c.Changes)
	}
}

// TestRebuildOverRecreated: the indexes and CHECKs over a column dropped and
// added again are dropped and added again; those over other columns, or
// that the changes already touch, are not.
func TestRebuildOverRecreated(t *testing.T) {
	name, qty := schema.NewStringColumn("name", "varchar"), schema.NewIntColumn("qty", "int")
	tbl := schema.NewTable("items").AddColumns(name, qty)
	byName := schema.NewIndex("items_name_idx").AddColumns(name)
	byExpr := schema.NewIndex("items_lower_name_idx").AddExprs(&schema.RawExpr{X: "lower(`name`)"})
	byQty := schema.NewIndex("items_qty_idx").AddColumns(qty)
	byPrefix := schema.NewIndex("items_names_idx").AddExprs(&schema.RawExpr{X: "lower(names)"})
	tbl.AddIndexes(byName, byExpr, byQty, byPrefix)
	ck, other := schema.NewCheck().SetName("items_name_ck").SetExpr(`"Name" <> 'x'`), schema.NewCheck().SetName("items_qty_ck").SetExpr("qty > 0")
	tbl.AddChecks(ck, other)
	mt := &schema.ModifyTable{T: tbl, Changes: []schema.Change{&schema.DropColumn{C: name}, &schema.AddColumn{C: name}, &schema.DropIndex{I: byName}, &schema.AddIndex{I: byName}}}
	hazard.RebuildOverRecreated([]schema.Change{mt})
	var got []string
	for _, c := range mt.Changes[4:] {
		switch c := c.(type) {
		case *schema.DropIndex:
			got = append(got, "drop "+c.I.Name)
		case *schema.AddIndex:
			got = append(got, "add "+c.I.Name)
		case *schema.DropCheck:
			got = append(got, "drop "+c.C.Name)
		case *schema.AddCheck:
			got = append(got, "add "+c.C.Name)
		}
	}
	want := []string{"drop items_lower_name_idx", "drop items_name_ck", "add items_lower_name_idx", "add items_name_ck"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
