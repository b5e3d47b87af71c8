package importer_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// One application written by hand for each dialect, whose constraints and
// indexes are named like tables. TiDB names indexes per table, so a unique
// key of accounts may be called posts and one of tags tags; PostgreSQL names
// constraints other than keys per table, so a CHECK of posts may be called
// posts, and three tables may each have a CHECK positive. The model names
// tables, unique keys and indexes in one scope (compiler.NameScopes): the
// import must give such a TiDB index another model name, keeping TiDB's as
// its override; TiDB names CHECKs per database: a model read from
// PostgreSQL alone gives TiDB other names for them. Nothing is left out.
const (
	tableNamesPostgres = `
CREATE TABLE accounts (
  id integer PRIMARY KEY,
  email varchar(100) NOT NULL,
  CONSTRAINT accounts_email_key UNIQUE (email),
  CONSTRAINT positive CHECK (id > 0)
);
CREATE TABLE posts (
  id integer PRIMARY KEY,
  account_id integer NOT NULL,
  title varchar(100),
  CONSTRAINT posts_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id),
  CONSTRAINT posts CHECK (id > 0),
  CONSTRAINT positive CHECK (account_id > 0)
);
CREATE INDEX posts_title_idx ON posts (title);
CREATE TABLE tags (
  id integer PRIMARY KEY,
  name varchar(50) NOT NULL,
  CONSTRAINT tags_name_key UNIQUE (name),
  CONSTRAINT positive CHECK (id > 0)
);
`
	tableNamesTiDB = "CREATE TABLE accounts (\n" +
		"  id INT PRIMARY KEY,\n" +
		"  email VARCHAR(100) NOT NULL,\n" +
		"  UNIQUE KEY posts (email),\n" +
		"  CONSTRAINT accounts_positive CHECK (id > 0)\n" +
		");\n" +
		"CREATE TABLE posts (\n" +
		"  id INT PRIMARY KEY,\n" +
		"  account_id INT NOT NULL,\n" +
		"  title VARCHAR(100),\n" +
		"  KEY accounts (account_id, title),\n" +
		"  KEY posts (title),\n" +
		"  CONSTRAINT posts_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id),\n" +
		"  CONSTRAINT posts_id_chk CHECK (id > 0),\n" +
		"  CONSTRAINT posts_positive CHECK (account_id > 0)\n" +
		");\n" +
		"CREATE TABLE tags (\n" +
		"  id INT PRIMARY KEY,\n" +
		"  name VARCHAR(50) NOT NULL,\n" +
		"  UNIQUE KEY tags (name),\n" +
		"  CONSTRAINT tags_positive CHECK (id > 0)\n" +
		");\n"
)

// TestImportNamesLikeTables imports each database alone and both together:
// every model compiles, nothing is left out, and the databases built from
// it hold every object of the originals under their names.
func TestImportNamesLikeTables(t *testing.T) {
	t.Parallel()
	orig := map[string]*dbtest.DB{}
	for d, ddl := range map[string]string{"postgres": tableNamesPostgres, "tidb": tableNamesTiDB} {
		orig[d] = dbtest.New(t, d)
		testproject.RunSQL(t, orig[d], []byte(ddl))
	}
	for _, tc := range []struct {
		name     string
		dialects []string
	}{
		{"postgres", []string{"postgres"}},
		{"tidb", []string{"tidb"}},
		{"both", []string{"postgres", "tidb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var urls []string
			for _, d := range tc.dialects {
				urls = append(urls, orig[d].URL)
			}
			r, _, out := importAndCompile(t, urls...)
			if left := slices.DeleteFunc(slices.Clone(r.Summary), func(s string) bool { return !strings.Contains(s, "left out") }); len(left) > 0 {
				t.Errorf("the import left objects out:\n%s", strings.Join(left, "\n"))
			}
			// A model read from one database holds it for the other dialect
			// too: every CHECK the original has, under names that apply.
			for _, d := range []string{"postgres", "tidb"} {
				if slices.Contains(tc.dialects, d) {
					continue
				}
				rebuilt := dbtest.New(t, d)
				testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
				_, s := inspectDB(t, all.Get(d), rebuilt)
				_, so := inspectDB(t, all.Get(tc.dialects[0]), orig[tc.dialects[0]])
				if got, want := kindCount(objects(s), "check"), kindCount(objects(so), "check"); got != want {
					t.Errorf("%s built from the model read from %s has %d CHECKs, the original %d: %q", d, tc.dialects[0], got, want, objects(s))
				}
			}
			for _, d := range tc.dialects {
				rebuilt := dbtest.New(t, d)
				testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
				objs := compareDatabases(t, all.Get(d), orig[d], rebuilt, nil)
				// The fixture's point: names like tables are in the original.
				want := map[string][]string{
					"postgres": {"posts check posts", "accounts check positive", "posts check positive", "tags check positive"},
					"tidb":     {"accounts index posts", "posts index accounts", "posts index posts", "tags index tags"},
				}[d]
				for _, w := range want {
					if !slices.Contains(objs, w) {
						t.Errorf("the original %s database has no %s: %q", d, w, objs)
					}
				}
			}
		})
	}
}

// kindCount counts the objects of a kind in a list of objects.
func kindCount(objs []string, kind string) int {
	n := 0
	for _, o := range objs {
		if strings.Contains(o, " "+kind+" ") {
			n++
		}
	}
	return n
}
