package importer_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportCheckTexts settles the issue's "a hand-written CHECK is
// rewritten with ::bigint casts". PostgreSQL keeps no CHECK as written,
// only its normalised form (pg_get_constraintdef), which writes the casts
// it added: '9007199254740991'::bigint, ARRAY[(1)::bigint, ...],
// (0)::numeric. Import reads that form back into the portable expression,
// without the casts, for every CHECK that has one: the model's text is the
// CHECK's meaning, and TiDB's text, where written otherwise (BETWEEN), is
// kept as TiDB's. Only a CHECK with no portable form (a function the model
// does not know: floor) keeps PostgreSQL's normalised text, casts and all,
// as PostgreSQL's own, which is the only text PostgreSQL has of it; both
// databases rebuilt from the model are their originals, catalog for
// catalog.
func TestImportCheckTexts(t *testing.T) {
	t.Parallel()
	table := `CREATE TABLE files (
  id bigint PRIMARY KEY,
  size_bytes bigint NOT NULL,
  kind bigint NOT NULL,
  price numeric(10,2) NOT NULL,
  parts int NOT NULL,
  CONSTRAINT files_size_ck CHECK (size_bytes BETWEEN 0 AND 9007199254740991),
  CONSTRAINT files_kind_ck CHECK (kind IN (1, 2, 3)),
  CONSTRAINT files_price_ck CHECK (price > 0),
  CONSTRAINT files_parts_ck CHECK (parts <= 2147483648 AND parts >= 1),
  CONSTRAINT files_cents_ck CHECK (price * 100 = floor(price * 100))
)`
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, []byte(table))
	testproject.RunSQL(t, ti, []byte(table))
	var printed string
	if err := pg.QueryRow("SELECT string_agg(pg_get_constraintdef(oid), ' ') FROM pg_constraint WHERE conrelid = 'files'::regclass AND contype = 'c'").Scan(&printed); err != nil {
		t.Fatal(err)
	}
	for _, cast := range []string{"'9007199254740991'::bigint", "(1)::bigint", "(0)::numeric", "(100)::numeric"} {
		if !strings.Contains(printed, cast) {
			t.Fatalf("PostgreSQL printed the CHECKs without %s (the test's premise): %s", cast, printed)
		}
	}
	want := map[string]string{
		"files_size_ck":  "size_bytes >= 0 AND size_bytes <= 9007199254740991",
		"files_kind_ck":  "kind IN (1, 2, 3)",
		"files_price_ck": "price > 0",
		"files_parts_ck": "parts <= 2147483648 AND parts >= 1",
	}
	for _, urls := range [][]string{{pg.URL}, {pg.URL, ti.URL}} {
		r, _, out := importAndCompile(t, urls...)
		for _, c := range r.Schema.Table("files").Checks {
			switch w, ok := want[c.Name]; {
			case ok && (c.Expr == nil || render.String(c.Expr) != w):
				t.Errorf("%d databases: check %s reads %v, want %s", len(urls), c.Name, c.Expr, w)
			case !ok && (c.Expr != nil || c.Overrides["postgres"] == nil || !strings.Contains(printed, c.Overrides["postgres"].Expr)):
				t.Errorf("%d databases: check %s is not PostgreSQL's printed text as its own: %+v", len(urls), c.Name, c.Overrides["postgres"])
			}
		}
		if len(urls) == 2 {
			for _, c := range r.Schema.Table("files").Checks {
				if o := c.Overrides["tidb"]; c.Name == "files_size_ck" && (o == nil || !strings.Contains(strings.ToLower(o.Expr), "between")) {
					t.Errorf("files_size_ck: TiDB's BETWEEN is not kept as its text: %+v", o)
				}
			}
		}
		for _, d := range []string{"postgres", "tidb"} {
			if len(urls) == 1 && d == "tidb" {
				continue
			}
			orig := map[string]*dbtest.DB{"postgres": pg, "tidb": ti}[d]
			rebuilt := dbtest.New(t, d)
			testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
			compareDatabases(t, all.Get(d), orig, rebuilt, nil)
		}
	}
}
