package importer_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// Hand-written TiDB tables with TTL: with the server's defaults, with the
// jobs off and another job interval, over a date and a timestamp column;
// the same tables on PostgreSQL, which has no TTL.
const (
	ttlTiDB = "CREATE TABLE `sessions` (`id` BIGINT NOT NULL, `created_at` DATETIME NOT NULL, PRIMARY KEY (`id`)) TTL = `created_at` + INTERVAL 90 DAY;\n" +
		"CREATE TABLE `tokens` (`id` BIGINT NOT NULL, `issued_on` DATE NOT NULL, PRIMARY KEY (`id`)) TTL = `issued_on` + INTERVAL 1 YEAR TTL_ENABLE = 'OFF' TTL_JOB_INTERVAL = '24h';\n" +
		"CREATE TABLE `events` (`id` BIGINT NOT NULL, `at` TIMESTAMP NULL, PRIMARY KEY (`id`)) TTL = `at` + INTERVAL 6 MONTH TTL_ENABLE = 'OFF';\n"
	ttlPostgres = `CREATE TABLE "sessions" ("id" bigint PRIMARY KEY, "created_at" timestamp NOT NULL);
CREATE TABLE "tokens" ("id" bigint PRIMARY KEY, "issued_on" date NOT NULL);
CREATE TABLE "events" ("id" bigint PRIMARY KEY, "at" timestamptz);
`
)

// TestImportTTL imports both databases: each TTL comes back as a ttl block
// (the server's defaults left out), and each dialect's DDL of the imported
// model builds a database equal to the original (TiDB's SHOW CREATE TABLE
// the same).
func TestImportTTL(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, []byte(ttlPostgres))
	testproject.RunSQL(t, ti, []byte(ttlTiDB))
	_, model, out := importAndCompile(t, pg.URL, ti.URL)
	for _, want := range []string{
		"ttl {\n    column   = \"created_at\"\n    interval = 90\n    unit     = \"day\"\n  }",
		"    column       = \"issued_on\"\n    interval     = 1\n    unit         = \"year\"\n    enabled      = false\n    job_interval = \"24h\"\n",
		"    column   = \"at\"\n    interval = 6\n    unit     = \"month\"\n    enabled  = false\n",
	} {
		if !strings.Contains(string(model), want) {
			t.Errorf("the imported model has no %q:\n%s", want, model)
		}
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
		}
	}
}
