package drift_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/testproject"
)

const ttlModel = `
table "sessions" {
  column "id" {
    type = bigint
  }
  column "created_at" {
    type = datetime
  }
  primary_key {
    columns = ["id"]
  }
  ttl {
    column   = "created_at"
    interval = 90
    unit     = "day"
    enabled  = false
  }
}
table "tokens" {
  column "id" {
    type = bigint
  }
  column "issued_at" {
    type = timestamp
  }
  primary_key {
    columns = ["id"]
  }
  ttl {
    column       = "issued_at"
    interval     = 1
    unit         = "year"
    enabled      = false
    job_interval = "24h"
  }
}
`

// TestDriftTTL: tables with a TTL do not drift at head on either database;
// on TiDB a TTL changed, and one removed, by hand are reported with the
// TTL printed, and the fix sets it back.
func TestDriftTTL(t *testing.T) {
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, ttlModel)
			p.Diff("init")
			db := dbtest.New(t, d)
			p.Apply(d, db.URL)
			f := &fixture{p: p, dialect: d}
			if r := f.check(t, db.URL)[0]; r.Status != drift.NoDrift || r.Error != "" {
				t.Fatalf("at head: status %d %s %+v %+v", r.Status, r.Error, r.Migrations, r.Model)
			}
			if d != "tidb" {
				return // PostgreSQL has no TTL: nothing to change by hand.
			}
			exec(t, db, "ALTER TABLE `sessions` TTL = `created_at` + INTERVAL 30 DAY", "ALTER TABLE `tokens` REMOVE TTL")
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
					"table attribute sessions differs: expected TTL = `created_at` + INTERVAL 90 DAY TTL_ENABLE = 'OFF' TTL_JOB_INTERVAL = '1h', found TTL = `created_at` + INTERVAL 30 DAY TTL_ENABLE = 'OFF' TTL_JOB_INTERVAL = '1h'",
					"table attribute tokens differs: expected TTL = `issued_at` + INTERVAL 1 YEAR TTL_ENABLE = 'OFF' TTL_JOB_INTERVAL = '24h', found no TTL",
				}
				slices.Sort(lines)
				if !slices.Equal(lines, want) {
					t.Errorf("against %s: findings\n%q\nwant\n%q", c.Against, lines, want)
				}
				fix := strings.Join(c.Fix, "\n")
				if !strings.Contains(fix, "INTERVAL 90 DAY") || !strings.Contains(fix, "TTL_JOB_INTERVAL = '24h'") {
					t.Errorf("against %s: fix %q", c.Against, c.Fix)
				}
			}
		})
	}
}
