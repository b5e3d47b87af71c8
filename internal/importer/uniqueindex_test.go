package importer_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportUniqueIndexClauses imports unique indexes and constraints with
// clauses: PostgreSQL's INCLUDE and, from PostgreSQL 15 on, UNIQUE NULLS
// NOT DISTINCT. A unique index's INCLUDE is the model's include now (its
// meaning on TiDB explained); NULLS NOT DISTINCT over keys that can be NULL
// has no TiDB equivalent the model accepts. Before, import read them as
// plain unique indexes and constraints, silently: the rebuilt database
// allowed repeated NULLs and lost the included columns. Now each keeps
// PostgreSQL's own statement, with its neutral form for TiDB, and the
// summary says what TiDB gets. A PostgreSQL partial unique index paired
// with TiDB's full one is said too: the two keep other rows unique.
func TestImportUniqueIndexClauses(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	var version int
	if err := pg.QueryRow("SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
		t.Fatal(err)
	}
	ddl := `CREATE TABLE accounts (id int PRIMARY KEY, email text NOT NULL, name text);
CREATE UNIQUE INDEX accounts_email_uq ON accounts (email) INCLUDE (name);
CREATE TABLE coupons (id int PRIMARY KEY, code int);
CREATE UNIQUE INDEX coupons_code_uq ON coupons (code) WHERE code > 0;
`
	nullsNotDistinct := version >= 150000
	if nullsNotDistinct {
		ddl += `CREATE TABLE devices (id int PRIMARY KEY, serial int, CONSTRAINT devices_serial_key UNIQUE NULLS NOT DISTINCT (serial));
CREATE TABLE tokens (id int PRIMARY KEY, value int);
CREATE UNIQUE INDEX tokens_value_uq ON tokens (value) NULLS NOT DISTINCT;
`
	} else {
		t.Logf("PostgreSQL %d has no NULLS NOT DISTINCT (15 and later): only INCLUDE and the partial index are imported", version)
	}
	testproject.RunSQL(t, pg, []byte(ddl))
	testproject.RunSQL(t, ti, []byte(`CREATE TABLE accounts (id int PRIMARY KEY, email varchar(255) NOT NULL, name text);
CREATE UNIQUE INDEX accounts_email_uq ON accounts (email);
CREATE TABLE coupons (id int PRIMARY KEY, code int);
CREATE UNIQUE INDEX coupons_code_uq ON coupons (code);`))

	// PostgreSQL alone: rebuilt, the same database, and TiDB gets the
	// unique indexes without what it cannot hold, said in the summary.
	r, model, out := importAndCompile(t, pg.URL)
	rebuilt := dbtest.Postgres(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["postgres"].SQL)
	compareDatabases(t, all.Get("postgres"), pg, rebuilt, nil)
	if !strings.Contains(string(model), `include = ["name"]`) {
		t.Errorf("the unique index's INCLUDE is not its include:\n%s", model)
	}
	var want []string
	if nullsNotDistinct {
		want = append(want,
			"devices: index devices_serial_key: NULLS NOT DISTINCT has no construct in the model: kept as postgres's statement; the other dialects get the unique constraint without it, which allows repeated NULLs",
			"tokens: index tokens_value_uq: NULLS NOT DISTINCT has no construct in the model: kept as postgres's statement; the other dialects get the unique index without it, which allows repeated NULLs")
	}
	for _, w := range want {
		if !slices.Contains(r.Summary, w) {
			t.Errorf("the summary does not say: %s", w)
		}
		_, note, _ := strings.Cut(w, ": ")
		if !strings.Contains(string(model), "# "+note) {
			t.Errorf("the model has no comment: %s", note)
		}
	}
	tidb := dbtest.TiDB(t)
	testproject.RunSQL(t, tidb, out.Outputs["tidb"].SQL)
	var uniques int
	if err := tidb.QueryRow("SELECT COUNT(DISTINCT TABLE_NAME, INDEX_NAME) FROM INFORMATION_SCHEMA.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY'").Scan(&uniques); err != nil {
		t.Fatal(err)
	}
	if want := map[bool]int{true: 4, false: 2}[nullsNotDistinct]; uniques != want {
		t.Errorf("%d unique indexes on TiDB, want %d", uniques, want)
	}

	// Both: PostgreSQL's rebuilt is its original, and the partial unique
	// index that TiDB has in full is said (TestImportPartialAndFullUnique
	// rebuilds both).
	r, _, out = importAndCompile(t, pg.URL, ti.URL)
	rebuilt = dbtest.Postgres(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["postgres"].SQL)
	compareDatabases(t, all.Get("postgres"), pg, rebuilt, nil)
	partial := "index coupons_code_uq of coupons is unique over other rows on postgres than on tidb (a predicate on postgres only); each keeps its own: tidb's statement is its override"
	if !slices.Contains(r.Summary, partial) {
		t.Errorf("the summary does not say: %s", partial)
	}
}
