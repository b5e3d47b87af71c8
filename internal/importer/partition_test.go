package importer_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// Hand-written partitioned tables, by range of a date (with a last part
// for the rest), list of a code (with a default part) and hash of the key,
// the same on both databases.
const (
	partTiDB = "CREATE TABLE `events` (`id` BIGINT NOT NULL, `day` DATE NOT NULL, PRIMARY KEY (`id`, `day`)) PARTITION BY RANGE COLUMNS(`day`) (PARTITION `events_2024` VALUES LESS THAN ('2025-01-01'), PARTITION `events_2025` VALUES LESS THAN ('2026-01-01'), PARTITION `events_rest` VALUES LESS THAN (MAXVALUE));\n" +
		"CREATE TABLE `regions` (`id` INT NOT NULL, `code` VARCHAR(8) NOT NULL, PRIMARY KEY (`id`, `code`)) PARTITION BY LIST COLUMNS(`code`) (PARTITION `regions_eu` VALUES IN ('de','fr'), PARTITION `regions_rest` DEFAULT);\n" +
		"CREATE TABLE `hits` (`id` BIGINT NOT NULL, PRIMARY KEY (`id`)) PARTITION BY HASH (`id`) PARTITIONS 4;\n"
	partPostgres = `CREATE TABLE "events" ("id" bigint NOT NULL, "day" date NOT NULL, PRIMARY KEY ("id", "day")) PARTITION BY RANGE ("day");
CREATE TABLE "events_2024" PARTITION OF "events" FOR VALUES FROM (MINVALUE) TO ('2025-01-01');
CREATE TABLE "events_2025" PARTITION OF "events" FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE TABLE "events_rest" PARTITION OF "events" FOR VALUES FROM ('2026-01-01') TO (MAXVALUE);
CREATE TABLE "regions" ("id" integer NOT NULL, "code" varchar(8) NOT NULL, PRIMARY KEY ("id", "code")) PARTITION BY LIST ("code");
CREATE TABLE "regions_eu" PARTITION OF "regions" FOR VALUES IN ('de', 'fr');
CREATE TABLE "regions_rest" PARTITION OF "regions" DEFAULT;
CREATE TABLE "hits" ("id" bigint NOT NULL, PRIMARY KEY ("id")) PARTITION BY HASH ("id");
CREATE TABLE "hits_p0" PARTITION OF "hits" FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE "hits_p1" PARTITION OF "hits" FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE "hits_p2" PARTITION OF "hits" FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE "hits_p3" PARTITION OF "hits" FOR VALUES WITH (MODULUS 4, REMAINDER 3);
`
)

