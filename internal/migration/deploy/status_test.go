package deploy_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

func statusNames(fs []deploy.FileStatus) []string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return names
}

// TestStatus reads the state of a fresh database (without creating the
// revisions table), of a partly migrated one, and of one that has tables but
// no revisions, which the first apply then baselines.
func TestStatus(t *testing.T) {
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := applyDB(t, dialect)
			dir := testproject.MigrationDir(t,
				testproject.File{Name: "20260101000001_items.sql", SQL: "CREATE TABLE items (id int PRIMARY KEY);\n"},
				testproject.File{Name: "20260101000002_seed.sql", SQL: "INSERT INTO items VALUES (1);\nINSERT INTO items VALUES (2);\n"},
			)
			tg := applyTarget(dialect, dir)
			st, err := deploy.ReadStatus(ctx, tg, db.URL)
			if err != nil {
				t.Fatal(err)
			}
			if st.State != deploy.StatePending || st.Current != "" || len(st.Applied) != 0 || st.NotClean != "" ||
				len(st.Pending) != 2 || st.Pending[1].Name != "20260101000002_seed.sql" || st.Pending[1].Total != 2 {
				t.Errorf("status of a fresh database: %+v", st)
			}
			if ok, err := tg.Dialect.Revisions(db.DB).Exists(ctx); err != nil || ok {
				t.Errorf("status created the revisions table (%v, %v)", ok, err)
			}

			mustRunApply(t, tg, db)
			testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000003_more.sql", SQL: "CREATE TABLE more (id int);\n"})
			st, err = deploy.ReadStatus(ctx, tg, db.URL)
			if err != nil {
				t.Fatal(err)
			}
			if st.State != deploy.StatePending || st.Current != "20260101000002" || st.Partial != nil ||
				len(st.Applied) != 2 || st.Applied[1].Applied != 2 || st.Applied[1].Total != 2 || st.Applied[1].Type != "applied" ||
				len(st.Pending) != 1 || st.Pending[0].Name != "20260101000003_more.sql" {
				t.Errorf("status with one pending file: %+v", st)
			}

			// A database with tables but no revisions.
			other := applyDB(t, dialect)
			if _, err := other.Exec("CREATE TABLE items (id int PRIMARY KEY)"); err != nil {
				t.Fatal(err)
			}
			st, err = deploy.ReadStatus(ctx, tg, other.URL)
			if err != nil {
				t.Fatal(err)
			}
			if st.NotClean == "" || len(st.Pending) != 3 {
				t.Errorf("status of a database with tables: %+v", st)
			}
			_, err = deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: other.URL, LockTimeout: 10 * time.Minute})
			var nc *deploy.NotCleanError
			if !errors.As(err, &nc) {
				t.Fatalf("first apply to a database with tables: %v", err)
			}
			res, err := deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: other.URL, Baseline: "20260101000001", LockTimeout: 10 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Files) != 2 || res.Files[0].Name != "20260101000002_seed.sql" {
				t.Errorf("apply with a baseline: %+v", res)
			}
			st, err = deploy.ReadStatus(ctx, tg, other.URL)
			if err != nil {
				t.Fatal(err)
			}
			if st.State != deploy.StateUpToDate || len(st.Applied) != 3 || st.Applied[0].Type != "baseline" {
				t.Errorf("status after a baseline: %+v (applied %v)", st, statusNames(st.Applied))
			}
		})
	}
}
