package drift_test

import (
	"slices"
	"testing"

	"github.com/schemagen/schemagen/internal/drift"
)

// TestDriftSeesCollation: a column given another collation by hand is
// drift. Atlas's PostgreSQL diff does not compare collations; drift now
// compares what migrate diff's proof compares (migration.Details), and
// reported no drift before.
func TestDriftSeesCollation(t *testing.T) {
	f := newFixture(t, "postgres")
	exec(t, f.head, `ALTER TABLE "docs" ALTER COLUMN "title" TYPE varchar(100) COLLATE "C"`)
	r := f.check(t, f.head.URL)[0]
	if r.Status != drift.Drift {
		t.Fatalf("a column with another collation: status %d %s", r.Status, r.Error)
	}
	for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
		if got := described(c); !slices.Equal(got, []string{"changed column docs.title"}) {
			t.Errorf("against %s: %v, want the column's collation", c.Against, got)
		}
	}
}
