package dbtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/internal/devdb"
)

func TestMain(m *testing.M) { Main(m) }

// TestPostgresDDL runs DDL on the real PostgreSQL the helper hands out.
func TestPostgresDDL(t *testing.T) {
	t.Parallel()
	db := Postgres(t)
	var version string
	if err := db.QueryRow("SELECT version()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	t.Logf("server: %s", version)
	if !strings.HasPrefix(version, "PostgreSQL ") {
		t.Fatalf("version %q is not PostgreSQL's", version)
	}
	for _, stmt := range []string{
		`CREATE TABLE users (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, email text NOT NULL UNIQUE, age int CHECK (age >= 0))`,
		`CREATE INDEX users_age ON users (age)`,
		`ALTER TABLE users ADD COLUMN name varchar(100) NOT NULL DEFAULT ''`,
		`INSERT INTO users (email, age) VALUES ('a@example.com', 30)`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	// The server normalises what it was given; later issues diff on that.
	var def string
	if err := db.QueryRow(`SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'users'::regclass AND contype = 'c'`).Scan(&def); err != nil {
		t.Fatal(err)
	}
	t.Logf("normalised CHECK: %s", def)
	if def != "CHECK ((age >= 0))" {
		t.Errorf("CHECK normalised to %q", def)
	}
	if _, err := db.Exec(`INSERT INTO users (email, age) VALUES ('b@example.com', -1)`); err == nil {
		t.Error("PostgreSQL accepted a row that violates the CHECK")
	}
}

// TestPostgresCaseMapping: the test databases meet docs/semantics.md's
// UTF-8 LC_CTYPE, under which PostgreSQL's upper and lower change every
// letter as TiDB's do (found by the plan oracle, evolution 96969290955: a
// generated upper(c1) held 'é' on PostgreSQL and 'É' on TiDB).
func TestPostgresCaseMapping(t *testing.T) {
	t.Parallel()
	for name, open := range map[string]func(testing.TB) *DB{"postgres": Postgres, "tidb": TiDB} {
		t.Run(name, func(t *testing.T) {
			db := open(t)
			var up, low string
			if err := db.QueryRow("SELECT upper('éß'), lower('ÉİA')").Scan(&up, &low); err != nil {
				t.Fatalf("%s: %v", db.Dialect, err)
			}
			if up != "Éß" || low != "éia" {
				t.Errorf("%s: upper('éß') = %q, lower('ÉİA') = %q; want \"Éß\", \"éia\"", db.Dialect, up, low)
			}
		})
	}
}

// TestTiDBDDL runs DDL on the real TiDB the helper hands out.
func TestTiDBDDL(t *testing.T) {
	t.Parallel()
	db := TiDB(t)
	var version string
	if err := db.QueryRow("SELECT version()").Scan(&version); err != nil {
		t.Fatal(err)
	}
	t.Logf("server: %s", version)
	if !strings.Contains(version, "TiDB") {
		t.Fatalf("version %q does not name TiDB", version)
	}
	for _, stmt := range []string{
		"CREATE TABLE users (id bigint AUTO_INCREMENT PRIMARY KEY, email varchar(255) NOT NULL, UNIQUE KEY users_email (email))",
		"CREATE INDEX users_id_email ON users (id, email)",
		"ALTER TABLE users ADD COLUMN name varchar(100) NOT NULL DEFAULT ''",
		"INSERT INTO users (email) VALUES ('a@example.com')",
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	var table, create string
	if err := db.QueryRow("SHOW CREATE TABLE users").Scan(&table, &create); err != nil {
		t.Fatal(err)
	}
	t.Logf("SHOW CREATE TABLE:\n%s", create)
	if !strings.Contains(create, "`name` varchar(100) NOT NULL DEFAULT ''") {
		t.Errorf("added column missing from:\n%s", create)
	}
}

// TestTiDBEnforcesCheck proves that the TiDB the helper hands out enforces
// CHECK constraints, which TiDB only parses unless told otherwise.
func TestTiDBEnforcesCheck(t *testing.T) {
	t.Parallel()
	db := TiDB(t)
	if _, err := db.Exec("CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL, CONSTRAINT balance_positive CHECK (balance >= 0))"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO accounts VALUES (1, 10)"); err != nil {
		t.Fatalf("valid row refused: %v", err)
	}
	_, err := db.Exec("INSERT INTO accounts VALUES (2, -5)")
	var myErr *mysql.MySQLError
	if !errors.As(err, &myErr) || myErr.Number != 3819 {
		t.Fatalf("INSERT violating the CHECK: got %v, want error 3819 (check constraint violated)", err)
	}
	t.Logf("TiDB refused the row: %v", err)
	if !strings.Contains(myErr.Message, "balance_positive") {
		t.Errorf("error does not name the constraint: %v", err)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM accounts").Scan(&n); err != nil || n != 1 {
		t.Errorf("rows = %d, %v; want 1", n, err)
	}
}

// TestIsolation: parallel tests get distinct databases, so that the same
// table name never collides, and each database is gone after its test.
func TestIsolation(t *testing.T) {
	for _, dialect := range []string{devdb.Postgres, devdb.TiDB} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			names := make(chan string, 3)
			t.Run("group", func(t *testing.T) {
				for i := range 3 {
					t.Run(fmt.Sprint(i), func(t *testing.T) {
						t.Parallel()
						db := New(t, dialect)
						names <- db.Name
						if _, err := db.Exec("CREATE TABLE same_name (id int PRIMARY KEY)"); err != nil {
							t.Fatal(err)
						}
						if _, err := db.Exec(fmt.Sprintf("INSERT INTO same_name VALUES (%d)", i)); err != nil {
							t.Fatal(err)
						}
					})
				}
			})
			close(names)
			// The group has ended: its databases must have been dropped.
			serverURL := ServerURL(t, dialect)
			seen := map[string]bool{}
			for name := range names {
				if seen[name] {
					t.Errorf("database %s handed out twice", name)
				}
				seen[name] = true
				if exists(t, dialect, serverURL, name) {
					t.Errorf("database %s left behind", name)
				}
			}
			if len(seen) != 3 {
				t.Errorf("%d databases, want 3", len(seen))
			}
		})
	}
}

