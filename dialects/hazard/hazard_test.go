package hazard

import (
	"slices"
	"testing"
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
