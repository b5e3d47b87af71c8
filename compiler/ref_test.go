package compiler_test

import (
	"slices"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
)

// Every error of the model's own rules names the object it is about (a
// compiler.ObjectRef), so
// that a tool (import) can leave exactly that object out.
func TestValidateRefs(t *testing.T) {
	src := `
table "p" {
  column "id" {
    type = int
  }
  column "code" {
    type = int
  }
  column "ratio" {
    type = double
  }
  column "label" {
    type    = varchar(2)
    default = "abc"
  }
  primary_key {
    columns = ["id"]
  }
  check "p_ratio_ck" {
    expr = "ratio % 2 = 0"
  }
  index "p_code_idx" {
    columns = ["cod"]
  }
}
table "c" {
  column "id" {
    type = int
  }
  column "code" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "c_code_fk" {
    columns     = ["code"]
    ref_table   = "p"
    ref_columns = ["code"]
  }
  index "p_code_idx" {
    columns = ["code"]
  }
}
`
	_, diags := load.Source(load.Options{Dialects: []string{"postgres", "tidb"}}, "s.hcl", []byte(src))
	var got []string
	for _, d := range diags {
		s, ok := compiler.RefOf(d)
		if !ok {
			t.Errorf("no subject: %s", d.Error())
			continue
		}
		got = append(got, s.String())
	}
	for _, want := range []string{
		"the default of column label of p",
		"check p_ratio_ck of p",
		"index p_code_idx of p",
		"foreign key c_code_fk of c",
		"index p_code_idx of c",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no error about %s; got %q", want, got)
		}
	}
}
