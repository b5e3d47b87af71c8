package importer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportVector reads TiDB's VECTOR(n), and pgvector's vector(n) where
// PostgreSQL has the extension, as the neutral vector(n), which generates
// each dialect's type again.
func TestImportVector(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"tidb":     "CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, embedding VECTOR(3), note VARCHAR(10))",
		"postgres": "CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE items (id bigint PRIMARY KEY, embedding vector(3), note varchar(10))",
	}
	want := map[string]string{"tidb": "`embedding` VECTOR(3)", "postgres": `"embedding" vector(3)`}
	for _, d := range []string{"tidb", "postgres"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			if d == "postgres" {
				var n int
				if err := db.QueryRow(`SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'`).Scan(&n); err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					t.Skip("pgvector is not installed on this PostgreSQL: importing vector(n) from PostgreSQL is not tested here")
				}
			}
			testproject.RunSQL(t, db, []byte(cases[d]))
			r, err := importer.Import(context.Background(), []string{db.URL}, nil)
			if err != nil {
				t.Fatal(err)
			}
			src := compiler.Write(r.Schema, r.Notes)
			if !strings.Contains(string(src), "type = vector(3)") {
				t.Errorf("no vector(3) in the model:\n%s", src)
			}
			out := gen.CompileSource("imported.hcl", src)
			if out.Failed() {
				t.Fatalf("%v\n%s", out.Diags, src)
			}
			if !strings.Contains(strings.ToLower(string(out.Outputs[d].SQL)), strings.ToLower(want[d])) {
				t.Errorf("%s DDL has no %s:\n%s", d, want[d], out.Outputs[d].SQL)
			}
		})
	}
}
