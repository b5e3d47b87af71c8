package dialects_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

func optionModel(columns, index string) string {
	return fmt.Sprintf(`table "docs" {
  column "id" {
    type = bigint
  }
  column "code" {
    type = varchar(20)
    null = true
  }
  column "embedding" {
    type = vector(3)
    null = true
  }
%s
  primary_key {
    columns = ["id"]
  }
  index "docs_idx" {
%s
  }
}
`, columns, index)
}

// TestIndexOptionsRefused: an index option a dialect cannot keep, or does
// not know, is refused at its line with what to do.
func TestIndexOptionsRefused(t *testing.T) {
	cases := []struct{ name, dialect, index, want string }{
		{"unknown parameter", "postgres", "    columns = [\"code\"]\n    storage = { lists = 10 }", "btree indexes take deduplicate_items, fillfactor"},
		{"fillfactor out of range", "postgres", "    columns = [\"code\"]\n    storage = { fillfactor = 5 }", "a whole number from 10 to 100"},
		{"boolean as number", "postgres", "    columns = [\"code\"]\n    storage = { deduplicate_items = 1 }", "true or false"},
		{"text value", "postgres", "    columns = [\"code\"]\n    storage = { fillfactor = \"70\" }", "whole number or true / false"},
		{"nulls_distinct without unique", "postgres", "    columns = [\"code\"]\n    nulls_distinct = false", "is not unique"},
		{"nulls not distinct on TiDB", "tidb", "    unique = true\n    columns = [\"code\"]\n    nulls_distinct = false", "TiDB's unique keys never compare NULLs"},
		{"included key column", "postgres", "    columns = [\"code\"]\n    include = [\"code\"]", "is a key part"},
		{"included unknown column", "postgres", "    columns = [\"code\"]\n    include = [\"nope\"]", "nope"},
		{"inner product on TiDB", "tidb", "    using = \"hnsw\"\n    on {\n      column  = \"embedding\"\n      opclass = \"vector_ip_ops\"\n    }", "vector_cosine_ops (VEC_COSINE_DISTANCE) or vector_l2_ops"},
		{"invisible vector index on TiDB", "tidb", "    using = \"hnsw\"\n    visible = false\n    on {\n      column  = \"embedding\"\n      opclass = \"vector_l2_ops\"\n    }", "cannot make a VECTOR INDEX invisible"},
		{"vector index over two parts on TiDB", "tidb", "    using = \"hnsw\"\n    columns = [\"embedding\", \"code\"]", "one vector column"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := generate(t, c.dialect, optionModel("", c.index))
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("want an error with %q, got %v", c.want, diags)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Start.Line < 17 {
					t.Errorf("the error is not placed in the index: %v", d)
				}
			}
		})
	}
	// A vector without a dimension cannot have TiDB's vector index.
	_, diags := generate(t, "tidb", strings.Replace(optionModel("", "    using = \"hnsw\"\n    on {\n      column  = \"embedding\"\n      opclass = \"vector_l2_ops\"\n    }"), "vector(3)", "vector", 1))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "needs vector(n)") {
		t.Fatalf("a vector index over a vector without dimension: %v", diags)
	}
}

