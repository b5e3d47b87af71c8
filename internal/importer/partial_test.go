package importer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// Partial unique indexes, which TiDB gets as unique keys over generated
// columns CASE WHEN p THEN x END (every part, expression parts, parts that
// name their column), come back from both databases as the same indexes:
// generating again from the imported model gives the same files.
func TestRoundTripPartialUnique(t *testing.T) {
	t.Parallel()
	src := []byte(`
table "g" {
  column "id" {
    type = bigint
  }
  column "owner" {
    type = uuid
    null = true
  }
  column "name" {
    type = varchar(40)
  }
  column "rank" {
    type = int
    null = true
  }
  column "deleted_at" {
    type = timestamp
    null = true
  }
  column "status" {
    type = varchar(10)
  }
  primary_key {
    columns = ["id"]
  }
  index "g_live_uq" {
    unique  = true
    columns = ["owner", "name"]
    where   = "deleted_at IS NULL"
  }
  index "g_active_uq" {
    unique = true
    on {
      column = "owner"
    }
    on {
      expr = "lower(name)"
    }
    where = "status IN ('active', 'held') AND rank > 0"
  }
  index "g_rank_uq" {
    unique = true
    on {
      column = "rank"
      tidb {
        column = "live_rank"
      }
    }
    on {
      column = "status"
    }
    where = "deleted_at IS NULL OR rank < 0"
  }
}
`)
	first := gen.CompileSource("schema.hcl", src)
	if first.Failed() {
		t.Fatal(first.Diags)
	}
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, first.Outputs["postgres"].SQL)
	testproject.RunSQL(t, ti, first.Outputs["tidb"].SQL)
	r, err := importer.Import(context.Background(), []string{pg.URL, ti.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	imported := compiler.Write(r.Schema, r.Notes)
	second := gen.CompileSource("schema.hcl", imported)
	if second.Failed() {
		t.Fatalf("the imported model does not compile: %v\n%s", second.Diags, imported)
	}
	for _, d := range []string{"postgres", "tidb"} {
		want, got := string(first.Outputs[d].SQL), string(second.Outputs[d].SQL)
		if got != want {
			t.Errorf("%s: generated again from the imported model differs at %s", d, testproject.FirstDiff(want, got))
		}
	}
	if strings.Contains(string(imported), `column "g_live_uq_0"`) || strings.Contains(string(imported), "skip") {
		t.Errorf("a generated column or a dialect's own index in the model")
	}
	if t.Failed() {
		t.Logf("summary:\n%s\nimported:\n%s", strings.Join(r.Summary, "\n"), imported)
	}
}
