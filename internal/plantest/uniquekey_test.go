package plantest_test

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/plantest"
)

// Issue 18's first TiDB failure (1822) as the product met it: a history of
// migrations, one of which adds a unique key to one table and, in the same
// migration, foreign keys to it from another table and from the same one,
// on databases holding rows; then the unique key replaced by another, with
// the keys that reference it.

// history0 is the first model: users and posts, which reference users.
const history0 = `
table "posts" {
  column "id" {
    type = int
  }
  column "author" {
    type = int
    null = true
  }
  column "title" {
    type = varchar(40)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "posts_author_fk" {
    columns     = ["author"]
    ref_table   = "users"
    ref_columns = ["id"]
  }
}

table "users" {
  column "id" {
    type = int
  }
  column "name" {
    type = varchar(50)
    null = true
  }
  column "email" {
    type = varchar(100)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
}
`

// withColumns adds HCL before the primary key of table (the first
// `primary_key` after its declaration).
func withColumns(src, table, hcl string) string {
	i := strings.Index(src, `table "`+table+`"`)
	j := i + strings.Index(src[i:], "  primary_key")
	return src[:j] + hcl + src[j:]
}

// keyedBy is history0 with the unique key uq over users(cols) and, in the
// same step, a foreign key from posts and one from users itself to it.
func keyedBy(uq string, cols ...string) string {
	q := `"` + strings.Join(cols, `", "`) + `"`
	var postCols, selfCols string
	var postRefs, selfRefs []string
	for _, c := range cols {
		typ := map[string]string{"email": "varchar(100)", "name": "varchar(50)", "id": "int"}[c]
		postCols += "  column \"author_" + c + "\" {\n    type = " + typ + "\n    null = true\n  }\n"
		selfCols += "  column \"mentor_" + c + "\" {\n    type = " + typ + "\n    null = true\n  }\n"
		postRefs, selfRefs = append(postRefs, "author_"+c), append(selfRefs, "mentor_"+c)
	}
	s := withColumns(history0, "users", selfCols+
		"  unique \""+uq+"\" {\n    columns = ["+q+"]\n  }\n"+
		"  foreign_key \"users_mentor_fk\" {\n    columns     = [\""+strings.Join(selfRefs, `", "`)+"\"]\n    ref_table   = \"users\"\n    ref_columns = ["+q+"]\n    on_delete   = \"set_null\"\n  }\n")
	return withColumns(s, "posts", postCols+
		"  foreign_key \"posts_author_key_fk\" {\n    columns     = [\""+strings.Join(postRefs, `", "`)+"\"]\n    ref_table   = \"users\"\n    ref_columns = ["+q+"]\n    on_delete   = \"cascade\"\n  }\n")
}

// TestHistoryForeignKeysToNewUniqueKey applies, through migrate diff on
// both databases and with rows, a history whose second migration adds the
// unique key users(email) and foreign keys to it from posts and from users
// in one file (the rows inserted after the first have emails), the third
// replaces that key by one over the same column under another name
// (PostgreSQL refused to drop the old one, 2BP01, as the keys were bound
// to it) and the fourth by a key over other columns that the foreign keys
// move to (the online plan added them before the new key, 42830).
func TestHistoryForeignKeysToNewUniqueKey(t *testing.T) {
	t.Parallel()
	keyed := keyedBy("users_email_uq", "email")
	st := plantest.History(t, 11, history0, keyed,
		strings.Replace(keyed, `unique "users_email_uq"`, `unique "users_email_key"`, 1),
		keyedBy("users_name_email_uq", "name", "email"))
	if st.RowsKept == 0 || st.DataRefused > 0 {
		t.Fatalf("the history ran without rows to keep (%d rows compared, %d applies stopped by rows): choose another row seed", st.RowsKept, st.DataRefused)
	}
	t.Logf("%d rows compared before and after the steps", st.RowsKept)
}

// TestNewTableKeyToNewUniqueKey: a new table's foreign key references a
// unique key added to an existing table with rows in the same step. The
// key was built in the first file by ADD CONSTRAINT ... UNIQUE, under
// ACCESS EXCLUSIVE for the whole scan, because CREATE TABLE's foreign key
// needed it (PG111, refused by lint; plan oracle, seed 94949, evolution
// 94949284908). The new table is now created without the key, the unique
// key built CONCURRENTLY, and the foreign key added after it.
func TestNewTableKeyToNewUniqueKey(t *testing.T) {
	t.Parallel()
	const before = `
table "docs" {
  column "id" {
    type = bigint
  }
  column "code" {
    type = varchar(20)
  }
  primary_key {
    columns = ["id"]
  }
}
`
	after := strings.Replace(before, "  primary_key {", "  unique \"docs_code_uq\" {\n    columns = [\"code\"]\n  }\n  primary_key {", 1) + `
table "notes" {
  column "id" {
    type = bigint
  }
  column "doc_code" {
    type = varchar(20)
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "notes_doc_fk" {
    columns     = ["doc_code"]
    ref_table   = "docs"
    ref_columns = ["code"]
  }
}
`
	plantest.ReplayLinted(t, 1, before, after)
}

// TestUniqueConstraintNewColumns: a unique constraint whose name a step
// gives to other columns (a table rebuilt with its keys renamed, and a new
// key under the old name) was dropped and added again by a plain ADD
// CONSTRAINT, which builds the index under ACCESS EXCLUSIVE: lint's PG101
// on the file migrate diff wrote (plan oracle, evolution 98383295244). The
// new constraint is now built CONCURRENTLY and made a constraint USING
// INDEX in the second file; with a self-reference moved to the old columns'
// new key in the same step, as the evolution had it.
func TestUniqueConstraintNewColumns(t *testing.T) {
	t.Parallel()
	before := `
table "t0" {
  column "id" {
    type = int
  }
  column "k" {
    type = int
    null = true
  }
  column "c" {
    type = int
    null = true
  }
  column "r" {
    type = int
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  unique "t0_uq0" {
    columns = ["k"]
  }
  foreign_key "t0_fk0" {
    columns     = ["r"]
    ref_table   = "t0"
    ref_columns = ["k"]
  }
}
`
	moved := strings.Replace(strings.Replace(before, `unique "t0_uq0" {
    columns = ["k"]
  }`, `unique "t0_uq0" {
    columns = ["c", "id"]
  }
  unique "t0_b0" {
    columns = ["k"]
  }`, 1), `"t0_fk0"`, `"t0_b1"`, 1)
	t.Run("plain", func(t *testing.T) {
		plain := strings.Replace(before, "  foreign_key \"t0_fk0\" {\n    columns     = [\"r\"]\n    ref_table   = \"t0\"\n    ref_columns = [\"k\"]\n  }\n", "", 1)
		plantest.ReplayLinted(t, 1, plain, strings.Replace(plain, `columns = ["k"]`, `columns = ["c", "id"]`, 1))
	})
	t.Run("key_moved", func(t *testing.T) { plantest.ReplayLinted(t, 1, before, moved) })
}
