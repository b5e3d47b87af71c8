// Package dbtest gives each test its own fresh database on a real PostgreSQL
// or TiDB, dropped when the test ends, so that database tests run in parallel
// and leave nothing behind.
//
// The servers come from SCHEMAGEN_TEST_POSTGRES_URL and
// SCHEMAGEN_TEST_TIDB_URL when set (scripts/test.sh sets both, starting one
// server of each kind for the whole run), else from internal/devdb, which
// starts one embedded server of each kind per test binary, on first use.
// Without either, a test skips with a message naming scripts/setup.sh, except
// under CI=true, where it fails: CI must never pass without a database.
//
// A package whose tests use dbtest should stop the servers it started with
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
// Without it the kernel still kills them when the test binary exits (their
// temporary directories are then swept by the next start).
package dbtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/redact"
)

// The variables that name existing servers for the tests.
const (
	PostgresURLEnv = "SCHEMAGEN_TEST_POSTGRES_URL"
	TiDBURLEnv     = "SCHEMAGEN_TEST_TIDB_URL"
	// OnlyEnv names the one dialect a run tests (postgres or tidb): tests
	// of the other skip, in CI too. CI's PostgreSQL version steps set it,
	// as TiDB is the same server there as in the main step, which tests
	// it.
	OnlyEnv = "SCHEMAGEN_TEST_ONLY"
)

// EnvName returns the variable that names the test server of dialect.
func EnvName(dialect string) string {
	if dialect == devdb.TiDB {
		return TiDBURLEnv
	}
	return PostgresURLEnv
}

// DB is one test's own database. The embedded *sql.DB is connected to it.
type DB struct {
	*sql.DB
	// URL is the database's URL, for Atlas or schemagen's commands:
	// postgres://…/NAME?sslmode=disable or mysql://…/NAME.
	URL string
	// Name is the database's name.
	Name string
	// Dialect is devdb.Postgres or devdb.TiDB.
	Dialect string
	// ServerURL is the URL of the server's default database, for statements
	// that must not run inside the test's database.
	ServerURL string
}

// Postgres returns a fresh database on the test PostgreSQL, dropped when t
// ends.
func Postgres(t testing.TB) *DB {
	t.Helper()
	return New(t, devdb.Postgres)
}

// TiDB returns a fresh database on the test TiDB, which enforces CHECK
// constraints, dropped when t ends.
func TiDB(t testing.TB) *DB {
	t.Helper()
	return New(t, devdb.TiDB)
}

// New returns a fresh database on the test server of dialect (devdb.Postgres
// or devdb.TiDB), dropped when t ends.
func New(t testing.TB, dialect string) *DB {
	t.Helper()
	serverURL := ServerURL(t, dialect)
	name := databaseName(t.Name())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := devdb.CreateDatabase(ctx, serverURL, name)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	// Cleanups run last-in first-out: the pool closes before the drop.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := devdb.DropDatabase(ctx, serverURL, name); err != nil {
			t.Errorf("dbtest: %v", err)
		}
	})
	db, err := devdb.Open(url)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return &DB{DB: db, URL: url, Name: name, Dialect: dialect, ServerURL: serverURL}
}

// databaseName makes a database name from a test's name: readable in a
// server's listing, unique across parallel tests and test binaries.
func databaseName(testName string) string {
	var b strings.Builder
	b.WriteString("t_")
	underscore := true
	for _, r := range strings.ToLower(testName) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			underscore = false
		} else if !underscore {
			b.WriteByte('_')
			underscore = true
		}
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	name := strings.TrimRight(b.String(), "_")
	const max = 63 - 1 - 8 // PostgreSQL keeps 63 bytes
	if len(name) > max {
		name = name[:max]
	}
	return name + "_" + hex.EncodeToString(suffix)
}

// ServerURL returns the URL of the test server of dialect, starting it on
// first use in this test binary; it skips or fails t as the package doc says
// when there is none.
func ServerURL(t testing.TB, dialect string) string {
	t.Helper()
	s, ok := servers[dialect]
	if !ok {
		t.Fatalf("dbtest: unknown dialect %q", dialect)
	}
	if only := os.Getenv(OnlyEnv); only != "" && only != dialect {
		if servers[only] == nil {
			t.Fatalf("dbtest: %s=%q: want %s or %s", OnlyEnv, only, devdb.Postgres, devdb.TiDB)
		}
		t.Skipf("dbtest: %s=%s: this run tests %s alone", OnlyEnv, only, only)
	}
	s.once.Do(func() { s.url, s.server, s.err = connectOrStart(dialect) })
	if errors.Is(s.err, devdb.ErrNotFound) {
		Unavailable(t, s.err.Error())
	}
	if s.err != nil {
		t.Fatalf("dbtest: %v", s.err)
	}
	return s.url
}

