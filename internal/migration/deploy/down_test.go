package deploy_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

const downModel = `
table "docs" {
  column "id" {
    type = int
  }
  column "title" {
    type = varchar(200)
  }
  primary_key {
    columns = ["id"]
  }
  #EXTRA
}
`

func withExtra(model, extra string) string {
	return strings.Replace(model, "  #EXTRA\n", extra+"  #EXTRA\n", 1)
}

// lifecycleProject is a project with three migrations in both dialects:
// init (docs), lang (a column docs.lang and a table tags), pages (a column
// docs.pages).
func lifecycleProject(t *testing.T) (*testproject.Project, []string) {
	p := testproject.New(t, downModel)
	p.Diff("init")
	lang := withExtra(downModel, "  column \"lang\" {\n    type = varchar(8)\n    null = true\n  }\n") +
		"table \"tags\" {\n  column \"id\" {\n    type = int\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n"
	p.Generate(lang)
	p.Diff("lang")
	p.Generate(withExtra(lang, "  column \"pages\" {\n    type = int\n    null = true\n  }\n"))
	p.Diff("pages")
	var versions []string
	d, err := deployDir(p, "tidb")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range d {
		versions = append(versions, f)
	}
	if len(versions) != 3 {
		t.Fatalf("versions %v, want 3", versions)
	}
	return p, versions
}

func deployDir(p *testproject.Project, dialect string) ([]string, error) {
	dir, err := openDir(p.Target(dialect).Env.Dir)
	if err != nil {
		return nil, err
	}
	fs, err := dir.Files()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range fs {
		out = append(out, f.Version())
	}
	return out, nil
}

func down(t *testing.T, p *testproject.Project, dialect string, db *dbtest.DB, opts deploy.DownOptions) (*deploy.DownResult, error) {
	t.Helper()
	opts.URL, opts.Dev, opts.LockTimeout = db.URL, p.Dev, 10*time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return deploy.Down(ctx, p.Target(dialect), opts)
}

func columns(t *testing.T, db *dbtest.DB, table string) string {
	t.Helper()
	q := "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '" + table + "' ORDER BY column_name"
	if db.Dialect == "tidb" {
		q = "SELECT column_name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = '" + table + "' ORDER BY column_name"
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	return strings.Join(cols, ",")
}

func appliedVersions(t *testing.T, db *dbtest.DB) string {
	t.Helper()
	rows := revisionRows(t, db)
	var vs []string
	for v := range rows {
		vs = append(vs, v)
	}
	return strings.Join(sorted(vs), ",")
}

func sorted(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// TestDown reverts one and several versions on both databases with rows in
// place, refuses a down that would drop data (naming it), applies again
// after a down, and keeps the rows where the down keeps their columns.
func TestDown(t *testing.T) {
	p, v := lifecycleProject(t)
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			db := applyDB(t, dialect)
			p.Apply(dialect, db.URL)
			if _, err := db.Exec("INSERT INTO docs (id, title) VALUES (1, 'a'), (2, 'b')"); err != nil {
				t.Fatal(err)
			}

			// Down one: pages is empty, dropped; the rows stay.
			res, err := down(t, p, dialect, db, deploy.DownOptions{})
			if err != nil {
				t.Fatalf("down 1: %v", err)
			}
			if res.From != v[2] || res.To != v[1] || len(res.Reverted) != 1 || res.Reverted[0] != v[2] {
				t.Errorf("down 1: %+v", res)
			}
			if got := columns(t, db, "docs"); got != "id,lang,title" {
				t.Errorf("after down 1, docs has %s", got)
			}
			if got := appliedVersions(t, db); got != v[0]+","+v[1] {
				t.Errorf("after down 1, revisions %s", got)
			}
			if n := queryCount(t, db, "SELECT COUNT(*) FROM docs WHERE title IN ('a', 'b')"); n != 2 {
				t.Errorf("after down 1, %d rows, want 2", n)
			}

			// A down that would drop values of lang is refused, naming them.
			if _, err := db.Exec("UPDATE docs SET lang = 'en' WHERE id = 1"); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec("INSERT INTO tags (id) VALUES (7)"); err != nil {
				t.Fatal(err)
			}
			_, err = down(t, p, dialect, db, deploy.DownOptions{})
			var lost *deploy.DataLossError
			if !errors.As(err, &lost) {
				t.Fatalf("down over data: %v, want a DataLossError", err)
			}
			wantIn(t, err.Error(), "column docs.lang is dropped with the values of 1 row", "table tags is dropped with its 1 row", "--allow-data-loss")
			if got := columns(t, db, "docs"); got != "id,lang,title" {
				t.Errorf("a refused down changed docs: %s", got)
			}
			if got := appliedVersions(t, db); got != v[0]+","+v[1] {
				t.Errorf("a refused down changed the revisions: %s", got)
			}

			// A dry run prints the plan and changes nothing.
			res, err = down(t, p, dialect, db, deploy.DownOptions{DryRun: true, AllowDataLoss: true})
			if err != nil {
				t.Fatalf("dry run: %v", err)
			}
			if plan := strings.Join(res.Stmts, "\n"); !strings.Contains(plan, "lang") || !strings.Contains(plan, "tags") {
				t.Errorf("dry-run plan:\n%s", plan)
			}
			if got := columns(t, db, "docs"); got != "id,lang,title" {
				t.Errorf("a dry run changed docs: %s", got)
			}

			// Apply again, then down two versions at once, allowed to lose
			// lang and tags; the rows of docs stay.
			p.Apply(dialect, db.URL)
			if got := columns(t, db, "docs"); got != "id,lang,pages,title" {
				t.Fatalf("apply after down: docs has %s", got)
			}
			res, err = down(t, p, dialect, db, deploy.DownOptions{To: v[0], AllowDataLoss: true})
			if err != nil {
				t.Fatalf("down --to %s: %v", v[0], err)
			}
			if len(res.Reverted) != 2 || len(res.Lost) != 2 {
				t.Errorf("down --to: %+v", res)
			}
			if got := columns(t, db, "docs"); got != "id,title" {
				t.Errorf("after down --to, docs has %s", got)
			}
			if got := columns(t, db, "tags"); got != "" {
				t.Errorf("after down --to, tags has %s", got)
			}
			if n := queryCount(t, db, "SELECT COUNT(*) FROM docs"); n != 2 {
				t.Errorf("after down --to, %d rows, want 2", n)
			}
			if got := appliedVersions(t, db); got != v[0] {
				t.Errorf("after down --to, revisions %s", got)
			}
			// The next apply runs the reverted files again.
			res2, err := runApply(t, p.Target(dialect), db)
			if err != nil || len(res2.Files) != 2 {
				t.Fatalf("apply after down --to: %v, %+v", err, res2)
			}
			if _, err := down(t, p, dialect, db, deploy.DownOptions{Steps: 4}); err == nil || !strings.Contains(err.Error(), "fewer than 4") {
				t.Errorf("down 4 of 3 versions: %v", err)
			}
		})
	}
}

