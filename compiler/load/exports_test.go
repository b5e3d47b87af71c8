package load_test

import (
	"path/filepath"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
)

const exportsModel = `table "t" {
  column "id" {
    type = int
  }
  index "t_id_idx" {
    columns = ["id"]
    comment = "by id, it's \"quoted\""
  }
}

export "typescript" {
  path = "web/schema.ts"
}

export "json" {
  path = "/abs/schema.json"
}
`

// TestExportsAndIndexComment: export blocks and an index's comment are
// read, a relative path from the declaring file's directory, and written
// back by compiler.Write as they were read.
func TestExportsAndIndexComment(t *testing.T) {
	opts := load.Options{Dialects: []string{"postgres", "tidb"}}
	s, diags := load.Source(opts, filepath.Join("proj", "schema.hcl"), []byte(exportsModel))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	check := func(s *compiler.Schema) {
		t.Helper()
		if len(s.Exports) != 2 || s.Exports[0].Format != "typescript" || s.Exports[0].Path != "web/schema.ts" || s.Exports[1].Format != "json" || s.Exports[1].File != "/abs/schema.json" {
			t.Fatalf("exports %+v %+v", s.Exports[0], s.Exports[1])
		}
		if got := s.Tables[0].Indexes[0].Comment; got != `by id, it's "quoted"` {
			t.Errorf("index comment %q", got)
		}
	}
	check(s)
	if want := filepath.Join("proj", "web", "schema.ts"); s.Exports[0].File != want {
		t.Errorf("the export's file is %q, want %q (relative to the schema file)", s.Exports[0].File, want)
	}
	again, diags := load.Source(opts, "schema.hcl", compiler.Write(s, nil))
	if diags.HasErrors() {
		t.Fatalf("%v\n%s", diags, compiler.Write(s, nil))
	}
	check(again)
	if _, diags := load.Source(opts, "schema.hcl", []byte(`table "t" {
  column "id" {
    type = int
  }
  index "t_id_idx" {
    columns = ["id"]
    comment = 1
  }
}
`)); !diags.HasErrors() {
		t.Error("an index comment that is no string is accepted")
	}
}