// Unavailable skips t because a database server is missing, or fails it
// under CI=true, where every test must run.
func Unavailable(t testing.TB, msg string) {
	t.Helper()
	if InCI() {
		t.Fatalf("%s\n(CI=true: a test that needs a database fails without one)", msg)
	}
	t.Skip(msg)
}

// InCI reports whether CI=true (or 1) is set.
func InCI() bool {
	v := os.Getenv("CI")
	return strings.EqualFold(v, "true") || v == "1"
}

// Main runs the tests of a package, then stops the servers dbtest started
// and exits; call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if err := StopServers(); err != nil {
		fmt.Fprintf(os.Stderr, "dbtest: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// StopServers stops the servers dbtest started (not those named by the
// variables). A later test starts them again.
func StopServers() error {
	var errs []error
	for _, s := range servers {
		if s.server != nil {
			errs = append(errs, s.server.Stop())
		}
		*s = server{}
	}
	return errors.Join(errs...)
}

type server struct {
	once   sync.Once
	url    string
	server *devdb.Server // nil when the URL came from the environment
	err    error
}

var servers = map[string]*server{
	devdb.Postgres: {},
	devdb.TiDB:     {},
}

func connectOrStart(dialect string) (string, *devdb.Server, error) {
	ctx := context.Background()
	env := EnvName(dialect)
	if raw := os.Getenv(env); raw != "" {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		url, err := connectEnv(ctx, env, raw, dialect)
		return url, nil, err
	}
	s, err := devdb.Start(ctx, dialect, devdb.Options{Progress: os.Stderr})
	if errors.Is(err, devdb.ErrNotFound) {
		what := "PostgreSQL"
		if dialect == devdb.TiDB {
			what = "TiDB"
		}
		return "", nil, fmt.Errorf("no %s for this test: %s is not set, and %w.\n"+
			"Run %s once (installs PostgreSQL, builds tidb-server), or set %s",
			what, env, err, devdb.SetupCommand, env)
	}
	if err != nil {
		return "", nil, err
	}
	return s.URL(), s, nil
}

// connectEnv checks the server named by variable env, of value raw: a URL of
// dialect that connects (and, for TiDB, enforces CHECK constraints). Its
// errors name the variable and the host, never the password.
func connectEnv(ctx context.Context, env, raw, dialect string) (string, error) {
	shown := redact.URL(raw)
	got, err := devdb.DialectOf(raw)
	if err != nil {
		return "", fmt.Errorf("%s=%s: %s", env, shown, redact.Secrets(err.Error(), redact.Password(raw)))
	}
	if got != dialect {
		scheme := "postgres://"
		if dialect == devdb.TiDB {
			scheme = "mysql://"
		}
		return "", fmt.Errorf("%s=%s: want a %s URL", env, shown, scheme)
	}
	host := devdb.Host(raw)
	if err := devdb.Ping(ctx, raw); err != nil {
		return "", fmt.Errorf("%s=%s: cannot connect to %s: %s", env, shown, host,
			redact.Secrets(err.Error(), redact.Password(raw)))
	}
	if dialect == devdb.TiDB {
		if err := devdb.EnableTiDBChecks(ctx, raw); err != nil {
			return "", fmt.Errorf("%s=%s (host %s): %s", env, shown, host,
				redact.Secrets(err.Error(), redact.Password(raw)))
		}
	}
	return raw, nil
}

// TiDBChecksOff starts a TiDB of the test's own whose
// tidb_enable_check_constraint is OFF (it ignores CHECKs), stopped when the
// test ends, and returns its server URL. Skipped with -short; without the
// test TiDB it skips, or fails in CI, as ServerURL does.
func TiDBChecksOff(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a TiDB")
	}
	ServerURL(t, devdb.TiDB)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := devdb.Start(ctx, devdb.TiDB, devdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	db, err := devdb.Open(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "SET GLOBAL tidb_enable_check_constraint = OFF"); err != nil {
		t.Fatal(err)
	}
	return s.URL()
}

// ExecRetried runs q, again when TiDB says its information schema changed
// while the statement ran (8028): DDL of other tests on the shared server
// can cause it, and TiDB asks for the statement to be retried.
func (db *DB) ExecRetried(ctx context.Context, q string) error {
	var err error
	for range 3 {
		var me *mysql.MySQLError
		if _, err = db.ExecContext(ctx, q); !errors.As(err, &me) || me.Number != 8028 {
			return err
		}
	}
	return err
}
