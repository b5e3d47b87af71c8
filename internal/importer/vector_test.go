package importer_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/datamig"
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

// TestImportVectorOnOneSide: a vector column on TiDB that PostgreSQL keeps
// as text (pgvector absent there) is a vector in the model, with
// PostgreSQL's type as its override: a data migration writing a string to
// it is refused by the model's checker, as TiDB refuses the string. Before,
// the model said text with a TiDB override, and the schema migrate diff
// reads back at a data migration's version (ModelAt, an import) accepted
// what the model refuses (plan oracle, seed 60601, evolutions 60601181834
// and 60601181839).
func TestImportVectorOnOneSide(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.New(t, "postgres"), dbtest.New(t, "tidb")
	testproject.RunSQL(t, pg, []byte(`CREATE TABLE items (id bigint PRIMARY KEY, dense text, embedding text, note text)`))
	testproject.RunSQL(t, ti, []byte("CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, dense VECTOR, embedding VECTOR(3), note TEXT)"))
	r, model, out := importAndCompile(t, pg.URL, ti.URL)
	items := r.Schema.Table("items")
	for _, c := range []string{"dense", "embedding"} {
		col := items.Column(c)
		if col.Type.Kind != compiler.TypeVector {
			t.Errorf("%s is %s, want a vector:\n%s", c, col.Type, model)
		}
		if o := col.Overrides["postgres"]; o == nil || o.Type == nil || o.Type.Kind != compiler.TypeText {
			t.Errorf("%s has no text override for postgres:\n%s", c, model)
		}
	}
	if c := items.Column("note"); c.Type.Kind != compiler.TypeText || len(c.Overrides) != 0 {
		t.Errorf("note is %s with overrides %v, want text alone", c.Type, c.Overrides)
	}
	for d, want := range map[string][]string{"postgres": {`"dense" text`, `"embedding" text`}, "tidb": {"`dense` VECTOR", "`embedding` VECTOR(3)"}} {
		for _, w := range want {
			if !strings.Contains(strings.ToLower(string(out.Outputs[d].SQL)), strings.ToLower(w)) {
				t.Errorf("%s DDL has no %s:\n%s", d, w, out.Outputs[d].SQL)
			}
		}
	}
	if _, diags := datamig.Compile("data.sql", []byte(`UPDATE "items" SET "dense" = 'abc';`), out.Schema); !diags.HasErrors() {
		t.Error("a string written to the vector column is not refused by the imported model's checker")
	}
}
