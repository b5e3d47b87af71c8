package online_test

import (
	"context"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/dialects/tidb/internal/online"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestTiDBEnumHazards checks the hazards claimed for an ENUM column's new
// values on the server: values added at the end change the definition only
// (the DDL job copies no row), values added before others rewrite the column
// (the job copies every row), and a removed value that a row holds fails the
// statement, as the claim says it can.
func TestTiDBEnumHazards(t *testing.T) {
	db := dbtest.TiDB(t)
	ctx := context.Background()
	for _, s := range []string{
		"CREATE TABLE items (id INT PRIMARY KEY, s ENUM('a', 'b') NOT NULL)",
		"INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'a'), (4, 'b')",
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	drv, err := tidb.Dialect{}.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, stmt     string
		rewrite, fails bool
	}{
		{"append", "ALTER TABLE items MODIFY COLUMN s ENUM('a', 'b', 'c') NOT NULL", false, false},
		{"before", "ALTER TABLE items MODIFY COLUMN s ENUM('z', 'a', 'b', 'c') NOT NULL", true, false},
		{"remove a held value", "ALTER TABLE items MODIFY COLUMN s ENUM('z', 'a', 'c') NOT NULL", true, true},
	} {
		before, err := drv.InspectSchema(ctx, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		last := maxJobID(t, db.DB)
		_, execErr := db.Exec(c.stmt)
		// The hazards are claimed from the change the statement makes.
		want, _ := drv.InspectSchema(ctx, "", nil)
		if execErr != nil {
			tt, _ := want.Table("items")
			col, _ := tt.Column("s")
			col.Type.Type = &schema.EnumType{T: "enum", Values: []string{"z", "a", "c"}}
		}
		changes, err := drv.SchemaDiff(before, want, schema.DiffNormalized())
		if err != nil {
			t.Fatal(err)
		}
		var rewrite, canFail bool
		for _, h := range online.Hazards(changes, hazard.Form{}) {
			rewrite = rewrite || h.Rewrite
			canFail = canFail || h.CanFail
		}
		if rewrite != c.rewrite || c.fails && !canFail {
			t.Errorf("%s: claims rewrite %v, can fail %v; want rewrite %v, can fail %v", c.name, rewrite, canFail, c.rewrite, c.fails)
		}
		if (execErr != nil) != c.fails {
			t.Errorf("%s: %s: error %v, want failing %v", c.name, c.stmt, execErr, c.fails)
			continue
		}
		var copied int64
		for _, j := range ddlJobs(t, db.DB) {
			if j.id > last && j.table == "items" {
				copied = max(copied, j.rows)
			}
		}
		if !c.fails && (copied > 0) != c.rewrite {
			t.Errorf("%s: the DDL job copied %d rows; claimed rewrite %v", c.name, copied, c.rewrite)
		}
	}
}
