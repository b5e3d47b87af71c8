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
