package deploy_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

func set(t *testing.T, tg migration.Target, db *dbtest.DB, version, remove string) (*deploy.SetResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return deploy.Set(ctx, tg, deploy.SetOptions{URL: db.URL, LockTimeout: 10 * time.Minute, Version: version, Remove: remove})
}

// TestSetAfterHandRepair: an apply fails on duplicate rows; the file is
// finished by hand and recorded with set; the next apply runs only the
// file added after it. set refuses a version the directory lacks, and
// moves a database back and forth without running anything.
func TestSetAfterHandRepair(t *testing.T) {
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			db := applyDB(t, dialect)
			dir := testproject.MigrationDir(t,
				testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int PRIMARY KEY, code varchar(10) NOT NULL);\nINSERT INTO items VALUES (1, 'a'), (2, 'a');\n"},
				testproject.File{Name: "20260101000002_unique.sql", SQL: "CREATE UNIQUE INDEX items_code ON items (code);\n"},
			)
			tg := applyTarget(dialect, dir)
			var applyErr *deploy.ApplyError
			if _, err := runApply(t, tg, db); !errors.As(err, &applyErr) {
				t.Fatalf("apply over duplicates: %v, want an ApplyError", err)
			}

			// Refused: a version the directory does not have; nothing changes.
			var unknown *deploy.UnknownVersionError
			if _, err := set(t, tg, db, "20260101000009", ""); !errors.As(err, &unknown) {
				t.Fatalf("set to a missing version: %v", err)
			}
			if r := revisionRows(t, db)["20260101000002"]; !r.err.Valid {
				t.Fatalf("a refused set changed the failed revision: %+v", r)
			}

			// The hand repair, then set.
			for _, s := range []string{"UPDATE items SET code = 'b' WHERE id = 2", "CREATE UNIQUE INDEX items_code ON items (code)"} {
				if _, err := db.Exec(s); err != nil {
					t.Fatal(err)
				}
			}
			res, err := set(t, tg, db, "20260101000002", "")
			if err != nil {
				t.Fatalf("set: %v", err)
			}
			if len(res.Fixed) != 1 || res.To != "20260101000002" {
				t.Errorf("set: %+v", res)
			}
			r := revisionRows(t, db)["20260101000002"]
			if r.err.Valid || r.applied != r.total || migrate.RevisionType(r.typ)&migrate.RevisionTypeResolved == 0 {
				t.Errorf("the repaired revision: %+v", r)
			}

			// A normal apply: only the new file runs.
			testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000003_note.sql", SQL: "ALTER TABLE items ADD COLUMN note varchar(20);\n"})
			got := mustRunApply(t, tg, db)
			if len(got.Files) != 1 || got.Files[0].Version != "20260101000003" {
				t.Fatalf("apply after set ran %+v", got.Files)
			}

			// Back to 1 (2 and 3 removed, nothing run), then forward to 3
			// (recorded as resolved, nothing run): the schema is untouched.
			if res, err := set(t, tg, db, "20260101000001", ""); err != nil || len(res.Removed) != 2 {
				t.Fatalf("set back: %+v, %v", res, err)
			}
			if res, err := set(t, tg, db, "20260101000003", ""); err != nil || len(res.Marked) != 2 {
				t.Fatalf("set forward: %+v, %v", res, err)
			}
			if rows := revisionRows(t, db); migrate.RevisionType(rows["20260101000003"].typ) != migrate.RevisionTypeResolved || len(rows) != 3 {
				t.Errorf("revisions after set forward: %+v", rows)
			}
			if got := columns(t, db, "items"); got != "code,id,note" {
				t.Errorf("set changed the schema: %s", got)
			}
			if got := mustRunApply(t, tg, db); len(got.Files) != 0 {
				t.Errorf("apply after set forward ran %+v", got.Files)
			}
			// --remove deletes one revision; the apply then runs its file.
			if _, err := set(t, tg, db, "", "20260101000003"); err != nil {
				t.Fatal(err)
			}
			if _, err := set(t, tg, db, "", "20260101000003"); !errors.As(err, &unknown) {
				t.Errorf("removing a missing revision: %v", err)
			}
			if _, err := db.Exec("ALTER TABLE items DROP COLUMN note"); err != nil {
				t.Fatal(err)
			}
			if got := mustRunApply(t, tg, db); len(got.Files) != 1 {
				t.Errorf("apply after --remove ran %+v", got.Files)
			}
		})
	}
}
