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

// TestImportVector reads TiDB's VECTOR(n) and VECTOR, and pgvector's
// vector(n) and vector where PostgreSQL has the extension, as the neutral
// vector(n) and vector, which generate each dialect's types again.
func TestImportVector(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"tidb":     "CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, embedding VECTOR(3), dense VECTOR, note VARCHAR(10))",
		"postgres": "CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE items (id bigint PRIMARY KEY, embedding vector(3), dense vector, note varchar(10))",
	}
	want := map[string][]string{"tidb": {"`embedding` VECTOR(3)", "`dense` VECTOR,"}, "postgres": {`"embedding" vector(3)`, `"dense" vector,`}}
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
			for _, typ := range []string{"type = vector(3)\n", "type = vector\n"} {
				if !strings.Contains(string(src), typ) {
					t.Errorf("no %q in the model:\n%s", typ, src)
				}
			}
			out := gen.CompileSource("imported.hcl", src)
			if out.Failed() {
				t.Fatalf("%v\n%s", out.Diags, src)
			}
			for _, w := range want[d] {
				if !strings.Contains(strings.ToLower(string(out.Outputs[d].SQL)), strings.ToLower(w)) {
					t.Errorf("%s DDL has no %s:\n%s", d, w, out.Outputs[d].SQL)
				}
			}
		})
	}
}
