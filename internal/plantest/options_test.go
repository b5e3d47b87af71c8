package plantest_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest"
)

// keyed is a table numbered by an unordered identity (TiDB AUTO_RANDOM) and
// one numbered by an identity whose ids TiDB hands out in batches
// (AUTO_ID_CACHE).
const keyed = `
table "events" {
  column "id" {
    type = bigint
    identity {
      ordered    = false
      shard_bits = 6
    }
  }
  column "body" {
    type = varchar(40)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
table "counters" {
  column "id" {
    type = bigint
    identity {
      cache = 100
    }
  }
  column "n" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestKeyOptions creates both tables on both databases (with rows), then
// plans and applies what TiDB changes in place: more shard bits, another
// cache other than 1.
func TestKeyOptions(t *testing.T) {
	plantest.Replay(t, 1, "", keyed)
	after := strings.Replace(strings.Replace(keyed, "shard_bits = 6", "shard_bits = 8", 1), "cache = 100", "cache = 250", 1)
	plantest.Replay(t, 1, keyed, after)
}

// TestKeyOptionRefusals: what TiDB cannot change in place is refused at
// migrate diff, naming the change and what to write instead.
func TestKeyOptionRefusals(t *testing.T) {
	cases := []struct{ name, after, change, instead string }{
		{"fewer shard bits", strings.Replace(keyed, "shard_bits = 6", "shard_bits = 4", 1), "lowering the shard_bits", "at least 6"},
		{"another range", strings.Replace(keyed, "shard_bits = 6", "shard_bits = 6\n      range = 60", 1), "range", "new table"},
		{"ordered", strings.Replace(keyed, "      ordered    = false\n      shard_bits = 6\n", "", 1), "removing AUTO_RANDOM", "new table"},
		{"unordered", strings.Replace(keyed, "cache = 100", "ordered = false", 1), "unordered", "tidb_allow_remove_auto_inc"},
		{"cache to 1", strings.Replace(keyed, "cache = 100", "cache = 1", 1), "cache from 100 to 1", "new table"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := refused(t, keyed, c.after, c.name)
			if ref.Database != "TiDB" || !strings.Contains(ref.Change, c.change) || !strings.Contains(ref.Instead, c.instead) {
				t.Fatalf("the refusal does not name the change and what to write: %v", ref)
			}
		})
	}
}
