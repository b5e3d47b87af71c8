package importer_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// Hand-written indexes with every index option each database takes: on
// PostgreSQL INCLUDE, a fillfactor, deduplicate_items and, from
// PostgreSQL 15, NULLS NOT DISTINCT; on TiDB an INVISIBLE index. (Vector
// indexes: pgvector is not installed here, and the pinned TiDB refuses
// them without TiFlash; TestVectorIndexFixture reads TiDB's recorded
// statement.)
const (
	indexOptionsTiDB = "CREATE TABLE `docs` (`id` BIGINT NOT NULL, `tenant` VARCHAR(40) NOT NULL, `title` VARCHAR(200), `code` VARCHAR(20) NOT NULL, PRIMARY KEY (`id`), KEY `docs_tenant_idx` (`tenant`) INVISIBLE, KEY `docs_title_idx` (`title`));\n"
	indexOptionsPG   = `CREATE TABLE "docs" ("id" bigint, "tenant" varchar(40) NOT NULL, "title" varchar(200), "code" varchar(20) NOT NULL, PRIMARY KEY ("id"));
CREATE INDEX "docs_tenant_idx" ON "docs" ("tenant") INCLUDE ("title") WITH (fillfactor = 70);
CREATE INDEX "docs_title_idx" ON "docs" ("title") WITH (deduplicate_items = false, fillfactor = 80);
`
	nullsNotDistinctPG = `CREATE UNIQUE INDEX "docs_code_uq" ON "docs" ("code") NULLS NOT DISTINCT;
`
)

// TestImportIndexOptions imports both databases: the options come back as
// the index's include, storage, nulls_distinct = false and visible =
// false, and each dialect's DDL of the imported model builds a database
// that equals the original (Atlas and schemagen's own inspection find no
// difference; SHOW CREATE TABLE and pg_get_indexdef are the same).
func TestImportIndexOptions(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	script := indexOptionsPG
	nulls := pgMajor(t, pg) >= 15
	if nulls {
		script += nullsNotDistinctPG
	}
	testproject.RunSQL(t, pg, []byte(script))
	testproject.RunSQL(t, ti, []byte(indexOptionsTiDB))
	_, model, out := importAndCompile(t, pg.URL, ti.URL)
	want := []string{`include = ["title"]`, "fillfactor = 70", "deduplicate_items = false", "fillfactor        = 80", "visible = false"}
	if nulls {
		want = append(want, "nulls_distinct = false")
	}
	for _, w := range want {
		if !strings.Contains(string(model), w) {
			t.Errorf("the imported model has no %q:\n%s", w, model)
		}
	}
	if strings.Contains(string(model), "sql =") {
		t.Errorf("an index kept a raw statement:\n%s", model)
	}
	for d, orig := range map[string]*dbtest.DB{"postgres": pg, "tidb": ti} {
		fresh := dbtest.New(t, d)
		testproject.RunSQL(t, fresh, out.Outputs[d].SQL)
		compareDatabases(t, all.Get(d), orig, fresh, nil)
		if d == "tidb" {
			a, b := showCreate(t, orig), showCreate(t, fresh)
			if strings.Join(a, "\n") != strings.Join(b, "\n") {
				t.Errorf("SHOW CREATE TABLE differs: %s", testproject.FirstDiff(strings.Join(a, "\n"), strings.Join(b, "\n")))
			}
		} else {
			q := "SELECT string_agg(pg_get_indexdef(indexrelid), E'\\n' ORDER BY indexrelid::regclass::text) FROM pg_index WHERE indrelid = 'docs'::regclass"
			var a, b string
			if err := orig.QueryRow(q).Scan(&a); err != nil {
				t.Fatal(err)
			}
			if err := fresh.QueryRow(q).Scan(&b); err != nil {
				t.Fatal(err)
			}
			if a != b {
				t.Errorf("the indexes differ:\n%s\nfresh:\n%s", a, b)
			}
		}
	}
}

func pgMajor(t *testing.T, db *dbtest.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT current_setting('server_version_num')::int").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n / 10000
}
