package migration_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/testproject"
)

// movedKeyModel is a table whose foreign key methods_flow_fk is on column
// col.
func movedKeyModel(col string) string {
	return `table "flows" {
  column "id" {
    type = uuid
  }
  primary_key {
    columns = ["id"]
  }
}

table "methods" {
  column "id" {
    type = uuid
  }
  column "` + col + `" {
    type = uuid
    null = true
  }
  column "method" {
    type = varchar(32)
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "methods_flow_fk" {
    columns     = ["` + col + `"]
    ref_table   = "flows"
    ref_columns = ["id"]
    on_delete   = "cascade"
  }
}
`
}

// TestForeignKeyMovedToNewColumn is Kratos's 80th version (issue 29): a
// foreign key moves from a dropped column to a new one under the same
// name. The plan dropped the key after the column's drop had dropped it
// (PostgreSQL 42704 on DROP CONSTRAINT; TiDB 1091 on DROP INDEX of the
// key's index); proven, the files apply on both and reach the model.
func TestForeignKeyMovedToNewColumn(t *testing.T) {
	p := testproject.New(t, movedKeyModel("request_id"))
	p.Diff("init")
	lives := map[string]*dbtest.DB{}
	for _, d := range []string{"postgres", "tidb"} {
		lives[d] = dbtest.New(t, d)
		p.Apply(d, lives[d].URL)
	}
	p.Generate(movedKeyModel("flow_id"))
	got := p.Diff("move_fk")
	for _, d := range []string{"tidb", "postgres"} {
		if len(got[d]) == 0 {
			t.Fatalf("%s: no statements", d)
		}
		p.Apply(d, lives[d].URL)
		t.Logf("%s:\n%s", d, strings.Join(got[d], ";\n"))
	}
	if again := p.Diff("again"); len(again["postgres"])+len(again["tidb"]) != 0 {
		t.Fatalf("a second diff found changes: %v", again)
	}
	for _, d := range []string{"postgres", "tidb"} {
		atlasAgrees(t, p.Target(d).Dialect, filepath.Join(p.Dir, "migrations", d), mustReadFile(t, filepath.Join(p.Dir, "generated", d, "schema.sql")))
	}
}

// TestUnprovablePlanRefused: a change whose statement the database refuses
// however it is planned (a raw block that rebuilds indexes CONCURRENTLY,
// which PostgreSQL refuses in the migration's transaction, 25001, while the
// generated DDL loads it) is refused with the statement and the database's
// error, and no file is written in any directory. Its effect cannot be
// read back: the proof must not take the database's state for success.
func TestUnprovablePlanRefused(t *testing.T) {
	const model = `table "items" {
  column "id" {
    type = bigint
  }
  column "name" {
    type = varchar(64)
  }
  primary_key {
    columns = ["id"]
  }
}
`
	p := testproject.New(t, model)
	p.Diff("init")
	before := map[string][]string{}
	for _, d := range []string{"postgres", "tidb"} {
		for _, f := range files(t, p, d) {
			before[d] = append(before[d], f.Name())
		}
	}
	p.Generate(model + `
raw "items_reindex" {
  postgres = "REINDEX TABLE CONCURRENTLY items"
  tidb     = "ANALYZE TABLE items"
}
`)
	_, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), "concurrently")
	var pe *migration.ProofError
	if !errors.As(err, &pe) || !migration.Refused(err) {
		t.Fatalf("migrate diff: %v, want a refusal that the plan does not prove", err)
	}
	if pe.Dialect != "postgres" || !strings.Contains(pe.Stmt, "REINDEX TABLE CONCURRENTLY items") || !strings.Contains(pe.Err.Error(), "25001") {
		t.Fatalf("refusal names %s, statement %q, error %v; want postgres, the REINDEX and SQLSTATE 25001", pe.Dialect, pe.Stmt, pe.Err)
	}
	for _, want := range []string{"REINDEX TABLE CONCURRENTLY items", "25001", "Nothing was written", "migrate new"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
	for _, d := range []string{"postgres", "tidb"} {
		var after []string
		for _, f := range files(t, p, d) {
			after = append(after, f.Name())
		}
		if strings.Join(after, ",") != strings.Join(before[d], ",") {
			t.Errorf("%s: files %v after the refusal, want %v", d, after, before[d])
		}
	}
	t.Log(err)
}

// TestProvenStateStartsNextDiff: the state a proven file reaches is where
// the next migrate diff starts (the cache keeps the generated DDL it was
// proven equal to), so it replays nothing; its file applies after the
// others, and a directory edited by hand is replayed again.
func TestProvenStateStartsNextDiff(t *testing.T) {
	p := testproject.New(t, movedKeyModel("request_id"))
	cache := &scratch.Cache{Dir: t.TempDir()}
	diff := func(name string) []*migration.Planned {
		t.Helper()
		planned, err := migration.Plan(context.Background(), p.Dev, cache, p.Targets, p.Model(), name)
		if err != nil {
			t.Fatalf("migrate diff %s: %v", name, err)
		}
		if _, err := migration.Write(planned, name, time.Date(2026, 1, 1, 0, len(name), 0, 0, time.UTC), cache); err != nil {
			t.Fatal(err)
		}
		return planned
	}
	for _, pl := range diff("init") {
		if pl.FromProven {
			t.Fatalf("%s: the first diff started from a proven state", pl.Target.Env.Name)
		}
	}
	p.Generate(movedKeyModel("flow_id"))
	for _, pl := range diff("move_fk_") {
		if !pl.FromProven || pl.Plan == nil {
			t.Fatalf("%s: the second diff replayed the directory (or planned nothing): from proven %v", pl.Target.Env.Name, pl.FromProven)
		}
	}
	for _, d := range []string{"postgres", "tidb"} {
		p.Apply(d, dbtest.New(t, d).URL)
	}
	// A file edited by hand: the directory is another, replayed.
	path := filepath.Join(p.Dir, "migrations", "postgres", files(t, p, "postgres")[1].Name())
	b := mustReadFile(t, path)
	if err := os.WriteFile(path, append(b, []byte("CREATE TABLE by_hand (id int);\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := migration.OpenDir(p.Target("postgres").Env.Dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := migration.Hash(dir); err != nil {
		t.Fatal(err)
	}
	// The state kept before the edited file (the first file's) is loaded,
	// and the edited file replayed: its by_hand table is seen.
	var mu sync.Mutex
	var replayed []string
	migration.ReplayHook = func(dirPath, file string) {
		if strings.HasPrefix(dirPath, p.Dir) {
			mu.Lock()
			defer mu.Unlock()
			replayed = append(replayed, filepath.Base(dirPath)+"/"+file)
		}
	}
	defer func() { migration.ReplayHook = nil }()
	for _, pl := range diff("after_edit") {
		if pl.Target.Env.Name != "postgres" {
			continue
		}
		var cmds []string
		for _, c := range pl.Plan.Changes {
			cmds = append(cmds, c.Cmd)
		}
		if !strings.Contains(strings.Join(cmds, "\n"), "by_hand") {
			t.Fatalf("the diff after the edit did not see the edited file: %s", cmds)
		}
	}
	var want []string
	for _, f := range files(t, p, "postgres")[1:] {
		if !strings.Contains(f.Name(), "after_edit") {
			want = append(want, "postgres/"+f.Name())
		}
	}
	if !slices.Equal(replayed, want) {
		t.Errorf("replayed %v, want %v (the state of the files before the edited one is kept)", replayed, want)
	}
}
