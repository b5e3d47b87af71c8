// Package testproject makes throwaway schemagen projects for tests: a model,
// its generated DDL, and an atlas.hcl whose dev databases are the test
// servers of internal/dbtest.
package testproject

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Project is a project in a temporary directory.
type Project struct {
	T       testing.TB
	Dir     string
	Config  string // atlas.hcl's path
	Targets []migration.Target
	Dev     *scratch.Dev
	now     time.Time
}

// AtlasHCL is an atlas.hcl for both dialects with the given dev URLs.
func AtlasHCL(postgresDev, tidbDev string) string {
	return fmt.Sprintf(`
env "postgres" {
  src = "file://generated/postgres/schema.sql"
  dev = %q
  migration {
    dir = "file://migrations/postgres"
  }
}
env "tidb" {
  src = "file://generated/tidb/schema.sql"
  dev = %q
  migration {
    dir = "file://migrations/tidb"
  }
}
`, postgresDev, tidbDev)
}

// New writes model and atlas.hcl to a new directory and generates the DDL.
func New(t testing.TB, model string) *Project {
	t.Helper()
	dir := t.TempDir()
	p := &Project{T: t, Dir: dir, Config: filepath.Join(dir, "atlas.hcl"), Dev: &scratch.Dev{}, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	t.Cleanup(p.Dev.Close)
	if err := os.WriteFile(p.Config, []byte(AtlasHCL(dbtest.ServerURL(t, "postgres"), dbtest.ServerURL(t, "tidb"))), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := atlasconf.Load(p.Config, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	targets, err := migration.Targets(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.Targets = targets
	p.Generate(model)
	return p
}

// Generate writes the model and its generated DDL.
func (p *Project) Generate(model string) {
	p.T.Helper()
	if err := os.WriteFile(filepath.Join(p.Dir, "schema.hcl"), []byte(model), 0o644); err != nil {
		p.T.Fatal(err)
	}
	r := gen.CompileSource("schema.hcl", []byte(model))
	if r.Failed() {
		p.T.Fatalf("model: %v", r.Diags)
	}
	if err := gen.Write(filepath.Join(p.Dir, "generated"), r.Files()); err != nil {
		p.T.Fatal(err)
	}
}

// Model compiles the project's schema.hcl.
func (p *Project) Model() migration.Model {
	p.T.Helper()
	r := gen.Compile(filepath.Join(p.Dir, "schema.hcl"))
	if r.Failed() {
		p.T.Fatalf("model: %v", r.Diags)
	}
	return migration.Model(r.Outputs)
}

// Target returns the target of a dialect.
func (p *Project) Target(dialect string) migration.Target {
	for _, t := range p.Targets {
		if t.Dialect.Name() == dialect {
			return t
		}
	}
	p.T.Fatalf("no target %s", dialect)
	return migration.Target{}
}

// Diff plans and writes a migration without the cache (every step replays
// on a real database), returning each dialect's statements.
func (p *Project) Diff(name string, opts ...migration.PlanOption) map[string][]string {
	p.T.Helper()
	planned, err := migration.Plan(context.Background(), p.Dev, nil, p.Targets, p.Model(), name, opts...)
	if err != nil {
		p.T.Fatalf("migrate diff %s: %v", name, err)
	}
	p.now = p.now.Add(time.Minute)
	if _, err := migration.Write(planned, name, p.now, nil); err != nil {
		p.T.Fatal(err)
	}
	out := map[string][]string{}
	for _, pl := range planned {
		if pl.Plan == nil {
			continue
		}
		for _, c := range pl.Plan.Changes {
			out[pl.Target.Dialect.Name()] = append(out[pl.Target.Dialect.Name()], c.Cmd)
		}
		if pl.Online != nil {
			for _, c := range pl.Online.Changes {
				out[pl.Target.Dialect.Name()] = append(out[pl.Target.Dialect.Name()], c.Cmd)
			}
		}
	}
	return out
}

// Apply applies the pending migrations of a dialect to the database at url.
// It waits for the lock: on TiDB GET_LOCK names are server-wide, so applies
// to other databases of the test server take turns, and a busy shared
// server can hold them past the one minute users wait by default.
func (p *Project) Apply(dialect, url string) {
	p.T.Helper()
	if _, err := deploy.Apply(context.Background(), p.Target(dialect), deploy.ApplyOptions{URL: url, LockTimeout: 10 * time.Minute}); err != nil {
		p.T.Fatalf("migrate apply: %v", err)
	}
}

// RunSQL runs a script statement by statement (as Atlas splits it), failing
// the test with the statement a database refuses.
func RunSQL(t testing.TB, db interface {
	Exec(string, ...any) (sql.Result, error)
}, script []byte) {
	t.Helper()
	stmts, err := migrate.Stmts(string(script))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := db.Exec(s.Text); err != nil {
			t.Fatalf("%v\n%s", err, s.Text)
		}
	}
}

// FirstDiff describes the first line where two texts differ.
func FirstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, a, b)
		}
	}
	return ""
}

// File is one migration file of a test directory.
type File struct{ Name, SQL string }

// MigrationDir writes files and their atlas.sum into a new directory.
func MigrationDir(t testing.TB, files ...File) string {
	t.Helper()
	dir := t.TempDir()
	WriteMigrations(t, dir, files...)
	return dir
}

// WriteMigrations writes files into dir and rewrites atlas.sum.
func WriteMigrations(t testing.TB, dir string, files ...File) {
	t.Helper()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(f.SQL), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := migration.OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := migration.Hash(d); err != nil {
		t.Fatal(err)
	}
}
