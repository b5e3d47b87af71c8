package lifecycle_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/lifecycle"
	"github.com/schemagen/schemagen/internal/testproject"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func column(name, typ string) string {
	return "  column \"" + name + "\" {\n    type = " + typ + "\n    null = true\n  }\n"
}

// branches makes a project whose main branch and feature branch each add a
// migration to init (feature's version first), checks out feature and
// merges main's migration files and the merged model into it, as `git merge
// main` leaves them once schema.hcl is resolved (atlas.sum is main's: it no
// longer matches). It returns the project and the databases that applied
// main's history.
func branches(t *testing.T, feature, main, merged string) (*testproject.Project, map[string]*dbtest.DB) {
	p := testproject.New(t, baseModel)
	p.Diff("init")
	git(t, p.Dir, "init", "-q", "-b", "main")
	git(t, p.Dir, "add", "-A")
	git(t, p.Dir, "commit", "-q", "-m", "init")
	git(t, p.Dir, "checkout", "-q", "-b", "feature")
	p.Generate(edit(baseModel, feature))
	p.Diff("feature")
	git(t, p.Dir, "add", "-A")
	git(t, p.Dir, "commit", "-q", "-m", "feature")
	git(t, p.Dir, "checkout", "-q", "main")
	p.Generate(edit(baseModel, main))
	p.Diff("main")
	git(t, p.Dir, "add", "-A")
	git(t, p.Dir, "commit", "-q", "-m", "main")
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	for d, db := range dbs {
		p.Apply(d, db.URL)
	}
	git(t, p.Dir, "checkout", "-q", "feature")
	git(t, p.Dir, "checkout", "main", "--", "migrations")
	p.Generate(merged)
	return p, dbs
}

// TestRebase: two branches each add a migration; after the merge, rebase
// moves the feature's version after main's in both directories, rewrites
// atlas.sum, and both a database that applied main and a fresh one apply
// the result; the directory is in step with the merged model.
func TestRebase(t *testing.T) {
	p, mainDBs := branches(t, column("lang", "varchar(8)"), column("pages", "int"), edit(baseModel, column("lang", "varchar(8)")+column("pages", "int")))
	ctx := context.Background()
	before := files(t, p, "postgres")
	if len(before) != 3 || !strings.HasSuffix(before[1].Name(), "_feature.sql") {
		t.Fatalf("merged directory: %v", before)
	}
	if err := migration.CheckSum(mustOpen(t, p.Target("tidb").Env.Dir)); err == nil {
		t.Fatal("the merged atlas.sum matches; the test needs the conflict")
	}
	moved, err := lifecycle.Rebase(ctx, p.Dev, p.Targets, lifecycle.RebaseOptions{Base: "main", Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 1 || moved[0].From != before[1].Version() || len(moved[0].Files) != 2 {
		t.Fatalf("moved %+v", moved)
	}
	for _, d := range []string{"postgres", "tidb"} {
		fs := files(t, p, d)
		if len(fs) != 3 || !strings.HasSuffix(fs[1].Name(), "_main.sql") || fs[2].Name() != moved[0].To+"_feature.sql" || fs[2].Version() <= fs[1].Version() {
			t.Errorf("%s after the rebase: %v", d, fs)
		}
		if err := migration.CheckSum(mustOpen(t, p.Target(d).Env.Dir)); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
	planned, err := migration.Plan(ctx, p.Dev, nil, p.Targets, p.Model(), "check")
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range planned {
		if pl.Plan != nil {
			t.Errorf("%s: the rebased directory is behind the merged model", pl.Target.Env.Name)
		}
	}
	for d, db := range mainDBs {
		if ran := atlasApply(t, p, d, db); len(ran) != 1 || !strings.HasSuffix(ran[0], "_feature.sql") {
			t.Errorf("%s: main's database ran %v, want the feature's file", d, ran)
		}
		fresh := dbtest.New(t, d)
		if ran := atlasApply(t, p, d, fresh); len(ran) != 3 {
			t.Errorf("%s: a fresh database ran %v", d, ran)
		}
		for _, x := range []*dbtest.DB{db, fresh} {
			if got := columnsOf(t, x, "docs"); got != "body,id,lang,pages,space_id,title" {
				t.Errorf("%s: docs has %s", d, got)
			}
		}
	}
}

// TestRebaseConflict: both branches add a column of one name; the feature's
// file cannot run after main's, and the rebase names it and its statement
// and moves nothing.
func TestRebaseConflict(t *testing.T) {
	// The merged model keeps main's column.
	p, _ := branches(t, column("note", "varchar(8)"), column("note", "int"), edit(baseModel, column("note", "int")))
	before := files(t, p, "tidb")
	_, err := lifecycle.Rebase(context.Background(), p.Dev, p.Targets, lifecycle.RebaseOptions{Base: "main", Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	var re *lifecycle.RebaseError
	if !errors.As(err, &re) {
		t.Fatalf("rebase of a conflict: %v", err)
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{"_feature.sql", before[1].Name(), "failed", "note"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error lacks %q:\n%s", want, msg)
		}
	}
	after := files(t, p, "tidb")
	if len(after) != 3 || after[1].Name() != before[1].Name() {
		t.Errorf("a refused rebase moved files: %v", after)
	}
}
