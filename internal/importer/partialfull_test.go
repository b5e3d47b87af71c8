package importer_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportPartialAndFullUnique merges a PostgreSQL partial unique index
// with TiDB's full unique index over the same columns: each database keeps
// its own form (TiDB's as its statement in the model), and both rebuild
// as they are. Before, TiDB got the model's partial form (a unique key over
// generated columns), another key than the one it runs.
func TestImportPartialAndFullUnique(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, []byte(`CREATE TABLE coupons (id int PRIMARY KEY, code int, batch int, active boolean NOT NULL);
CREATE UNIQUE INDEX coupons_code_uq ON coupons (code) WHERE code > 0;
CREATE UNIQUE INDEX coupons_batch_uq ON coupons (batch, code) WHERE active;`))
	testproject.RunSQL(t, ti, []byte("CREATE TABLE coupons (id int PRIMARY KEY, code int, batch int, active boolean NOT NULL);\n"+
		"CREATE UNIQUE INDEX coupons_code_uq ON coupons (code);\n"+
		"CREATE UNIQUE INDEX coupons_batch_uq ON coupons (batch, code);"))
	r, model, out := importAndCompile(t, pg.URL, ti.URL)
	for _, name := range []string{"coupons_code_uq", "coupons_batch_uq"} {
		want := "index " + name + " of coupons is unique over other rows on postgres than on tidb (a predicate on postgres only); each keeps its own: tidb's statement is its override"
		if !slices.Contains(r.Summary, want) {
			t.Errorf("the summary does not say: %s", want)
		}
	}
	if !strings.Contains(string(model), "sql = \"CREATE UNIQUE INDEX `coupons_code_uq` ON `coupons` (`code`)\"") {
		t.Errorf("the model does not keep TiDB's statement of coupons_code_uq")
	}
	for _, c := range []struct {
		d         string
		orig      *dbtest.DB
		generated []byte
	}{{"postgres", pg, out.Outputs["postgres"].SQL}, {"tidb", ti, out.Outputs["tidb"].SQL}} {
		rebuilt := dbtest.New(t, c.d)
		testproject.RunSQL(t, rebuilt, c.generated)
		compareDatabases(t, all.Get(c.d), c.orig, rebuilt, nil)
	}
}