// TestDownRefusesDrift refuses a down on a database that is not the
// directory's state at its version.
func TestDownRefusesDrift(t *testing.T) {
	p, v := lifecycleProject(t)
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			db := applyDB(t, dialect)
			p.Apply(dialect, db.URL)
			if _, err := db.Exec("ALTER TABLE docs ADD COLUMN extra int"); err != nil {
				t.Fatal(err)
			}
			_, err := down(t, p, dialect, db, deploy.DownOptions{})
			var notAt *deploy.NotAtVersionError
			if !errors.As(err, &notAt) {
				t.Fatalf("down of a drifted database: %v", err)
			}
			wantIn(t, err.Error(), fmt.Sprintf("version %s", v[2]), "table docs: column extra is extra")
		})
	}
}

func wantIn(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%q lacks %q", text, w)
		}
	}
}

func openDir(path string) (*migrate.LocalDir, error) { return migration.OpenDir(path, false) }

// TestDownRefusesRowsThatWouldFail: reverting a migration that made a
// column nullable sets NOT NULL again; a row holding NULL there refuses the
// down before anything runs on TiDB (its pre-check names the rows), and
// rolls it back on PostgreSQL. Nothing changes either way.
func TestDownRefusesRowsThatWouldFail(t *testing.T) {
	p := testproject.New(t, withExtra(downModel, "  column \"code\" {\n    type = varchar(8)\n  }\n"))
	p.Diff("init")
	p.Generate(withExtra(downModel, "  column \"code\" {\n    type = varchar(8)\n    null = true\n  }\n"))
	p.Diff("nullable")
	for _, dialect := range applyDialects {
		t.Run(dialect, func(t *testing.T) {
			db := applyDB(t, dialect)
			p.Apply(dialect, db.URL)
			if _, err := db.Exec("INSERT INTO docs (id, title, code) VALUES (1, 'a', NULL)"); err != nil {
				t.Fatal(err)
			}
			before := appliedVersions(t, db)
			_, err := down(t, p, dialect, db, deploy.DownOptions{})
			var pre *deploy.DownPrecheckError
			var failed *deploy.DownError
			// Both dialects' plans carry pre-checks of the rows a statement
			// would fail on (PostgreSQL's since issue 30); a PostgreSQL down
			// that still fails is rolled back.
			if !errors.As(err, &pre) && (dialect != "postgres" || !errors.As(err, &failed) || !failed.RolledBack) {
				t.Fatalf("down over a NULL: %v, want a DownPrecheckError (or, on PostgreSQL, a DownError rolled back)", err)
			}
			t.Log(err)
			if got := appliedVersions(t, db); got != before {
				t.Errorf("a refused down changed the revisions: %s", got)
			}
			if _, err := db.Exec("INSERT INTO docs (id, title, code) VALUES (2, 'b', NULL)"); err != nil {
				t.Errorf("the column is NOT NULL after a refused down: %v", err)
			}
		})
	}
}
