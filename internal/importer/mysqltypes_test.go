package importer_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportMySQLTypes imports, from a TiDB database alone, the MySQL
// types TiDB schemas use: unsigned integers (one an AUTO_INCREMENT id),
// MEDIUMINT, YEAR, SET, TINYINT(1) and TIMESTAMP. The model compiles; its
// PostgreSQL side applies, and takes and refuses the same values as TiDB:
// each unsigned integer and YEAR gets, on PostgreSQL only, a CHECK of the
// TiDB type's range. SET is text there, without the check of its labels,
// which the summary says.
func TestImportMySQLTypes(t *testing.T) {
	t.Parallel()
	ti := dbtest.TiDB(t)
	testproject.RunSQL(t, ti, []byte(`CREATE TABLE items (
  id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  qty SMALLINT UNSIGNED NOT NULL,
  big BIGINT UNSIGNED NULL,
  small TINYINT UNSIGNED NULL,
  mid MEDIUMINT NULL,
  made YEAR NULL,
  tags SET('red','green','blue') NULL,
  active TINYINT(1) NOT NULL DEFAULT 1,
  seen TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP
)`))
	r, _, out := importAndCompile(t, ti.URL)
	items := r.Schema.Table("items")
	if c := items.Column("id"); c == nil || c.Identity == nil {
		t.Error("items.id, INT UNSIGNED AUTO_INCREMENT, is not an identity")
	}
	if c := items.Column("active"); c == nil || c.Type.String() != "bool" {
		t.Error("items.active, TINYINT(1), is not bool")
	}
	if c := items.Column("seen"); c == nil || !c.OnUpdate || c.Type.Kind != compiler.TypeTimestamp {
		t.Errorf("items.seen, TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, is not a timestamp set on update")
	}
	for _, line := range r.Summary {
		if strings.Contains(line, "has no neutral type") {
			t.Errorf("summary: %s", line)
		}
	}
	if !slices.ContainsFunc(r.Summary, func(s string) bool {
		return strings.Contains(s, "column tags:") && strings.Contains(s, "without the check of its labels")
	}) {
		t.Errorf("the summary does not say SET loses the check of its labels on postgres:\n%s", strings.Join(r.Summary, "\n"))
	}
	pg := dbtest.Postgres(t)
	testproject.RunSQL(t, pg, out.Outputs["postgres"].SQL)
	rebuilt := dbtest.TiDB(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["tidb"].SQL)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("postgres:\n%s", out.Outputs["postgres"].SQL)
		}
	})
	// Each value, on both: accepted or refused alike.
	for _, tc := range []struct {
		column, value string
		ok            bool
	}{
		{"qty", "0", true}, {"qty", "65535", true}, {"qty", "-1", false}, {"qty", "65536", false},
		{"big", "18446744073709551615", true}, {"big", "-1", false}, {"big", "0", true},
		{"small", "255", true}, {"small", "256", false}, {"small", "-1", false},
		{"mid", "-8388608", true}, {"mid", "8388607", true}, {"mid", "8388608", false},
		{"made", "1901", true}, {"made", "2155", true}, {"made", "0", true}, {"made", "1900", false}, {"made", "2156", false},
	} {
		for _, db := range []*dbtest.DB{rebuilt, pg} {
			q := "INSERT INTO items (qty, " + tc.column + ") VALUES (1, " + tc.value + ")"
			if tc.column == "qty" {
				q = "INSERT INTO items (qty) VALUES (" + tc.value + ")"
			}
			_, err := db.Exec(q)
			if (err == nil) != tc.ok {
				t.Errorf("%s: %s = %s: accepted %v, want %v (%v)", db.Dialect, tc.column, tc.value, err == nil, tc.ok, err)
			}
		}
	}
}
