package importer_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportTiDBUniqueForms imports TiDB's own ways of writing a unique key
// (a prefix length, INVISIBLE, an expression, DESC): the TiDB database
// rebuilt from the model is the original, what the model has no construct
// for is said, and PostgreSQL gets each key. Before, the prefix length and
// INVISIBLE were lost without a word: TiDB's rebuilt key was over the
// whole column (it refuses fewer rows) and visible. INVISIBLE is now the
// index's visible = false, its unique index on PostgreSQL explained.
func TestImportTiDBUniqueForms(t *testing.T) {
	t.Parallel()
	ti := dbtest.TiDB(t)
	testproject.RunSQL(t, ti, []byte("CREATE TABLE people (id int PRIMARY KEY, email varchar(255), name varchar(100), nick varchar(50), badge int, team int,\n"+
		"  UNIQUE KEY people_email_uq (email(20)),\n"+
		"  UNIQUE KEY people_badge_uq (badge) INVISIBLE,\n"+
		"  UNIQUE KEY people_nick_uq ((lower(nick))),\n"+
		"  UNIQUE KEY people_team_uq (team DESC, name));"))
	r, model, out := importAndCompile(t, ti.URL)
	if !strings.Contains(string(model), "index \"people_badge_uq\" {\n    unique  = true\n    columns = [\"badge\"]\n    visible = false\n  }") {
		t.Errorf("the invisible key is not a unique index with visible = false:\n%s", model)
	}
	for _, want := range []string{
		"people: index people_email_uq: the prefix `email`(20) has no construct in the model: kept as tidb's statement; the other dialects get the unique constraint without it, over whole values: it allows rows alike in their prefix",
	} {
		if !slices.Contains(r.Summary, want) {
			t.Errorf("the summary does not say: %s", want)
		}
	}
	rebuilt := dbtest.TiDB(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["tidb"].SQL)
	compareDatabases(t, all.Get("tidb"), ti, rebuilt, nil)

	pg := dbtest.Postgres(t)
	testproject.RunSQL(t, pg, out.Outputs["postgres"].SQL)
	var uniques []string
	rows, err := pg.Query("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexdef LIKE 'CREATE UNIQUE%' AND indexname <> 'people_pkey' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		uniques = append(uniques, n)
	}
	if want := []string{"people_badge_uq", "people_email_uq", "people_nick_uq", "people_team_uq"}; !slices.Equal(uniques, want) {
		t.Errorf("PostgreSQL's unique indexes: %s, want %s", strings.Join(uniques, ", "), strings.Join(want, ", "))
	}
}
