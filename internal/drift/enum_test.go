package drift_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/testproject"
)

const enumModel = `
enum "order_status" {
  values = ["pending", "paid"]
}

table "orders" {
  column "id" {
    type = int
  }
  column "status" {
    type    = enum.order_status
    default = "pending"
  }
  primary_key {
    columns = ["id"]
  }
}
`

// TestDriftEnum: a value added to an enum by hand is drift on both
// databases (PostgreSQL: the enum type changed; TiDB: the column), with the
// finding named and a fix.
func TestDriftEnum(t *testing.T) {
	hand := map[string]string{
		"postgres": `ALTER TYPE "order_status" ADD VALUE 'lost'`,
		"tidb":     "ALTER TABLE `orders` MODIFY COLUMN `status` ENUM('pending', 'paid', 'lost') NOT NULL DEFAULT 'pending'",
	}
	want := map[string]string{
		"postgres": "enum order_status differs: expected ENUM ('pending', 'paid'), found ENUM ('pending', 'paid', 'lost')",
		"tidb":     "column orders.status differs",
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, enumModel)
			p.Diff("init")
			db := dbtest.New(t, d)
			p.Apply(d, db.URL)
			f := &fixture{p: p, dialect: d}
			if r := f.check(t, db.URL)[0]; r.Status != drift.NoDrift || r.Error != "" {
				t.Fatalf("at head: status %d %s %+v", r.Status, r.Error, r.Model)
			}
			exec(t, db, hand[d])
			r := f.check(t, db.URL)[0]
			if r.Status != drift.Drift {
				t.Fatalf("after %s: status %d %s", hand[d], r.Status, r.Error)
			}
			var lines []string
			for _, fd := range r.Model.Findings {
				lines = append(lines, fd.Describe())
			}
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want[d]) }) {
				t.Errorf("findings %q, want one starting %q", lines, want[d])
			}
			if len(r.Model.Fix) == 0 && d == "tidb" {
				t.Errorf("no fix")
			}
			t.Logf("%s: %q, fix %q", d, lines, r.Model.Fix)
		})
	}
}
