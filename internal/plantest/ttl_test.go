package plantest_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest"
)

// expiring is a table whose rows TiDB expires 10 years after created_at
// (the rows drawn are older: the jobs are off), beside a table without TTL
// and with a second date column the TTL moves to.
const expiring = `
table "sessions" {
  column "id" {
    type = bigint
  }
  column "created_at" {
    type = datetime
  }
  column "seen_on" {
    type = date
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  ttl {
    column   = "created_at"
    interval = 10
    unit     = "year"
    enabled  = false
  }
}
`

// TestTTL creates the table on both databases (with rows), then plans and
// applies each change of its TTL: another interval and job interval, the
// TTL moved to another column, removed, and added back (PostgreSQL's
// tables do not change: it has no TTL).
func TestTTL(t *testing.T) {
	t.Parallel()
	plantest.Replay(t, 1, "", expiring)
	longer := strings.Replace(strings.Replace(expiring, "interval = 10", "interval = 20", 1), "enabled  = false", "enabled  = false\n    job_interval = \"24h\"", 1)
	plantest.Replay(t, 1, expiring, longer)
	moved := strings.Replace(strings.Replace(expiring, `column   = "created_at"`, `column   = "seen_on"`, 1), "unit     = \"year\"", "unit     = \"month\"", 1)
	plantest.Replay(t, 1, expiring, moved)
	gone := expiring[:strings.Index(expiring, "  ttl {")] + "}\n"
	plantest.Replay(t, 1, expiring, gone)
	plantest.Replay(t, 1, gone, expiring)
	// The TTL's column dropped with it, and another one added with a TTL.
	dropped := strings.Replace(gone, "  column \"seen_on\" {\n    type = date\n    null = true\n  }\n", "", 1)
	plantest.Replay(t, 1, moved, dropped)
	added := strings.Replace(expiring, `column "seen_on"`, `column "expires_on"`, 1)
	added = strings.Replace(added, `column   = "created_at"`, `column   = "expires_on"`, 1)
	plantest.Replay(t, 1, gone, added)
}
