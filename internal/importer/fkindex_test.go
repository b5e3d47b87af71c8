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

// TestTiDBForeignKeyIndexOfRenamedKey: a foreign key renamed on a database
// pair (PostgreSQL renames the constraint; TiDB, which has no RENAME
// CONSTRAINT, drops the key and adds it again) leaves on TiDB the index it
// made for the key under the key's old name. Import read it as an index of
// TiDB alone ("index c_p_fk of c exists only on tidb", postgres { skip })
// before; it is TiDB's own for the key, which TiDB makes again from the
// model's DDL: left out, with a note, and the TiDB database built from the
// model has the key's index over the same columns.
func TestTiDBForeignKeyIndexOfRenamedKey(t *testing.T) {
	t.Parallel()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	testproject.RunSQL(t, pg, []byte(`CREATE TABLE p (id BIGINT NOT NULL PRIMARY KEY);
CREATE TABLE c (id BIGINT NOT NULL PRIMARY KEY, p_id BIGINT NOT NULL, CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES p (id));
ALTER TABLE c RENAME CONSTRAINT c_p_fk TO c_parent_fk;
`))
	testproject.RunSQL(t, ti, []byte(`CREATE TABLE p (id BIGINT NOT NULL PRIMARY KEY);
CREATE TABLE c (id BIGINT NOT NULL PRIMARY KEY, p_id BIGINT NOT NULL, CONSTRAINT c_p_fk FOREIGN KEY (p_id) REFERENCES p (id));
ALTER TABLE c DROP FOREIGN KEY c_p_fk;
ALTER TABLE c ADD CONSTRAINT c_parent_fk FOREIGN KEY (p_id) REFERENCES p (id);
`))
	r, src, out := importAndCompile(t, pg.URL, ti.URL)
	for _, line := range r.Summary {
		if strings.Contains(line, "exists only on") {
			t.Errorf("summary: %s", line)
		}
	}
	if strings.Contains(string(src), `index "c_p_fk"`) {
		t.Errorf("the index TiDB made for the key before its rename is in the model:\n%s", src)
	}
	b := dbtest.New(t, "tidb")
	testproject.RunSQL(t, b, out.Outputs["tidb"].SQL)
	var n int
	if err := b.QueryRow("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'c' AND column_name = 'p_id' AND seq_in_index = 1").Scan(&n); err != nil || n != 1 {
		t.Errorf("the TiDB database built from the model has %d indexes led by c.p_id (%v), want 1 as the original", n, err)
	}
	pb := dbtest.New(t, "postgres")
	testproject.RunSQL(t, pb, out.Outputs["postgres"].SQL)
	compareDatabases(t, all.Get("postgres"), pg, pb, nil)
}
