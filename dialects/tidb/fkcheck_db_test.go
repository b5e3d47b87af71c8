package tidb_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

// TestForeignKeyToLeadingDecimal shows on a real TiDB the behaviour behind
// the refusal of a foreign key to a lone decimal column that leads a
// composite primary key: TiDB refuses every row (1452), where it takes the
// same row for a key of two columns, an integer column, or a primary key
// that is not clustered. While TiDB does so the model is refused at the
// key; when this test fails because TiDB took the row, lift the refusal.
func TestForeignKeyToLeadingDecimal(t *testing.T) {
	t.Parallel()
	db := dbtest.TiDB(t)
	for i, tc := range []struct {
		parent, child string
		refused       bool
	}{
		{"a DECIMAL(5,2) NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b), UNIQUE KEY (a)", "r DECIMAL(5,2), FOREIGN KEY (r) REFERENCES %s (a)", true},
		{"a DECIMAL(5,2) NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b) NONCLUSTERED, UNIQUE KEY (a)", "r DECIMAL(5,2), FOREIGN KEY (r) REFERENCES %s (a)", false},
		{"a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b), UNIQUE KEY (a)", "r INT, FOREIGN KEY (r) REFERENCES %s (a)", false},
		{"a DECIMAL(5,2) NOT NULL, b INT NOT NULL, c INT NOT NULL, PRIMARY KEY (a, b, c), UNIQUE KEY (a, b)", "r DECIMAL(5,2), s INT, FOREIGN KEY (r, s) REFERENCES %s (a, b)", false},
	} {
		parent, child := fmt.Sprintf("p%d", i), fmt.Sprintf("c%d", i)
		for _, q := range []string{
			"CREATE TABLE " + parent + " (" + tc.parent + ")",
			"CREATE TABLE " + child + " (id INT PRIMARY KEY, " + strings.Replace(tc.child, "%s", parent, 1) + ")",
			"INSERT INTO " + parent + " VALUES (1, 2" + strings.Repeat(", 3", strings.Count(tc.parent, "NOT NULL")-2) + ")",
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		vals := "1, 1"
		if strings.Contains(tc.child, "s INT") {
			vals = "1, 1, 2"
		}
		_, err := db.Exec("INSERT INTO " + child + " VALUES (" + vals + ")")
		if got := err != nil && strings.Contains(err.Error(), "1452"); got != tc.refused {
			t.Errorf("parent (%s), child (%s): TiDB refused the row: %v (%v), want %v", tc.parent, tc.child, got, err, tc.refused)
		}
	}

	// The model is refused at the key's reference, on TiDB only.
	res := gen.CompileSource("schema.hcl", []byte(`
table "prices" {
  column "amount" {
    type = decimal(5,2)
  }
  column "n" {
    type = int
  }
  primary_key {
    columns = ["amount", "n"]
  }
  unique "prices_amount_uq" {
    columns = ["amount"]
  }
}

table "orders" {
  column "id" {
    type = int
  }
  column "amount" {
    type = decimal(5,2)
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "orders_amount_fk" {
    columns     = ["amount"]
    ref_table   = "prices"
    ref_columns = ["amount"]
  }
}
`))
	if !res.Failed() || len(res.Diags) != 1 || !strings.Contains(res.Diags[0].Detail, "every INSERT and UPDATE that sets it fails") || res.Diags[0].Subject == nil || res.Diags[0].Subject.Start.Line != 29 {
		t.Errorf("want one error at schema.hcl:29 (ref_table), got %v", res.Diags)
	}
}