func exists(t *testing.T, dialect, serverURL, name string) bool {
	t.Helper()
	db, err := devdb.Open(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?"
	if dialect == devdb.Postgres {
		q = "SELECT COUNT(*) FROM pg_database WHERE datname = $1"
	}
	var n int
	if err := db.QueryRow(q, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// TestBadURL: a wrong SCHEMAGEN_TEST_POSTGRES_URL is reported with the
// variable's name and the host, never the password.
func TestBadURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env, dialect, raw, host string
	}{
		{PostgresURLEnv, devdb.Postgres, "postgres://bob:s3cret@nonexistent.invalid:5432/x", "nonexistent.invalid:5432"},
		// A free loopback port: refused at once.
		{PostgresURLEnv, devdb.Postgres, "postgres://bob:s3cret@127.0.0.1:1/x?sslmode=disable", "127.0.0.1:1"},
		{PostgresURLEnv, devdb.Postgres, "mysql://bob:s3cret@db.example:4000/", "db.example:4000"},
		{PostgresURLEnv, devdb.Postgres, "postgres://bob:s3cret@db.example:port/x", "db.example:port"},
		{TiDBURLEnv, devdb.TiDB, "mysql://bob:s3cret@127.0.0.1:1/", "127.0.0.1:1"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := connectEnv(ctx, tc.env, tc.raw, tc.dialect)
		cancel()
		if err == nil {
			t.Errorf("%s: no error", tc.raw)
			continue
		}
		msg := err.Error()
		t.Logf("%s", msg)
		if !strings.Contains(msg, tc.env) || !strings.Contains(msg, tc.host) {
			t.Errorf("error does not name %s and %s: %s", tc.env, tc.host, msg)
		}
		if strings.Contains(msg, "s3cret") {
			t.Errorf("error shows the password: %s", msg)
		}
	}
}

func TestDatabaseName(t *testing.T) {
	long := strings.Repeat("TestSomethingRatherLong/", 10)
	for _, in := range []string{"TestX", "TestIsolation/tidb/group/0", long, "Test_ünïcode-名前"} {
		name := databaseName(in)
		if len(name) > 63 || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" || !strings.HasPrefix(name, "t_") {
			t.Errorf("databaseName(%q) = %q", in, name)
		}
	}
	if a, b := databaseName("TestX"), databaseName("TestX"); a == b {
		t.Errorf("two databases named %s", a)
	}
}

// childEnv marks a run of this test binary by TestHelperRules.
const childEnv = "DBTEST_HELPER_CHILD"

// TestHelperChild is run by TestHelperRules in a child test binary, with the
// environment under test; on its own it does nothing.
func TestHelperChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestHelperRules")
	}
	db := Postgres(t)
	t.Logf("got database %s", db.Name)
}

// TestHelperRules runs the helper in child test binaries: a bad URL fails
// the test naming the variable and the host; no server skips it naming the
// set-up command, except under CI=true, where it fails; a run of the other
// dialect alone (OnlyEnv) skips it.
func TestHelperRules(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		env     []string
		wantErr bool
		want    []string
	}{
		{"bad URL", []string{PostgresURLEnv + "=postgres://bob:s3cret@nonexistent.invalid:5432/x"}, true,
			[]string{"--- FAIL", PostgresURLEnv, "nonexistent.invalid:5432", "bob:xxxxx@"}},
		{"no server", []string{PostgresURLEnv + "=", devdb.PostgresBinDirEnv + "=/nonexistent", "CI="}, false,
			[]string{"--- SKIP", PostgresURLEnv + " is not set", devdb.SetupCommand}},
		{"no server in CI", []string{PostgresURLEnv + "=", devdb.PostgresBinDirEnv + "=/nonexistent", "CI=true"}, true,
			[]string{"--- FAIL", devdb.SetupCommand, "CI=true"}},
		// CI's PostgreSQL version steps test PostgreSQL alone: the other
		// dialect's tests skip there, under CI=true too, without a server.
		{"the other dialect only, in CI", []string{OnlyEnv + "=tidb", PostgresURLEnv + "=", devdb.PostgresBinDirEnv + "=/nonexistent", "CI=true"}, false,
			[]string{"--- SKIP", OnlyEnv + "=tidb", "tests tidb alone"}},
		{"a dialect only that is none", []string{OnlyEnv + "=mysql", "CI=true"}, true,
			[]string{"--- FAIL", OnlyEnv + `="mysql"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperChild$", "-test.v")
			cmd.Env = append(append(os.Environ(), childEnv+"=1"), tc.env...)
			out, err := cmd.CombinedOutput()
			t.Logf("child output:\n%s", out)
			if (err != nil) != tc.wantErr {
				t.Errorf("child error = %v, want error: %v", err, tc.wantErr)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("child output lacks %q", w)
				}
			}
			if strings.Contains(string(out), "s3cret") {
				t.Error("child output shows the password")
			}
		})
	}
}
