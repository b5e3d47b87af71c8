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
	t.Parallel()
	plantest.Replay(t, 1, "", keyed)
	after := strings.Replace(strings.Replace(keyed, "shard_bits = 6", "shard_bits = 8", 1), "cache = 100", "cache = 250", 1)
	plantest.Replay(t, 1, keyed, after)
}

// TestKeyOptionRefusals: what TiDB cannot change in place is refused at
// migrate diff, naming the change and what to write instead.
func TestKeyOptionRefusals(t *testing.T) {
	t.Parallel()
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

// laidOut is a table TiDB stores by hidden row ids (clustered = false),
// their high bits scattered and its regions split ahead, beside one stored
// by its key, as TiDB's default and as written.
const laidOut = `
table "logs" {
  shard_row_id_bits = 4
  pre_split_regions = 2
  column "id" {
    type = bigint
  }
  column "msg" {
    type = varchar(40)
    null = true
  }
  primary_key {
    columns   = ["id"]
    clustered = false
  }
}
table "users" {
  column "id" {
    type = bigint
  }
  primary_key {
    columns   = ["id"]
    clustered = true
  }
}
`

// TestLayoutOptions creates both tables on both databases (with rows),
// then plans and applies what TiDB changes in place: the shard bits, and
// them removed with the pre-split regions.
func TestLayoutOptions(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 1, "", laidOut)
	more := strings.Replace(laidOut, "shard_row_id_bits = 4", "shard_row_id_bits = 6", 1)
	plantest.Replay(t, 1, laidOut, more)
	none := strings.Replace(strings.Replace(laidOut, "  shard_row_id_bits = 4\n", "", 1), "  pre_split_regions = 2\n", "", 1)
	plantest.Replay(t, 1, laidOut, none)
}

// TestLayoutRefusals: a key made clustered or non-clustered, and other
// pre-split regions, are refused at migrate diff with what to do.
func TestLayoutRefusals(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, after, change, instead string }{
		{"clustered", strings.Replace(strings.Replace(strings.Replace(laidOut, "clustered = false", "clustered = true", 1), "  shard_row_id_bits = 4\n", "", 1), "  pre_split_regions = 2\n", "", 1), "making the primary key clustered", "clustered = true"},
		{"non-clustered", strings.Replace(laidOut, "clustered = true", "clustered = false", 1), "making the primary key non-clustered", "clustered = false"},
		{"pre-split", strings.Replace(laidOut, "pre_split_regions = 2", "pre_split_regions = 3", 1), "pre_split_regions", "new table"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ref := refused(t, laidOut, c.after, c.name)
			if ref.Database != "TiDB" || !strings.Contains(ref.Change, c.change) || !strings.Contains(ref.Instead, c.instead) {
				t.Fatalf("the refusal does not name the change and what to write: %v", ref)
			}
		})
	}
}
