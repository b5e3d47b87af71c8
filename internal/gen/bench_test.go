package gen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/schemagen/schemagen/internal/gen"
)

// synthetic returns a model of n tables with 15 columns, 3 CHECKs and 3
// indexes each; every table after the first has a foreign key to the one
// before it.
func synthetic(n int) []byte {
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

var sizes = []int{100, 1000, 10000}

// BenchmarkGenerate measures the whole pipeline to both dialects; compare it
// with BenchmarkParseHCL of the same sizes (the goal is within 2x).
func BenchmarkGenerate(b *testing.B) {
	for _, n := range sizes {
		src := synthetic(n)
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				r := gen.CompileSource("bench.hcl", src)
				if r.Failed() {
					b.Fatal(describe(r.Diags))
				}
			}
		})
	}
}

// BenchmarkParseHCL is the baseline: HCL parsing alone of the same files.
func BenchmarkParseHCL(b *testing.B) {
	for _, n := range sizes {
		src := synthetic(n)
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, diags := hclparse.NewParser().ParseHCL(src, "bench.hcl"); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
		})
	}
}

func TestSyntheticModelCompiles(t *testing.T) {
	r := gen.CompileSource("bench.hcl", synthetic(3))
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	// The non-unique partial index becomes a full index on TiDB, with a warning.
	if n := len(r.Diags); n != 3 {
		t.Errorf("got %d warnings, want 3: %s", n, describe(r.Diags))
	}
}
