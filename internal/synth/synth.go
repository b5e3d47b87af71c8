// Package synth makes synthetic schema models for benchmarks.
package synth

import (
	"fmt"
	"strings"
)

// Model returns a model of n tables with 15 columns, 3 CHECKs and 3
// indexes each; every table after the first has a foreign key to the one
// before it.
func Model(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "table \"t%d\" {\n", i)
		cols := []string{
			`"id" {
    type = uuid
  }`, `"tenant_id" {
    type = varchar(64)
  }`, `"parent_id" {
    type = uuid
    null = true
  }`, `"name" {
    type = varchar(200)
  }`, `"state" {
    type = varchar(16)
  }`, `"revision" {
    type = int
  }`, `"amount" {
    type    = decimal(12,2)
    default = 0
  }`, `"doc" {
    type = json
  }`, `"note" {
    type = text
    null = true
  }`, `"flag" {
    type    = bool
    default = false
  }`, `"size" {
    type = bigint
  }`, `"ratio" {
    type = double
    null = true
  }`, `"born_on" {
    type = date
    null = true
  }`, `"created_at" {
    type    = timestamp
    default = now()
  }`, `"updated_at" {
    type = timestamp
  }`,
		}
		for _, c := range cols {
			fmt.Fprintf(&b, "  column %s\n", c)
		}
		fmt.Fprintf(&b, "  primary_key {\n    columns = [\"id\"]\n  }\n")
		fmt.Fprintf(&b, "  check \"t%d_state_ck\" {\n    expr = \"state IN ('new', 'active', 'done') AND revision >= 1\"\n  }\n", i)
		fmt.Fprintf(&b, "  check \"t%d_name_ck\" {\n    expr = \"char_length(name) > 0 AND name ~ '^[a-z][a-z0-9_]*$'\"\n  }\n", i)
		fmt.Fprintf(&b, "  check \"t%d_doc_ck\" {\n    expr = \"json_type(doc) = 'object' AND (note IS NULL OR note <> '')\"\n  }\n", i)
		fmt.Fprintf(&b, "  index \"t%d_tenant_idx\" {\n    columns = [\"tenant_id\", \"state\", \"revision\"]\n  }\n", i)
		fmt.Fprintf(&b, "  index \"t%d_name_uq\" {\n    unique = true\n    columns = [\"tenant_id\", \"name\"]\n  }\n", i)
		fmt.Fprintf(&b, "  index \"t%d_live_idx\" {\n    columns = [\"updated_at\"]\n    where = \"state <> 'done'\"\n  }\n", i)
		if i > 0 {
			fmt.Fprintf(&b, "  foreign_key \"t%d_parent_fk\" {\n    columns = [\"parent_id\"]\n    ref_table = \"t%d\"\n    ref_columns = [\"id\"]\n  }\n", i, i-1)
		}
		b.WriteString("}\n\n")
	}
	return []byte(b.String())
}

// Warnings returns a model of n small tables, each with a non-unique partial
// index, which TiDB makes full with a warning: the case of many identical
// warnings.
func Warnings(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `table "t%d" {
  column "id" {
    type = uuid
  }
  column "state" {
    type = varchar(16)
  }
  column "updated_at" {
    type = timestamp
  }
  primary_key {
    columns = ["id"]
  }
  index "t%d_live_idx" {
    columns = ["updated_at"]
    where   = "state <> 'done'"
  }
}

`, i, i)
	}
	return []byte(b.String())
}