// TestImportPartitions imports both databases: each partitioning comes
// back as a partition block (PostgreSQL's parts are not tables of the
// model), and each dialect's DDL of the imported model builds a database
// equal to the original (TiDB's SHOW CREATE TABLE the same).
func TestImportPartitions(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, []byte(partPostgres))
	testproject.RunSQL(t, ti, []byte(partTiDB))
	r, model, out := importAndCompile(t, pg.URL, ti.URL)
	if len(r.Schema.Tables) != 3 {
		t.Errorf("the imported model has %d tables, want 3 (parts are not tables):\n%s", len(r.Schema.Tables), model)
	}
	for _, want := range []string{
		"    type   = \"range\"\n    column = \"day\"\n    part \"events_2024\" {\n      less_than = \"2025-01-01\"\n    }\n",
		"    part \"events_rest\" {\n      rest = true\n    }\n",
		"    part \"regions_eu\" {\n      values = [\"de\", \"fr\"]\n    }\n",
		"    type   = \"hash\"\n    column = \"id\"\n    count  = 4\n",
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

// Hand-written tables partitioned by the year (range) and the month (list,
// hash) of a date, the same on both databases.
const (
	exprPartTiDB = "CREATE TABLE `logs` (`id` BIGINT NOT NULL, `day` DATE NOT NULL) PARTITION BY RANGE (YEAR(`day`)) (PARTITION `logs_2024` VALUES LESS THAN (2025), PARTITION `logs_rest` VALUES LESS THAN (MAXVALUE));\n" +
		"CREATE TABLE `seasons` (`day` DATE NOT NULL) PARTITION BY LIST (MONTH(`day`)) (PARTITION `seasons_winter` VALUES IN (12,1,2), PARTITION `seasons_rest` DEFAULT);\n" +
		"CREATE TABLE `marks` (`day` DATE) PARTITION BY HASH (MONTH(`day`)) PARTITIONS 2;\n" +
		"CREATE TABLE `hits` (`id` BIGINT NOT NULL, PRIMARY KEY (`id`)) PARTITION BY HASH (`id`) PARTITIONS 3;\n"
	exprPartPostgres = `CREATE TABLE "logs" ("id" bigint NOT NULL, "day" date NOT NULL) PARTITION BY RANGE (EXTRACT(YEAR FROM "day"));
CREATE TABLE "logs_2024" PARTITION OF "logs" FOR VALUES FROM (MINVALUE) TO (2025);
CREATE TABLE "logs_rest" PARTITION OF "logs" FOR VALUES FROM (2025) TO (MAXVALUE);
CREATE TABLE "seasons" ("day" date NOT NULL) PARTITION BY LIST (EXTRACT(MONTH FROM "day"));
CREATE TABLE "seasons_winter" PARTITION OF "seasons" FOR VALUES IN (12, 1, 2);
CREATE TABLE "seasons_rest" PARTITION OF "seasons" DEFAULT;
CREATE TABLE "marks" ("day" date) PARTITION BY HASH (EXTRACT(MONTH FROM "day"));
CREATE TABLE "marks_p0" PARTITION OF "marks" FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE "marks_p1" PARTITION OF "marks" FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE "hits" ("id" bigint NOT NULL, PRIMARY KEY ("id")) PARTITION BY HASH ("id");
CREATE TABLE "hits_zero" PARTITION OF "hits" FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE "hits_one" PARTITION OF "hits" FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE "hits_two" PARTITION OF "hits" FOR VALUES WITH (MODULUS 3, REMAINDER 2);
`
)

// TestImportFunctionPartitions imports tables partitioned by the year or
// month of a column from both databases: each comes back as a partition
// block with its function, and each dialect's DDL of the imported model
// builds a database equal to the original; so do PostgreSQL's hash parts
// named otherwise than <table>_p<i> (part blocks, by remainder).
func TestImportFunctionPartitions(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, []byte(exprPartPostgres))
	testproject.RunSQL(t, ti, []byte(exprPartTiDB))
	r, model, out := importAndCompile(t, pg.URL, ti.URL)
	if len(r.Schema.Tables) != 4 {
		t.Errorf("the imported model has %d tables, want 4 (parts are not tables):\n%s", len(r.Schema.Tables), model)
	}
	for _, want := range []string{
		"    count  = 3\n    part \"hits_zero\" {\n    }\n    part \"hits_one\" {\n    }\n    part \"hits_two\" {\n    }\n",
		"    type     = \"range\"\n    column   = \"day\"\n    function = \"year\"\n    part \"logs_2024\" {\n      less_than = 2025\n    }\n",
		"    part \"seasons_winter\" {\n      values = [12, 1, 2]\n    }\n",
		"    type     = \"hash\"\n    column   = \"day\"\n    function = \"month\"\n    count    = 2\n",
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

// TestImportPartitionIndexOnline imports a PostgreSQL database whose
// partitioned table got its indexes as migrate diff's online plan makes
// them (ON ONLY the table, each part's built CONCURRENTLY, named as
// PostgreSQL names those it makes, and attached): the model has the
// table's indexes, and its DDL, where PostgreSQL indexes the parts itself,
// builds a database equal to the original, catalog and all.
func TestImportPartitionIndexOnline(t *testing.T) {
	t.Parallel()
	pg := dbtest.Postgres(t)
	testproject.RunSQL(t, pg, []byte(`CREATE TABLE "events" ("id" bigint NOT NULL, "day" date NOT NULL, "n" integer NULL, PRIMARY KEY ("id", "day")) PARTITION BY RANGE ("day");
CREATE TABLE "events_2024" PARTITION OF "events" FOR VALUES FROM (MINVALUE) TO ('2025-01-01');
CREATE TABLE "events_rest" PARTITION OF "events" FOR VALUES FROM ('2025-01-01') TO (MAXVALUE);
INSERT INTO "events" SELECT g, DATE '2024-06-01' + g, g FROM generate_series(1, 500) g;
CREATE INDEX "events_n_idx" ON ONLY "events" ("n") WHERE "n" > 10;
CREATE UNIQUE INDEX "events_day_id_uq" ON ONLY "events" ("day", "id");
CREATE INDEX CONCURRENTLY "events_2024_n_idx" ON "events_2024" ("n") WHERE "n" > 10;
CREATE INDEX CONCURRENTLY "events_rest_n_idx" ON "events_rest" ("n") WHERE "n" > 10;
CREATE UNIQUE INDEX CONCURRENTLY "events_2024_day_id_idx" ON "events_2024" ("day", "id");
CREATE UNIQUE INDEX CONCURRENTLY "events_rest_day_id_idx" ON "events_rest" ("day", "id");
ALTER INDEX "events_n_idx" ATTACH PARTITION "events_2024_n_idx";
ALTER INDEX "events_n_idx" ATTACH PARTITION "events_rest_n_idx";
ALTER INDEX "events_day_id_uq" ATTACH PARTITION "events_2024_day_id_idx";
ALTER INDEX "events_day_id_uq" ATTACH PARTITION "events_rest_day_id_idx";
`))
	r, model, out := importAndCompile(t, pg.URL)
	if len(r.Schema.Tables) != 1 {
		t.Errorf("the imported model has %d tables, want 1 (parts and their indexes are not tables):\n%s", len(r.Schema.Tables), model)
	}
	for _, want := range []string{`index "events_n_idx" {`, `index "events_day_id_uq" {`} {
		if !strings.Contains(string(model), want) {
			t.Errorf("the imported model has no %q:\n%s", want, model)
		}
	}
	fresh := dbtest.Postgres(t)
	testproject.RunSQL(t, fresh, out.Outputs["postgres"].SQL)
	compareDatabases(t, all.Get("postgres"), pg, fresh, nil)
}
