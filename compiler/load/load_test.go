package load_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/load"
)

// TestSourcePositions loads a model with one unknown column and one foreign
// key to columns that are not a key: each error points at its line and
// column, and the rest of the model is still built.
func TestSourcePositions(t *testing.T) {
	src := `table "a" {
  column "id" {
    type = int
  }
  column "n" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  index "a_n_idx" {
    columns = ["nn"]
  }
}
table "b" {
  column "a_n" {
    type = int
  }
  foreign_key "b_a_fk" {
    columns     = ["a_n"]
    ref_table   = "a"
    ref_columns = ["n"]
  }
}
`
	s, diags := load.Source(load.Options{}, "schema.hcl", []byte(src))
	if s == nil || s.Table("a") == nil || s.Table("b") == nil {
		t.Fatalf("the model was not built: %v", diags)
	}
	var got []string
	for _, d := range diags.Errs() {
		got = append(got, d.Error())
	}
	want := []string{
		`schema.hcl:12,16-20: Unknown column; The index a_n_idx names column "nn", which table "a" does not have (did you mean "n"?).`,
		`schema.hcl:21,19-22: Foreign key target is not unique`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d is %q, want it to start with %q", i, got[i], want[i])
		}
	}
	if names := s.SourceNames(); len(names) != 1 || names[0] != "schema.hcl" {
		t.Errorf("SourceNames = %v", names)
	}
}
