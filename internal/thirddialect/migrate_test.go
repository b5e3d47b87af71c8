package thirddialect_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/internal/cli"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/synth"
)

// TestToyMigrateDiff: `migrate diff` plans toy's migrations on toy's own
// scratch databases (toy:// dev URL on the test TiDB, which toy's rules map
// onto) and writes a directory that Atlas's executor replays on a real
// server into what toy's generated DDL builds.
func TestToyMigrateDiff(t *testing.T) {
	dir := t.TempDir()
	model := synth.Model(3)
	if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), model, 0o644); err != nil {
		t.Fatal(err)
	}
	dev, err := url.Parse(dbtest.ServerURL(t, "tidb"))
	if err != nil {
		t.Fatal(err)
	}
	dev.Scheme = "toy"
	config := filepath.Join(dir, "atlas.hcl")
	if err := os.WriteFile(config, fmt.Appendf(nil, `
env "toy" {
  src = "file://generated/toy/schema.sql"
  dev = %q
  migration {
    dir = "file://migrations/toy"
  }
}
`, dev.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	schemagen := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := cli.Run(append([]string{"--schema", filepath.Join(dir, "schema.hcl")}, args...), &out, &errb)
		return code, out.String() + errb.String()
	}
	if code, out := schemagen("generate", "--out", filepath.Join(dir, "generated")); code != 0 {
		t.Fatalf("generate: exit %d\n%s", code, out)
	}
	code, out := schemagen("migrate", "diff", "--config", config, "init")
	if code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", code, out)
	}
	written, _ := filepath.Glob(filepath.Join(dir, "migrations/toy/*_init.sql"))
	if len(written) != 1 || !strings.Contains(out, "wrote "+written[0]) {
		t.Fatalf("migrate diff init wrote %v:\n%s", written, out)
	}
	// Replayed on a toy scratch database, the directory is up to date.
	if code, out := schemagen("migrate", "diff", "--config", config, "--no-cache", "again"); code != 0 || !strings.Contains(out, "toy: no changes") {
		t.Fatalf("a second migrate diff: exit %d\n%s", code, out)
	}

	ctx := context.Background()
	toyDialect := toy{}
	replayed := dbtest.TiDB(t)
	drv, err := toyDialect.OpenAtlas(replayed.DB)
	if err != nil {
		t.Fatal(err)
	}
	mdir, err := migrate.NewLocalDir(filepath.Join(dir, "migrations/toy"))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := migrate.NewExecutor(drv, mdir, migrate.NopRevisionReadWriter{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ex.ExecuteN(ctx, 0); err != nil {
		t.Fatalf("Atlas's executor replaying migrations/toy: %v", err)
	}
	got, err := drv.InspectSchema(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tables) != 3 {
		t.Fatalf("the replayed directory made %d tables, want 3", len(got.Tables))
	}

	// What toy's generated DDL builds on another database.
	loaded := dbtest.TiDB(t)
	src, err := os.ReadFile(filepath.Join(dir, "generated/toy/schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	stmts, err := toyDialect.ScanStmts(string(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := loaded.ExecContext(ctx, s.Text); err != nil {
			t.Fatalf("generated/toy/schema.sql: %v\n%s", err, s.Text)
		}
	}
	ldrv, err := toyDialect.OpenAtlas(loaded.DB)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ldrv.InspectSchema(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	got.Name, want.Name = "", ""
	changes, err := drv.SchemaDiff(got, want, schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 {
		t.Errorf("the replayed directory differs from toy's generated DDL: %d changes, first %T", len(changes), changes[0])
	}
}
