package lifecycle_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/lifecycle"
	"github.com/schemagen/schemagen/internal/testproject"
)

// atlasApply runs the pending files of a dialect's directory on db with
// Atlas's own migrate.Executor, as the Atlas CLI's migrate apply does (the
// revisions in the CLI's table), and returns the versions it ran.
func atlasApply(t *testing.T, p *testproject.Project, dialect string, db *dbtest.DB) []string {
	t.Helper()
	ctx := context.Background()
	tg := p.Target(dialect)
	dir, err := migrate.NewLocalDir(tg.Env.Dir)
	if err != nil {
		t.Fatal(err)
	}
	drv, err := tg.Dialect.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	revs := tg.Dialect.Revisions(db.DB)
	if err := revs.Init(ctx); err != nil {
		t.Fatal(err)
	}
	ex, err := migrate.NewExecutor(drv, dir, revs)
	if err != nil {
		t.Fatal(err)
	}
	pending, err := ex.Pending(ctx)
	if errors.Is(err, migrate.ErrNoPendingFiles) {
		return nil
	}
	if err != nil {
		t.Fatalf("%s: pending: %v", dialect, err)
	}
	var ran []string
	for _, f := range pending {
		if err := ex.Execute(ctx, f); err != nil {
			t.Fatalf("%s: Atlas's executor: %s: %v", dialect, f.Name(), err)
		}
		ran = append(ran, f.Name())
	}
	return ran
}

func columnsOf(t *testing.T, db *dbtest.DB, table string) string {
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

// TestCheckpoint writes a checkpoint after two migrations in both
// dialects: Atlas's executor starts a fresh database from it, a database
// that applied the older files skips it, migrate diff replays from it, and
// both databases then apply the next migration.
func TestCheckpoint(t *testing.T) {
	p := testproject.New(t, baseModel)
	p.Diff("init")
	v2 := edit(baseModel, `  column "lang" {
    type = varchar(8)
    null = true
  }
`)
	p.Generate(v2)
	p.Diff("lang")
	ctx := context.Background()
	old := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for d, db := range old {
		if ran := atlasApply(t, p, d, db); len(ran) != 2 {
			t.Fatalf("%s: the old database ran %v, want both files", d, ran)
		}
	}

	// A directory behind the model is refused, and nothing is written.
	v3 := edit(v2, `  column "pages" {
    type = int
    null = true
  }
`)
	p.Generate(v3)
	var behind *lifecycle.BehindError
	if _, err := lifecycle.Checkpoint(ctx, p.Dev, nil, p.Targets, p.Model(), "base", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)); !errors.As(err, &behind) {
		t.Fatalf("checkpoint of a directory behind the model: %v, want a BehindError", err)
	}
	if n := len(files(t, p, "postgres")); n != 2 {
		t.Fatalf("a refused checkpoint left %d files, want 2", n)
	}
	p.Generate(v2)

	written, err := lifecycle.Checkpoint(ctx, p.Dev, nil, p.Targets, p.Model(), "base", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 2 || filepath.Base(written[0]) != filepath.Base(written[1]) {
		t.Fatalf("wrote %v, want one file of one version per dialect", written)
	}
	for _, d := range []string{"postgres", "tidb"} {
		fs := files(t, p, d)
		ck := fs[len(fs)-1]
		if !migration.IsCheckpoint(ck) || !strings.HasPrefix(string(ck.Bytes()), "-- atlas:checkpoint base\n") {
			t.Fatalf("%s: %s is not an Atlas checkpoint:\n%s", d, ck.Name(), ck.Bytes())
		}
		if tag, _ := ck.(migrate.CheckpointFile).CheckpointTag(); tag != "base" {
			t.Errorf("%s: checkpoint tag %q, want base", d, tag)
		}
		if err := migration.CheckSum(mustOpen(t, p.Target(d).Env.Dir)); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}

	fresh := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for d := range fresh {
		if ran := atlasApply(t, p, d, fresh[d]); len(ran) != 1 || ran[0] != filepath.Base(written[0]) {
			t.Errorf("%s: a fresh database ran %v, want the checkpoint only", d, ran)
		}
		if got := columnsOf(t, fresh[d], "docs"); got != "body,id,lang,space_id,title" {
			t.Errorf("%s: fresh database's docs columns %s", d, got)
		}
		if ran := atlasApply(t, p, d, old[d]); len(ran) != 0 {
			t.Errorf("%s: the old database ran %v, want nothing (it skips the checkpoint)", d, ran)
		}
		// drift replays each database's history as it ran it: the old
		// files, or the checkpoint; neither has the checkpoint pending.
		for _, r := range drift.Check(ctx, drift.Options{Target: p.Target(d), Dev: p.Dev, Model: p.Model(), Parallel: 2}, []string{old[d].URL, fresh[d].URL}) {
			if r.Status != drift.NoDrift || len(r.Pending) != 0 {
				t.Errorf("%s: drift of %s: status %d, pending %v, error %s", d, r.Target, r.Status, r.Pending, r.Error)
			}
		}
	}

	// migrate diff replays from the checkpoint: the files before it are
	// not run (an older file broken on purpose would fail the replay).
	for _, d := range []string{"postgres", "tidb"} {
		dir := p.Target(d).Env.Dir
		first := files(t, p, d)[0].Name()
		if err := os.WriteFile(filepath.Join(dir, first), []byte("THIS IS NOT SQL;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := migration.Hash(mustOpen(t, dir)); err != nil {
			t.Fatal(err)
		}
	}
	p.Generate(v3)
	got := p.Diff("pages")
	for _, d := range []string{"postgres", "tidb"} {
		if all := strings.Join(got[d], "\n"); !strings.Contains(all, `ADD COLUMN "pages"`) && !strings.Contains(all, "ADD COLUMN `pages`") {
			t.Errorf("%s: diff after the checkpoint planned %q", d, got[d])
		}
		for _, db := range []*dbtest.DB{old[d], fresh[d]} {
			if ran := atlasApply(t, p, d, db); len(ran) != 1 || !strings.HasSuffix(ran[0], "_pages.sql") {
				t.Errorf("%s: ran %v, want the pages migration", d, ran)
			}
			if got := columnsOf(t, db, "docs"); got != "body,id,lang,pages,space_id,title" {
				t.Errorf("%s: docs columns %s", d, got)
			}
		}
	}
}

func mustOpen(t *testing.T, dir string) *migrate.LocalDir {
	t.Helper()
	d, err := migration.OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
