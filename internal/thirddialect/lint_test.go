package thirddialect_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

// TestToyLints: `migrate lint` on a directory of the toy dialect runs the
// rules toy registers (TiDB's, on the TiDB test server, which toy's URLs
// reach): the findings are those of a tidb env over the same files, and
// include Atlas's analyzers for toy's driver (DS103, MY101), toy's
// statement rules (SG103) and the rules every dialect shares (SG104, SG102).
func TestToyLints(t *testing.T) {
	dir := t.TempDir()
	files := []string{
		"CREATE TABLE `items` (`id` bigint NOT NULL, `note` varchar(100) NULL, PRIMARY KEY (`id`));\n",
		"ALTER TABLE `items` DROP COLUMN `note`;\n" +
			"ALTER TABLE `items` ADD COLUMN `n` int NOT NULL;\n" +
			"UPDATE `items` SET `n` = 1;\n" +
			"SELECT \"items\".`id`::text FROM `items`;\n",
	}
	for _, d := range []string{"toy", "tidb"} {
		migs := filepath.Join(dir, "migrations", d)
		if err := os.MkdirAll(migs, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, f := range files {
			if err := os.WriteFile(filepath.Join(migs, fmt.Sprintf("2026010100000%d_f.sql", i)), []byte(f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		md, err := migration.OpenDir(migs, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := migration.Hash(md); err != nil {
			t.Fatal(err)
		}
	}
	dev := dbtest.ServerURL(t, "tidb")
	cfg := fmt.Sprintf(`
env "toy" {
  src = "file://generated/toy/schema.sql"
  dev = %[1]q
  migration {
    dir = "file://migrations/toy"
  }
}
env "tidb" {
  dev = %[1]q
  migration {
    dir = "file://migrations/tidb"
  }
}
`, dev)
	path := filepath.Join(dir, "atlas.hcl")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c, diags := atlasconf.Load(path, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	targets, err := migration.Targets(c, []string{"toy", "tidb"})
	if err != nil {
		t.Fatal(err)
	}
	if targets[0].Dialect.Name() != "toy" {
		t.Fatalf("env toy: dialect %s", targets[0].Dialect.Name())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	d := &scratch.Dev{}
	defer d.Close()
	r, err := lint.Run(ctx, d, targets, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Each env's findings, as "line CODE message", with the dialect named
	// in messages made neutral.
	by := map[string][]string{}
	for _, f := range r.Findings {
		if f.Dialect != f.Env {
			t.Errorf("finding of env %s has dialect %s", f.Env, f.Dialect)
		}
		msg := strings.ReplaceAll(f.Message, "the "+f.Dialect+" dev database", "the dev database")
		by[f.Env] = append(by[f.Env], fmt.Sprintf("%d %s %s", f.Line, f.Code, msg))
	}
	toy, tidb := by["toy"], by["tidb"]
	if !slices.Equal(toy, tidb) {
		t.Errorf("toy's findings differ from TiDB's, whose rules it registers:\ntoy:\n%s\ntidb:\n%s", strings.Join(toy, "\n"), strings.Join(tidb, "\n"))
	}
	var codes []string
	for _, f := range toy {
		codes = append(codes, strings.Fields(f)[1])
	}
	for _, code := range []string{"DS103", "MY101", "SG102", "SG103", "SG104"} {
		if !slices.Contains(codes, code) {
			t.Errorf("toy's findings lack %s:\n%s", code, strings.Join(toy, "\n"))
		}
	}
	if len(r.Files) != 2 || r.Files[0].Dialect != "toy" || r.Files[0].Statements != 4 {
		t.Errorf("linted files: %+v", r.Files)
	}
}
