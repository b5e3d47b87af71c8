package devdb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/redact"
)

// DialectOf returns the name of the dialect whose URL scheme rawURL has
// (postgres for postgres:// and postgresql://, tidb for mysql:// and
// tidb://, as each dialect declares).
func DialectOf(rawURL string) (string, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return "", err
	}
	d, err := dialectOfScheme(u)
	if err != nil {
		return "", err
	}
	return d.Name(), nil
}

func dialectOfScheme(u *url.URL) (dialects.Database, error) {
	if d := all.ForScheme(u.Scheme); d != nil {
		return d, nil
	}
	var want []string
	for _, d := range all.Dialects() {
		want = append(want, d.Schemes()[0]+"://")
	}
	list := want[0]
	if n := len(want); n > 1 {
		list = strings.Join(want[:n-1], ", ") + " or " + want[n-1]
	}
	return nil, fmt.Errorf("%s: unsupported scheme %q (want %s)", redact.URL(u.String()), u.Scheme, list)
}

// parseURL parses a database URL; its error never shows the password.
func parseURL(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// url.Error quotes the whole URL.
		return nil, fmt.Errorf("invalid database URL %s", redact.URL(rawURL))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("invalid database URL %s: no host", redact.URL(rawURL))
	}
	return u, nil
}

// Host returns the host:port a database URL points at ("" if it does not
// parse), for messages.
func Host(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Host
}

// DriverDSN turns a database URL into a database/sql driver name and data
// source name, as the dialect of its scheme opens it ("pgx" and the URL
// itself for PostgreSQL, "mysql" and a go-sql-driver DSN for TiDB).
func DriverDSN(rawURL string) (driver, dsn string, err error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return "", "", err
	}
	d, err := dialectOfScheme(u)
	if err != nil {
		return "", "", err
	}
	driver, dsn, err = d.DriverDSN(u)
	if err != nil {
		return "", "", fmt.Errorf("database URL %s: %s", redact.URL(rawURL), redact.Secrets(err.Error(), redact.Password(rawURL)))
	}
	return driver, dsn, nil
}

// Open opens a *sql.DB for a database URL (see DriverDSN). Like sql.Open, it
// does not connect.
func Open(rawURL string) (*sql.DB, error) {
	driver, dsn, err := DriverDSN(rawURL)
	if err != nil {
		return nil, err
	}
	return sql.Open(driver, dsn)
}

// Ping connects to the database at rawURL once.
func Ping(ctx context.Context, rawURL string) error {
	db, err := Open(rawURL)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.PingContext(ctx)
}

// Version returns SELECT version() of the server at rawURL: "PostgreSQL 15.18
// (Debian …) on x86_64-pc-linux-gnu, …" or "8.0.11-TiDB-v8.4.0-…".
func Version(ctx context.Context, rawURL string) (string, error) {
	db, err := Open(rawURL)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var v string
	err = db.QueryRowContext(ctx, "SELECT version()").Scan(&v)
	return v, err
}

// WithDatabase returns rawURL pointing at database name instead of the one
// it names, with its other parts kept.
func WithDatabase(rawURL, name string) (string, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	u.RawPath = ""
	return u.String(), nil
}

// dbName is what CreateDatabase accepts: a name that needs no quoting in
// either dialect and fits both (PostgreSQL keeps 63 bytes, MySQL 64).
var dbName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// CreateDatabase creates database name on the server at serverURL (a URL of
// any database there that the user may connect to) and returns the new
// database's URL. name must match ^[a-z_][a-z0-9_]{0,62}$.
func CreateDatabase(ctx context.Context, serverURL, name string) (string, error) {
	if !dbName.MatchString(name) {
		return "", fmt.Errorf("create database: invalid name %q (want [a-z_][a-z0-9_]*, at most 63 characters)", name)
	}
	dbURL, err := WithDatabase(serverURL, name)
	if err != nil {
		return "", err
	}
	db, err := Open(serverURL)
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create database %s on %s: %s", name, redact.URL(serverURL),
			redact.Secrets(err.Error(), redact.Password(serverURL)))
	}
	return dbURL, nil
}

// DropDatabase drops database name on the server at serverURL, if it exists,
// ending the sessions still connected to it on PostgreSQL.
func DropDatabase(ctx context.Context, serverURL, name string) error {
	if !dbName.MatchString(name) {
		return fmt.Errorf("drop database: invalid name %q", name)
	}
	u, err := parseURL(serverURL)
	if err != nil {
		return err
	}
	d, err := dialectOfScheme(u)
	if err != nil {
		return err
	}
	db, err := Open(serverURL)
	if err != nil {
		return err
	}
	defer db.Close()
	stmt := "DROP DATABASE IF EXISTS " + name
	if d.DevServer() == Postgres {
		stmt += " WITH (FORCE)" // PostgreSQL 13 and later
	}
	if _, err := db.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("drop database %s on %s: %s", name, redact.URL(serverURL),
			redact.Secrets(err.Error(), redact.Password(serverURL)))
	}
	return nil
}
