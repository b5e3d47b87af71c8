package plantest_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest"
)

// indexed has an index with every option both databases take here: INCLUDE
// and a fillfactor (PostgreSQL), INVISIBLE (TiDB), and a unique index with
// NULLS NOT DISTINCT over a NOT NULL column (a plain unique key on TiDB;
// PostgreSQL 15 and later: the plan oracle runs on the distribution's
// server).
const indexed = `
table "docs" {
  column "id" {
    type = bigint
  }
  column "tenant" {
    type = varchar(40)
  }
  column "title" {
    type = varchar(200)
    null = true
  }
  column "code" {
    type = varchar(20)
  }
  primary_key {
    columns = ["id"]
  }
  index "docs_tenant_idx" {
    columns = ["tenant"]
    include = ["title"]
    storage = { fillfactor = 70 }
    visible = false
  }
  index "docs_code_uq" {
    unique         = true
    columns        = ["code"]
    nulls_distinct = false
  }
}
`

// TestIndexOptionChanges creates the table on both databases (with rows),
// then plans and applies each change of an option, the databases migrated
// equal to ones built from the model: a fillfactor changed and removed,
// visibility toggled, INCLUDE changed (a rebuild), NULLS NOT DISTINCT
// removed (a rebuild).
func TestIndexOptionChanges(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 1, "", indexed)
	for name, after := range map[string]string{
		"fillfactor": strings.Replace(indexed, "fillfactor = 70", "fillfactor = 50", 1),
		"no storage": strings.Replace(indexed, "    storage = { fillfactor = 70 }\n", "", 1),
		"visible":    strings.Replace(indexed, "visible = false", "visible = true", 1),
		"include":    strings.Replace(indexed, `include = ["title"]`, `include = ["title", "code"]`, 1),
		"nulls":      strings.Replace(indexed, "nulls_distinct = false", "nulls_distinct = true", 1),
	} {
		t.Run(name, func(t *testing.T) { plantest.Replay(t, 1, indexed, after) })
	}
}

// TestUniqueIndexOfReferencedTable: a unique index of a table a foreign key
// references, over columns the key does not reference, is given INCLUDE
// columns and made NULLS NOT DISTINCT. PostgreSQL binds a foreign key to a
// unique index over exactly its referenced columns, so these indexes are
// free, and the online plan builds them CONCURRENTLY; it dropped and
// created them plainly, blocking writes for the build, and lint refused
// the file (PG101; plan oracle, seed 94949, evolution 94949285039).
func TestUniqueIndexOfReferencedTable(t *testing.T) {
	t.Parallel()
	referenced := indexed + `
table "notes" {
  column "id" {
    type = bigint
  }
  column "doc_id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "notes_doc_fk" {
    columns     = ["doc_id"]
    ref_table   = "docs"
    ref_columns = ["id"]
  }
}
`
	for name, after := range map[string]string{
		"include": strings.Replace(referenced, "    nulls_distinct = false\n", "    nulls_distinct = false\n    include        = [\"title\"]\n", 1),
		"nulls":   strings.Replace(referenced, "nulls_distinct = false", "nulls_distinct = true", 1),
	} {
		t.Run(name, func(t *testing.T) {
			if after == referenced {
				t.Fatal("the edit did not apply")
			}
			plantest.ReplayLinted(t, 1, referenced, after)
		})
	}
}
