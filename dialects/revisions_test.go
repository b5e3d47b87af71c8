package dialects_test

import (
	"context"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestRevisionsReadIfExists reads the revisions table in one query: none and
// not existing on a database never migrated (no table, no schema), the
// revisions once the table exists.
func TestRevisionsReadIfExists(t *testing.T) {
	for _, d := range all.Dialects() {
		t.Run(d.Name(), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := dbtest.New(t, d.Name())
			revs := d.Revisions(db.DB)
			got, exists, err := revs.ReadIfExists(ctx)
			if err != nil || exists || len(got) != 0 {
				t.Fatalf("never migrated: %v, exists %v, %v", got, exists, err)
			}
			if err := revs.Init(ctx); err != nil {
				t.Fatal(err)
			}
			if got, exists, err = revs.ReadIfExists(ctx); err != nil || !exists || len(got) != 0 {
				t.Fatalf("empty table: %v, exists %v, %v", got, exists, err)
			}
			rev := &migrate.Revision{Version: "20260101000000", Description: "init", Type: migrate.RevisionTypeExecute, Applied: 1, Total: 1, ExecutedAt: time.Now(), Hash: "h", OperatorVersion: "schemagen"}
			if err := revs.WriteRevision(ctx, rev); err != nil {
				t.Fatal(err)
			}
			if got, exists, err = revs.ReadIfExists(ctx); err != nil || !exists || len(got) != 1 || got[0].Version != rev.Version {
				t.Fatalf("one revision: %v, exists %v, %v", got, exists, err)
			}
		})
	}
}
