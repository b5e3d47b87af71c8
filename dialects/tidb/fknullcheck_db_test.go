package tidb_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestForeignKeyCheckPassesOverNull shows on a real TiDB the behaviour
// behind the statement the TiDB plan writes before ADD FOREIGN KEY when a
// referenced column is nullable (internal/online's foreignKeyAssert): TiDB
// checks the existing rows with (cols) NOT IN (SELECT refcols FROM parent)
// (pkg/ddl/foreign_key.go, checkForeignKeyConstrain), so that once a
// referenced column holds a NULL it adds the key over a row without a
// match, which PostgreSQL refuses; with no NULL there it refuses the row
// (1452). When this test fails because TiDB refused the row over the NULL
// too, the statement can go.
func TestForeignKeyCheckPassesOverNull(t *testing.T) {
	t.Parallel()
	db := dbtest.TiDB(t)
	for _, tc := range []struct {
		name, parentRow string
		added           bool
	}{
		{"null_in_parent", "(1, NULL)", true},
		{"no_null_in_parent", "(1, 7)", false},
	} {
		for _, self := range []bool{false, true} {
			parent, child := "p_"+tc.name, "c_"+tc.name
			if self {
				parent, child = "s_"+tc.name, "s_"+tc.name
			}
			stmts := []string{"CREATE TABLE " + parent + " (id INT PRIMARY KEY, k SMALLINT NULL, r SMALLINT NOT NULL DEFAULT 5, UNIQUE KEY (k))",
				"INSERT INTO " + parent + " (id, k) VALUES " + tc.parentRow}
			if !self {
				stmts = append(stmts, "CREATE TABLE "+child+" (id INT PRIMARY KEY, r SMALLINT NOT NULL DEFAULT 5)", "INSERT INTO "+child+" (id) VALUES (1)")
			}
			for _, q := range stmts {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			q := "ALTER TABLE " + child + " ADD CONSTRAINT " + child + "_fk FOREIGN KEY (r) REFERENCES " + parent + " (k)"
			_, err := db.Exec(q)
			switch {
			case tc.added && err != nil:
				t.Errorf("%s (a row r = 5, the parent's k %s): TiDB refused it: %v", q, tc.parentRow, err)
			case !tc.added && (err == nil || !strings.Contains(err.Error(), "1452")):
				t.Errorf("%s (a row r = 5, the parent's k %s): %v, want error 1452", q, tc.parentRow, err)
			}
		}
	}
}
