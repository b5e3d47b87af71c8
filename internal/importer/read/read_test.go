package read_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/importer/read"
	"github.com/schemagen/schemagen/internal/testproject"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestDatabaseKeepsItsNames: reading gives the database's objects in its
// own terms and names, even those the model could not hold as they are (a
// TiDB index named like a table; making them distinct is the merge's
// work), with each index's statement and each column's type as the
// database spells them; a table matching no pattern is left out.
func TestDatabaseKeepsItsNames(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t, "tidb")
	testproject.RunSQL(t, db, []byte("CREATE TABLE accounts (id INT PRIMARY KEY, email VARCHAR(100) NOT NULL, UNIQUE KEY posts (email));\n"+
		"CREATE TABLE posts (id INT PRIMARY KEY, account_id INT NOT NULL, flags BIT(3), KEY accounts (account_id));\n"+
		"CREATE TABLE other (id INT PRIMARY KEY);\n"))
	im, err := read.Database(context.Background(), all.Get("tidb"), db.URL, []string{"a*", "posts"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(im.Schema.Tables); n != 2 || im.Schema.Table("other") != nil {
		t.Fatalf("%d tables read, want accounts and posts only", n)
	}
	if u := im.Schema.Table("accounts").Uniques; len(u) != 1 || u[0].Name != "posts" {
		t.Errorf("accounts' unique keys: %v, want one named posts", u)
	}
	if x := im.Schema.Table("posts").Indexes; len(x) != 1 || x[0].Name != "accounts" {
		t.Errorf("posts' indexes: %v, want one named accounts", x)
	}
	if sql := im.IndexStatement("posts", "accounts"); !strings.Contains(sql, "accounts") || !strings.Contains(sql, "account_id") {
		t.Errorf("IndexStatement(posts, accounts) = %q", sql)
	}
	if sql := im.IndexStatement("posts", "none"); sql != "" {
		t.Errorf("IndexStatement of no index = %q, want none", sql)
	}
	if raw := im.RawType("posts", "flags"); !strings.EqualFold(raw, "bit(3)") {
		t.Errorf("RawType(posts, flags) = %q, want bit(3)", raw)
	}
	if _, ok := im.Inspected()["posts"]; !ok || len(im.Inspected()) != 2 {
		t.Errorf("Inspected holds %d tables, want accounts and posts", len(im.Inspected()))
	}
}
