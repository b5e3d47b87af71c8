package datamig_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/gen"
)

// TestGeneratedColumnsRefused: a data migration that writes a generated
// column is refused at its position: both databases refuse it (PostgreSQL
// 428C9, TiDB 3105), after different parts of the file ran (found by
// TestDataDifferential once it drew generated columns).
func TestGeneratedColumnsRefused(t *testing.T) {
	r := gen.CompileSource("schema.hcl", []byte(`
table "t" {
  column "id" {
    type = int
  }
  column "pos" {
    type = bool
    as   = "id > 0"
  }
  primary_key {
    columns = ["id"]
  }
}
`))
	if r.Failed() {
		t.Fatal(r.Diags)
	}
	for _, src := range []string{
		"UPDATE t SET pos = NOT t.pos WHERE t.id = 1;",
		"INSERT INTO t (id, pos) SELECT 2, true;",
	} {
		_, diags := datamig.Compile("data.sql", []byte(src), r.Schema)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), `"pos" of table "t" is generated`) || !strings.Contains(diags.Error(), "data.sql:1,") {
			t.Errorf("%s: %v, want it refused at the column", src, diags)
		}
	}
}
