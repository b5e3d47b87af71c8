package drift_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/testproject"
)

const keyOptions = `
table "events" {
  column "id" {
    type = bigint
    identity {
      ordered    = false
      shard_bits = 6
    }
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
  primary_key {
    columns = ["id"]
  }
}
table "logs" {
  shard_row_id_bits = 4
  pre_split_regions = 2
  column "id" {
    type = bigint
  }
  primary_key {
    columns   = ["id"]
    clustered = false
  }
}
`

// TestDriftKeyOptions: the tables an unordered identity (AUTO_RANDOM), an
// identity cache (AUTO_ID_CACHE) and a non-clustered key with shard bits
// make do not drift at head on either database; on TiDB a hand change of
// each is reported, printed with the option, with a fix.
func TestDriftKeyOptions(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, keyOptions)
			p.Diff("init")
			db := dbtest.New(t, d)
			p.Apply(d, db.URL)
			f := &fixture{p: p, dialect: d}
			if r := f.check(t, db.URL)[0]; r.Status != drift.NoDrift || r.Error != "" {
				t.Fatalf("at head: status %d %s %+v %+v", r.Status, r.Error, r.Migrations, r.Model)
			}
			if d != "tidb" {
				return // PostgreSQL has neither option: nothing to change by hand.
			}
			exec(t, db, "ALTER TABLE `events` MODIFY COLUMN `id` BIGINT NOT NULL AUTO_RANDOM(7)", "ALTER TABLE `counters` AUTO_ID_CACHE = 300", "ALTER TABLE `logs` SHARD_ROW_ID_BITS = 6")
			r := f.check(t, db.URL)[0]
			if r.Status != drift.Drift {
				t.Fatalf("after the hand changes: status %d %s", r.Status, r.Error)
			}
			for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
				var lines []string
				for _, fd := range c.Findings {
					lines = append(lines, fd.Describe())
				}
				want := []string{
					"column events.id differs: expected bigint NOT NULL AUTO_RANDOM(6, 64), found bigint NOT NULL AUTO_RANDOM(7, 64)",
					"table attribute counters differs: expected AUTO_ID_CACHE = 100, found AUTO_ID_CACHE = 300",
					"table attribute logs differs: expected SHARD_ROW_ID_BITS = 4, found SHARD_ROW_ID_BITS = 6",
				}
				slices.Sort(lines)
				if !slices.Equal(lines, want) {
					t.Errorf("against %s: findings\n%q\nwant\n%q", c.Against, lines, want)
				}
				fix := strings.Join(c.Fix, "\n")
				if !strings.Contains(fix, "AUTO_ID_CACHE = 100") || !strings.Contains(fix, "SHARD_ROW_ID_BITS = 4") || !strings.Contains(strings.ToUpper(fix), "AUTO_RANDOM(6, 64)") {
					t.Errorf("against %s: fix %q", c.Against, c.Fix)
				}
			}
		})
	}
}