// TestIndexOptionsRendered: each dialect's statement of every option, and
// what explain says where a dialect leaves one out.
func TestIndexOptionsRendered(t *testing.T) {
	cases := []struct{ name, index, postgres, tidb string }{
		{"include, fillfactor, invisible", "    columns = [\"code\"]\n    include = [\"id\"]\n    storage = { fillfactor = 70 }\n    visible = false",
			`CREATE INDEX "docs_idx" ON "docs" ("code") INCLUDE ("id") WITH (fillfactor = 70);`, "INDEX `docs_idx` (`code`) INVISIBLE"},
		{"nulls not distinct over NOT NULL", "    unique = true\n    columns = [\"id\", \"code\"]\n    nulls_distinct = false\n    where = \"code IS NOT NULL\"",
			`CREATE UNIQUE INDEX "docs_idx" ON "docs" ("id", "code") NULLS NOT DISTINCT WHERE "code" IS NOT NULL;`, "UNIQUE INDEX `docs_idx` (`id`, `code`)"},
		{"hnsw cosine", "    using = \"hnsw\"\n    storage = { m = 16, ef_construction = 64 }\n    on {\n      column  = \"embedding\"\n      opclass = \"vector_cosine_ops\"\n    }",
			`CREATE INDEX "docs_idx" ON "docs" USING hnsw ("embedding" vector_cosine_ops) WITH (ef_construction = 64, m = 16);`, "VECTOR INDEX `docs_idx` ((VEC_COSINE_DISTANCE(`embedding`))) USING HNSW"},
		{"ivfflat l2", "    using = \"ivfflat\"\n    storage = { lists = 100 }\n    on {\n      column  = \"embedding\"\n      opclass = \"vector_l2_ops\"\n    }",
			`CREATE INDEX "docs_idx" ON "docs" USING ivfflat ("embedding" vector_l2_ops) WITH (lists = 100);`, "VECTOR INDEX `docs_idx` ((VEC_L2_DISTANCE(`embedding`))) USING HNSW"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for d, want := range map[string]string{"postgres": c.postgres, "tidb": c.tidb} {
				sql, diags := generate(t, d, optionModel("", c.index))
				if diags.HasErrors() || !strings.Contains(sql, want) {
					t.Errorf("%s: want %q in\n%s\n%v", d, want, sql, diags)
				}
			}
		})
	}
}

// TestNullsNotDistinctOnServer: PostgreSQL 15 and later keep one NULL key
// at most in a NULLS NOT DISTINCT index; PostgreSQL 14 refuses the
// statement (a syntax error at NULLS), as docs/language.md says: whichever
// server runs this test, its behaviour is the one tested.
func TestNullsNotDistinctOnServer(t *testing.T) {
	ctx := context.Background()
	db := dbtest.New(t, "postgres")
	ddl, diags := generate(t, "postgres", optionModel("", "    unique = true\n    columns = [\"code\"]\n    nulls_distinct = false"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var num int
	if err := db.QueryRowContext(ctx, "SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		t.Fatal(err)
	}
	stmts, err := migrate.Stmts(strings.Replace(ddl, "vector(3)", "text", 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stmts {
		_, err := db.ExecContext(ctx, st.Text)
		if strings.Contains(st.Text, "NULLS NOT DISTINCT") && num < 150000 {
			if !refusedAs(err, `42601 syntax error at or near "NULLS"`) {
				t.Fatalf("PostgreSQL %d: %v, want the syntax error at NULLS", num/10000, err)
			}
			t.Logf("PostgreSQL %d refuses NULLS NOT DISTINCT: %v", num/10000, err)
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", st.Text, err)
		}
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO docs (id, code) VALUES (1, NULL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO docs (id, code) VALUES (2, NULL)"); !refusedAs(err, "23505 duplicate key") {
		t.Fatalf("a second NULL key: %v, want a unique violation", err)
	}
}

// TestVectorIndexOnServer: the TiDB the project runs (tidb-server alone, no
// TiFlash) refuses the VECTOR INDEX the model's hnsw index lowers to, with
// the error docs/language.md quotes; the table without it is accepted.
func TestVectorIndexOnServer(t *testing.T) {
	db := dbtest.New(t, "tidb")
	ddl, diags := generate(t, "tidb", optionModel("", "    using = \"hnsw\"\n    on {\n      column  = \"embedding\"\n      opclass = \"vector_cosine_ops\"\n    }"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	stmts, err := migrate.Stmts(ddl)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stmts {
		_, err := db.Exec(st.Text)
		if !strings.Contains(st.Text, "VECTOR INDEX") {
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !refusedAs(err, "8200") || !strings.Contains(err.Error(), "Unsupported add vector index: unsupported TiFlash store count is 0") {
			t.Fatalf("%s: %v, want TiDB's 8200 for a server without TiFlash", st.Text, err)
		}
		t.Log(err)
	}
}
