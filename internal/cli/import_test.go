package cli_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

func TestImportRefusesToOverwrite(t *testing.T) {
	db := dbtest.Postgres(t)
	if _, err := db.Exec(`CREATE TABLE "t" ("id" integer PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "schema.hcl")
	os.WriteFile(out, []byte("# mine\n"), 0o644)
	var r run
	r = schemagen(t, t.TempDir(), "import", "--url", db.URL, "--out", out)
	if r.code != 2 || !strings.Contains(r.stderr, "--force") {
		t.Fatalf("import over an existing file: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "# mine\n" {
		t.Fatal("the existing file was changed")
	}
	r = schemagen(t, t.TempDir(), "import", "--url", db.URL, "--out", out, "--force")
	if r.code != 0 {
		t.Fatalf("import --force: exit %d\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), `table "t"`) {
		t.Fatalf("imported:\n%s", b)
	}
}

// TestImportUnreadable imports with a role that sees no tables: a clear
// error, and no file.
func TestImportUnreadable(t *testing.T) {
	db := dbtest.Postgres(t)
	user := "noread_" + strings.ReplaceAll(db.Name, "-", "_")
	if len(user) > 30 {
		user = user[:30]
	}
	for _, s := range []string{
		`CREATE SCHEMA "private"`,
		`CREATE TABLE "private"."secret" ("id" integer)`,
		fmt.Sprintf(`CREATE ROLE %q LOGIN PASSWORD 'pw-noread'`, user),
		`REVOKE ALL ON SCHEMA public FROM PUBLIC`,
		fmt.Sprintf(`ALTER ROLE %q SET search_path = private`, user),
	} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() { db.Exec(fmt.Sprintf(`DROP ROLE %q`, user)) })
	u, _ := url.Parse(db.URL)
	u.User = url.UserPassword(user, "pw-noread")
	out := filepath.Join(t.TempDir(), "schema.hcl")
	r := schemagen(t, t.TempDir(), "import", "--url", u.String(), "--out", out)
	if r.code == 0 || !strings.Contains(r.stderr, "no schema this role can read") || strings.Contains(r.stderr, "pw-noread") {
		t.Fatalf("import by a role that reads nothing: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a file was written")
	}
}

// TestImportBadInput: a database that is not reachable, an empty database
// and, with both dialects, one good URL beside a bad one: a clear error
// naming the URL without its password, and nothing written.
func TestImportBadInput(t *testing.T) {
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	if _, err := pg.Exec(`CREATE TABLE "t" ("id" integer PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	// A TiDB user without rights on the database's catalog.
	user := "noread_" + strings.ReplaceAll(ti.Name, "-", "_")
	if len(user) > 30 {
		user = user[:30]
	}
	if _, err := ti.Exec(fmt.Sprintf("CREATE USER '%s'@'%%' IDENTIFIED BY 's3cret-pw'", user)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ti.Exec(fmt.Sprintf("DROP USER '%s'@'%%'", user)) })
	noRights, _ := url.Parse(ti.URL)
	noRights.User = url.UserPassword(user, "s3cret-pw")
	cases := []struct {
		name string
		urls []string
		want string // in the error, beside the URL's host
	}{
		{"tidb user without rights", []string{noRights.String()}, noRights.Host},
		{"unreachable postgres", []string{"postgres://app:s3cret-pw@127.0.0.1:1/app?sslmode=disable"}, "127.0.0.1:1"},
		{"unreachable tidb", []string{"mysql://app:s3cret-pw@127.0.0.1:1/app"}, "127.0.0.1:1"},
		{"empty tidb", []string{ti.URL}, "no table to import"},
		{"good postgres, unreachable tidb", []string{pg.URL, "mysql://app:s3cret-pw@127.0.0.1:1/app"}, "127.0.0.1:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "schema.hcl")
			args := []string{"import", "--out", out}
			for _, u := range c.urls {
				args = append(args, "--url", u)
			}
			r := schemagen(t, t.TempDir(), args...)
			if r.code == 0 || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "s3cret-pw") {
				t.Errorf("exit %d, want an error with %q and no password:\n%s", r.code, c.want, r.stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a file was written")
			}
		})
	}
}
