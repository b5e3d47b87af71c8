package drift_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/testproject"
)

const commentedIndexModel = `
table "docs" {
  column "id" {
    type = int
  }
  column "title" {
    type = varchar(100)
  }
  primary_key {
    columns = ["id"]
  }
  index "docs_title_idx" {
    columns = ["title"]
    comment = "Search by title"
  }
}
`

// TestDriftIndexComment: an index comment changed by hand is drift, shown
// with both comments (the finding read "expected (title), found (title)"
// before), and the fix drift prints brings it back.
func TestDriftIndexComment(t *testing.T) {
	hand := map[string]string{
		"postgres": `COMMENT ON INDEX "docs_title_idx" IS 'changed by hand'`,
		// TiDB sets an index's comment only when it creates it, and not
		// in the ALTER that drops it (1061).
		"tidb": "ALTER TABLE `docs` DROP INDEX `docs_title_idx`;ALTER TABLE `docs` ADD INDEX `docs_title_idx` (`title`) COMMENT 'changed by hand'",
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			t.Parallel()
			p := testproject.New(t, commentedIndexModel)
			db := dbtest.New(t, d)
			p.Diff("init")
			p.Apply(d, db.URL)
			check := func() *drift.Report {
				return drift.Check(context.Background(), drift.Options{Target: p.Target(d), Dev: p.Dev, Model: p.Model(), Timeout: time.Minute}, []string{db.URL})[0]
			}
			if r := check(); r.Status != drift.NoDrift {
				t.Fatalf("migrated: status %d %s %v %v", r.Status, r.Error, described(r.Migrations), described(r.Model))
			}
			exec(t, db, strings.Split(hand[d], ";")...)
			r := check()
			if r.Status != drift.Drift || r.Error != "" {
				t.Fatalf("after the comment changed: status %d %s", r.Status, r.Error)
			}
			var lines []string
			for _, fd := range r.Model.Findings {
				lines = append(lines, fd.Describe())
			}
			text := strings.Join(lines, "\n")
			if !strings.Contains(text, "docs_title_idx") || !strings.Contains(text, "COMMENT 'Search by title'") || !strings.Contains(text, "COMMENT 'changed by hand'") {
				t.Errorf("the findings do not show the index's comments:\n%s", text)
			}
			exec(t, db, r.Model.Fix...)
			if r := check(); r.Status != drift.NoDrift {
				t.Errorf("after the fix %v: status %d %s %v", r.Model.Fix, r.Status, r.Error, described(r.Model))
			}
		})
	}
}
