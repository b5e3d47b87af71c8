package hazard

import (
	"slices"
	"testing"

	"ariga.io/atlas/sql/schema"
)

func TestSummaryAndComment(t *testing.T) {
	h := Hazard{Code: "PG101", Table: "docs", Lock: "SHARE", Blocks: BlocksWrites, Held: WholeScan, Scan: true, CanFail: true, Text: "existing duplicates make it fail"}
	if got, want := h.Summary(), "PG101 docs: SHARE lock for the whole scan (blocks writes), scans the table, can fail on existing rows; existing duplicates make it fail"; got != want {
		t.Errorf("Summary:\n got %q\nwant %q", got, want)
	}
	if !h.Severe() {
		t.Error("a write-blocking lock held for a scan is severe")
	}
	brief := Hazard{Code: "PG110", Table: "docs", Lock: "ACCESS EXCLUSIVE", Blocks: BlocksAll, Held: Brief}
	if brief.Severe() || brief.Summary() != "PG110 docs: ACCESS EXCLUSIVE lock briefly (blocks reads and writes)" {
		t.Errorf("brief: severe %v, %q", brief.Severe(), brief.Summary())
	}
	lost := Hazard{Code: "TD105", Table: "docs", LosesData: true, Text: "the values of column body are lost"}
	if !lost.Severe() || lost.Summary() != "TD105 docs: loses data; the values of column body are lost" {
		t.Errorf("lost: severe %v, %q", lost.Severe(), lost.Summary())
	}
	s := Stmt{Comment: "create index", Hazards: []Hazard{h, brief}, Precheck: "dups: SELECT 1"}
	want := "create index\n-- hazard " + h.Summary() + "\n-- hazard " + brief.Summary() + "\n-- schemagen:precheck dups: SELECT 1"
	if got := s.FileComment(); got != want {
		t.Errorf("FileComment:\n got %q\nwant %q", got, want)
	}
	if got := Codes([]Hazard{brief, h, brief}); !slices.Equal(got, []string{"PG101", "PG110"}) {
		t.Errorf("Codes: %v", got)
	}
}

// TestReplacedLater: the drops of indexes and CHECKs go after the table's
// other changes, but for one whose name an added one takes, one over a
// column the table's changes drop, rename or modify, one over a new foreign
// key's columns, and an index when the table would be over its limit.
func TestReplacedLater(t *testing.T) {
	a, b, c := &schema.Column{Name: "a"}, &schema.Column{Name: "b"}, &schema.Column{Name: "c"}
	tbl := &schema.Table{Name: "t", Columns: []*schema.Column{a, b, c}}
	idx := func(name string, cols ...*schema.Column) *schema.Index {
		i := &schema.Index{Name: name, Table: tbl}
		for _, c := range cols {
			i.Parts = append(i.Parts, &schema.IndexPart{C: c})
		}
		return i
	}
	ck := func(name, expr string) *schema.Check { return &schema.Check{Name: name, Expr: expr} }
	dropOld := &schema.DropIndex{I: idx("t_a_idx", a)}
	dropSame := &schema.DropIndex{I: idx("t_same_idx", a)}
	dropOverB := &schema.DropIndex{I: idx("t_b_idx", b)}
	ckOld := &schema.DropCheck{C: ck("t_old_ck", "a > 0")}
	ckSame := &schema.DropCheck{C: ck("t_same_ck", "a > 1")}
	ckOverC := &schema.DropCheck{C: ck("t_c_ck", "`c` > 0")}
	mt := &schema.ModifyTable{T: tbl, Changes: []schema.Change{
		dropOld, dropSame, dropOverB, ckOld, ckSame, ckOverC,
		&schema.AddIndex{I: idx("t_ab_idx", a, b)},
		&schema.AddIndex{I: idx("t_same_idx", a, c)},
		&schema.ModifyColumn{From: b, To: b, Change: schema.ChangeType},
		&schema.ModifyCheck{From: ck("t_same_ck", "a > 1"), To: ck("t_same_ck", "a > 2")},
		&schema.AddForeignKey{F: &schema.ForeignKey{Symbol: "t_fk", Table: tbl, Columns: []*schema.Column{c}}},
	}}
	tbl.Indexes = []*schema.Index{idx("t_ab_idx", a, b), idx("t_same_idx", a, c)}
	late := ReplacedLater([]schema.Change{mt}, 0)
	for ch, want := range map[schema.Change]bool{dropOld: true, dropSame: false, dropOverB: false, ckOld: true, ckSame: false, ckOverC: false} {
		if got := late(tbl, ch); got != want {
			t.Errorf("%T %v: late %v, want %v", ch, ch, got, want)
		}
	}
	if ReplacedLater([]schema.Change{mt}, 4)(tbl, dropOld) {
		t.Error("an index drop late although the table would hold more than 4 indexes meanwhile")
	}
}
