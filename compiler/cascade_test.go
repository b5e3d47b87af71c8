package compiler_test

import (
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
)

// TestCascadeDepths: a chain counts its levels, SET NULL ends a chain, a
// cycle makes every key it reaches Unbounded, a key without an action on
// delete has no depth, and a key left out is not followed.
func TestCascadeDepths(t *testing.T) {
	src := `
table "a" {
  column "id" { type = int }
  column "b" {
    type = int
    null = true
  }
  primary_key { columns = ["id"] }
  foreign_key "a_b_fk" {
    columns = ["b"]
    ref_table = "b"
    ref_columns = ["id"]
    on_delete = "cascade"
  }
}
table "b" {
  column "id" { type = int }
  column "a" {
    type = int
    null = true
  }
  primary_key { columns = ["id"] }
  foreign_key "b_a_fk" {
    columns = ["a"]
    ref_table = "a"
    ref_columns = ["id"]
    on_delete = "cascade"
  }
}
table "c" {
  column "id" { type = int }
  column "b" {
    type = int
    null = true
  }
  primary_key { columns = ["id"] }
  foreign_key "c_b_fk" {
    columns = ["b"]
    ref_table = "b"
    ref_columns = ["id"]
  }
}
table "p" {
  column "id" { type = int }
  primary_key { columns = ["id"] }
}
table "q" {
  column "id" { type = int }
  column "p" {
    type = int
    null = true
  }
  primary_key { columns = ["id"] }
  foreign_key "q_p_fk" {
    columns = ["p"]
    ref_table = "p"
    ref_columns = ["id"]
    on_delete = "cascade"
  }
}
table "r" {
  column "id" { type = int }
  column "q" {
    type = int
    null = true
  }
  column "q2" {
    type = int
    null = true
  }
  primary_key { columns = ["id"] }
  foreign_key "r_q_fk" {
    columns = ["q"]
    ref_table = "q"
    ref_columns = ["id"]
    on_delete = "set_null"
  }
  foreign_key "r_q2_fk" {
    columns = ["q2"]
    ref_table = "q"
    ref_columns = ["id"]
    on_update = "cascade"
  }
}
table "s" {
  column "id" { type = int }
  column "r" {
    type = int
    null = true
  }
  primary_key { columns = ["id"] }
  foreign_key "s_r_fk" {
    columns = ["r"]
    ref_table = "r"
    ref_columns = ["id"]
    on_delete = "cascade"
  }
}
`
	s, diags := load.Source(load.Options{}, "schema.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	byName := map[string]int{}
	for fk, d := range compiler.CascadeDepths(s, nil) {
		byName[fk.Name] = d
	}
	want := map[string]int{
		"a_b_fk": compiler.Unbounded, "b_a_fk": compiler.Unbounded,
		"q_p_fk": 1, "r_q_fk": 2, "s_r_fk": 1,
	}
	for name, d := range want {
		if got, ok := byName[name]; !ok || got != d {
			t.Errorf("%s: depth %d (present %v), want %d", name, got, ok, d)
		}
	}
	for _, name := range []string{"c_b_fk", "r_q2_fk"} {
		if _, ok := byName[name]; ok {
			t.Errorf("%s has no action on delete and got a depth", name)
		}
	}
	// Leaving out q_p_fk ends q's chain: r's key is at level 1.
	kept := func(_ *compiler.Table, fk *compiler.ForeignKey) bool { return fk.Name != "q_p_fk" }
	for fk, d := range compiler.CascadeDepths(s, kept) {
		if fk.Name == "r_q_fk" && d != 1 {
			t.Errorf("r_q_fk without q_p_fk: depth %d, want 1", d)
		}
		if fk.Name == "q_p_fk" {
			t.Errorf("q_p_fk was left out and got a depth")
		}
	}
}
