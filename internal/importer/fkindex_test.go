package importer_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestTiDBForeignKeyIndexKeptWhenCovered: TiDB names the index it makes
// for a foreign key after the key. When a covering index came later, the
// model's DDL (indexes declared with the table) would not make that index
// again, so import keeps it; without a covering index it is left out, as
// TiDB makes it again. Both databases, the original and the one built from
// the imported model, then hold the same objects.
func TestTiDBForeignKeyIndexKeptWhenCovered(t *testing.T) {
	t.Parallel()
	a := dbtest.New(t, "tidb")
	testproject.RunSQL(t, a, []byte(`CREATE TABLE p (id BIGINT NOT NULL PRIMARY KEY);
CREATE TABLE c (id BIGINT NOT NULL PRIMARY KEY, p_id BIGINT NOT NULL, note VARCHAR(10), CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES p (id));
CREATE INDEX c_p_note_idx ON c (p_id, note);
CREATE TABLE d (id BIGINT NOT NULL PRIMARY KEY, p_id BIGINT NOT NULL, CONSTRAINT d_p_fk FOREIGN KEY (p_id) REFERENCES p (id));
`))
	_, src, out := importAndCompile(t, a.URL)
	if !strings.Contains(string(src), `index "c_p_fk"`) {
		t.Errorf("the index TiDB made for c_p_fk, covered since by c_p_note_idx, is not in the model:\n%s", src)
	}
	if strings.Contains(string(src), `index "d_p_fk"`) {
		t.Errorf("the index TiDB makes for d_p_fk by itself is in the model:\n%s", src)
	}
	b := dbtest.New(t, "tidb")
	testproject.RunSQL(t, b, out.Outputs["tidb"].SQL)
	compareDatabases(t, all.Get("tidb"), a, b, nil)
}
