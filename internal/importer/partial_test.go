package importer_test

import (
	"strings"
	"testing"
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
	first, pg, ti := applyBoth(t, src)
	_, imported := regenerate(t, first, pg.URL, ti.URL)
	if strings.Contains(string(imported), `column "g_live_uq_0"`) || strings.Contains(string(imported), "skip") {
		t.Errorf("a generated column or a dialect's own index in the model")
	}
}

// TiDB builds a descending index part ascending (it drops DESC): the index
// pairs with PostgreSQL's, which keeps the order, whichever URL comes first.
func TestRoundTripDescendingIndex(t *testing.T) {
	t.Parallel()
	src := []byte(`
table "d" {
  column "id" {
    type = bigint
  }
  column "at" {
    type = timestamp
  }
  column "name" {
    type = varchar(40)
  }
  primary_key {
    columns = ["id"]
  }
  index "d_recent" {
    on {
      column = "at"
      desc   = true
    }
    on {
      column = "name"
    }
  }
}
`)
	first, pg, ti := applyBoth(t, src)
	for _, urls := range [][]string{{pg.URL, ti.URL}, {ti.URL, pg.URL}} {
		r, _ := regenerate(t, first, urls...)
		if s := strings.Join(r.Summary, "\n"); strings.Contains(s, "d_recent") {
			t.Errorf("%s: the summary names the index:\n%s", redactedScheme(urls[0]), s)
		}
	}
}
