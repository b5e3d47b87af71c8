package migration_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// vectorModel is a table with a vector of any dimension (TiDB's VECTOR,
// pgvector's vector) beside one of a fixed dimension; extra is added to the
// table. PostgreSQL leaves the vectors out unless pg has pgvector.
func vectorModel(pg bool, extra string) string {
	skip := "    postgres {\n      skip = true\n    }\n"
	ext := ""
	if pg {
		skip = ""
		ext = "extension \"vector\" {}\n"
	}
	return ext + `table "items" {
  column "id" {
    type = bigint
  }
  column "dense_vector" {
    type = vector
    null = true
` + skip + `  }
  column "e3" {
    type = vector(3)
    null = true
` + skip + `  }
` + extra + `  primary_key {
    columns = ["id"]
  }
}
`
}

// TestVectorThroughMigrations: vectors with and without a dimension go
// through migrate diff and apply on TiDB (Atlas's MySQL driver cannot print
// them by itself), with rows kept, and a second diff finds nothing.
func TestVectorThroughMigrations(t *testing.T) {
	testVectorThroughMigrations(t, "tidb", false)
}

// TestVectorThroughMigrationsPostgres is the same on PostgreSQL, which
// needs pgvector: it cannot be installed here (no Debian 12 package), and
// the test says so and skips where the server does not have it.
func TestVectorThroughMigrationsPostgres(t *testing.T) {
	db := dbtest.Postgres(t)
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Skip("pgvector is not installed on this PostgreSQL (it has no Debian 12 package): vectors through PostgreSQL migrations are not tested here; the TiDB path is (TestVectorThroughMigrations)")
	}
	testVectorThroughMigrations(t, "postgres", true)
}

func testVectorThroughMigrations(t *testing.T, dialect string, pg bool) {
	p := testproject.New(t, vectorModel(pg, ""))
	got := p.Diff("init")
	if !strings.Contains(strings.ToLower(strings.Join(got[dialect], "\n")), map[string]string{"tidb": "`dense_vector` vector", "postgres": `"dense_vector" vector`}[dialect]) {
		t.Fatalf("init plan has no dimensionless vector:\n%s", strings.Join(got[dialect], "\n"))
	}
	live := dbtest.New(t, dialect)
	p.Apply(dialect, live.URL)
	if _, err := live.Exec(`INSERT INTO items (id, dense_vector, e3) VALUES (1, '[1,2,3,4,5]', '[1,2,3]'), (2, '[0.5]', NULL)`); err != nil {
		t.Fatal(err)
	}
	steps := []struct{ name, model string }{
		{"add_vector", vectorModel(pg, "  column \"sparse\" {\n    type = vector\n    null = true\n"+map[bool]string{false: "    postgres {\n      skip = true\n    }\n"}[pg]+"  }\n")},
		{"drop_vector", vectorModel(pg, "")},
		// A fixed dimension dropped: the rows keep their vectors.
		{"any_dimension", strings.Replace(vectorModel(pg, ""), "vector(3)", "vector", 1)},
	}
	for _, s := range steps {
		p.Generate(s.model)
		got := p.Diff(s.name)
		if len(got[dialect]) == 0 {
			t.Fatalf("%s: no %s statements", s.name, dialect)
		}
		if again := p.Diff(s.name + "_again"); len(again[dialect]) != 0 {
			t.Fatalf("%s: a second diff found changes: %v", s.name, again[dialect])
		}
		p.Apply(dialect, live.URL)
		for _, d := range all.Dialects() {
			if d.Name() == dialect {
				atlasAgrees(t, d, filepath.Join(p.Dir, "migrations", d.Name()), mustReadFile(t, filepath.Join(p.Dir, "generated", d.Name(), "schema.sql")))
			}
		}
	}
	var dense string
	if err := live.QueryRow(`SELECT CAST(dense_vector AS CHAR) FROM items WHERE id = 1`).Scan(&dense); err != nil {
		if err := live.QueryRow(`SELECT dense_vector::text FROM items WHERE id = 1`).Scan(&dense); err != nil {
			t.Fatal(err)
		}
	}
	if dense != "[1,2,3,4,5]" {
		t.Errorf("dense_vector of row 1 is %q after the migrations, want [1,2,3,4,5]", dense)
	}
}
