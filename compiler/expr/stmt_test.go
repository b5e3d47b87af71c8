package expr_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/parse"
)

var catalog = func() expr.Catalog {
	tables := map[string]*expr.CatalogTable{
		"a": {Name: "a", Key: []string{"id"}, Columns: []expr.CatalogColumn{{Name: "id", Kind: expr.KindInteger}, {Name: "name", Kind: expr.KindString}, {Name: "at", Kind: expr.KindTime}, {Name: "u", Kind: expr.KindUUID}}},
		"b": {Name: "b", Key: []string{"id"}, Columns: []expr.CatalogColumn{{Name: "id", Kind: expr.KindInteger}, {Name: "a_id", Kind: expr.KindInteger}, {Name: "ok", Kind: expr.KindBool}}},
	}
	return func(n string) *expr.CatalogTable { return tables[n] }
}()

func TestStmtsAccepted(t *testing.T) {
	for _, src := range []string{
		"INSERT INTO b (id, a_id, ok) SELECT x.id, x.id, TRUE FROM a x LEFT JOIN b y ON y.a_id = x.id WHERE y.id IS NULL ON CONFLICT DO NOTHING",
		"UPDATE a SET name = 'n' || id::text || CAST(u AS text), at = now() WHERE EXISTS (SELECT 1 FROM b WHERE b.a_id = a.id AND b.ok)",
		"UPDATE a SET id = name::text || '' IS NOT DISTINCT FROM 'x' AND TRUE OR FALSE",
		"DELETE FROM b WHERE a_id NOT IN (SELECT id FROM a) AND NOT EXISTS (SELECT 1 FROM a WHERE a.id = b.a_id)",
		"ASSERT NOT EXISTS (SELECT 1 FROM a JOIN b ON b.a_id = a.id WHERE coalesce(a.name, '') = '' AND CASE WHEN b.ok THEN 1 ELSE 0 END = 1) MESSAGE 'bad';",
	} {
		stmts, err := expr.ReadStmts(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		errs := expr.AnalyzeStmts(stmts, catalog)
		if strings.HasPrefix(src, "UPDATE a SET id = name") {
			if len(errs) != 1 || !strings.Contains(errs[0].Msg, "type mismatch") {
				t.Errorf("%s: %v, want one type mismatch", src, errs)
			}
			continue
		}
		for _, e := range errs {
			t.Errorf("%s: at %d: %s", src, e.Offset, e.Msg)
		}
	}
}

func TestStmtsRefused(t *testing.T) {
	for _, c := range []struct{ src, at, msg string }{
		{"DELETE FROM a WHERE id = (SELECT 1)", "SELECT 1)", "scalar subquery"},
		{"DELETE FROM a WHERE nam = 'x'", "nam", `unknown column "nam"`},
		{"INSERT INTO b (id) SELECT id FROM a JOIN b ON b.a_id = a.id", "id FROM", "ambiguous"},
		{"INSERT INTO b (id, ok) SELECT a.id FROM a", "SELECT", "1 value(s) for 2 column(s)"},
		{"UPDATE a SET at = now() WHERE c.id = 1", "c.id", `unknown table or alias "c"`},
		{"UPDATE a SET name = at::text", "at::text", "cast of timestamp to text"},
		{"UPDATE a SET name = CAST(id AS int)", "CAST", "a cast to int"},
		{"SELECT 1 FROM a", "SELECT", "SELECT has no place"},
		{"UPDATE a SET name = 'x' FROM b WHERE b.a_id = a.id", "FROM", "UPDATE ... FROM has no portable form"},
		{"DELETE FROM a USING b WHERE b.a_id = a.id", "USING", "DELETE ... USING has no portable form"},
		{"UPDATE a SET \"x y\" = 1, 2 = 1", "2 =", "expected a column name"},
		{"DELETE FROM nope WHERE id = 1", "nope", `unknown table "nope"`},
		{"ASSERT NOT EXISTS (SELECT 1 FROM a) MESSAGE '" + strings.Repeat("x", parse.MaxMessage+1) + "'", "'x", "shorten it"},
	} {
		stmts, err := expr.ReadStmts(c.src)
		var errs []*expr.Error
		if err != nil {
			errs = []*expr.Error{err.(*expr.Error)}
		} else {
			errs = expr.AnalyzeStmts(stmts, catalog)
		}
		if len(errs) == 0 {
			t.Errorf("%s: accepted", c.src)
			continue
		}
		e := errs[0]
		if want := strings.Index(c.src, c.at); e.Offset != want || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%s: at %d %q, want at %d an error holding %q", c.src, e.Offset, e.Msg, want, c.msg)
		}
	}
}
