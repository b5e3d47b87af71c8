package importer_test

import (
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportMergedTextAgainstEnum merges a column that is an enum on one
// database and a string on the other, both ways round (PostgreSQL text with
// a CHECK against TiDB's ENUM, PostgreSQL's enum type against TiDB's
// VARCHAR). The model compiles, the enum side keeps its enum and its
// default, and each dialect's generated DDL builds a database equal to the
// original. Before the fix the first case wrote a model that did not
// compile (an override cannot make a column an enum) and lost TiDB's
// default.
func TestImportMergedTextAgainstEnum(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, pg, tidb string }{
		{"text against ENUM",
			`CREATE TABLE orders (id int PRIMARY KEY, status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid')));`,
			"CREATE TABLE orders (id int PRIMARY KEY, status ENUM('pending', 'paid') NOT NULL DEFAULT 'pending');"},
		{"enum type against VARCHAR",
			`CREATE TYPE order_status AS ENUM ('pending', 'paid'); CREATE TABLE orders (id int PRIMARY KEY, status order_status NOT NULL DEFAULT 'pending');`,
			"CREATE TABLE orders (id int PRIMARY KEY, status VARCHAR(10) NOT NULL DEFAULT 'pending');"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
			testproject.RunSQL(t, pg, []byte(tc.pg))
			testproject.RunSQL(t, ti, []byte(tc.tidb))
			_, _, out := importAndCompile(t, pg.URL, ti.URL)
			for _, c := range []struct {
				d    string
				orig *dbtest.DB
			}{{"postgres", pg}, {"tidb", ti}} {
				rebuilt := dbtest.New(t, c.d)
				testproject.RunSQL(t, rebuilt, out.Outputs[c.d].SQL)
				compareDatabases(t, all.Get(c.d), c.orig, rebuilt, nil)
			}
		})
	}
}
