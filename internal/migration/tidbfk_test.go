package migration_test

import (
	"context"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestTiDBForeignKeyActionsByTable checks that two tables' unnamed foreign
// keys, both fk_1 in TiDB, keep their own ON DELETE rules when inspected.
func TestTiDBForeignKeyActionsByTable(t *testing.T) {
	db := dbtest.TiDB(t)
	for _, s := range []string{
		"CREATE TABLE p (id INT PRIMARY KEY)",
		"CREATE TABLE a (id INT PRIMARY KEY, p_id INT, FOREIGN KEY (p_id) REFERENCES p (id) ON DELETE CASCADE)",
		"CREATE TABLE b (id INT PRIMARY KEY, p_id INT, FOREIGN KEY (p_id) REFERENCES p (id) ON DELETE SET NULL)",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	drv, err := all.Get("tidb").OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := drv.InspectSchema(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]schema.ReferenceOption{"a": schema.Cascade, "b": schema.SetNull}
	for name, action := range want {
		tb, ok := s.Table(name)
		if !ok || len(tb.ForeignKeys) != 1 {
			t.Fatalf("table %s: %+v", name, tb)
		}
		fk := tb.ForeignKeys[0]
		if fk.Symbol != "fk_1" || fk.OnDelete != action || len(fk.Columns) != 1 {
			t.Errorf("table %s: %s ON DELETE %q with %d columns, want fk_1 ON DELETE %q with 1", name, fk.Symbol, fk.OnDelete, len(fk.Columns), action)
		}
	}
}
