package tidb

import (
	"net"
	"net/url"
	"strings"

	gomysql "github.com/go-sql-driver/mysql"
)

// Schemes implements dialects.Database.
func (Dialect) Schemes() []string { return []string{"mysql", "tidb"} }

// DriverDSN implements dialects.Database: go-sql-driver's "mysql" with a
// DSN user:password@tcp(host:port)/db?params. Query parameters are passed
// on; a URL without a port means port 3306.
func (Dialect) DriverDSN(u *url.URL) (driver, dsn string, err error) {
	cfg := gomysql.NewConfig()
	cfg.Net = "tcp"
	cfg.Addr = u.Host
	if u.Port() == "" {
		cfg.Addr = net.JoinHostPort(u.Hostname(), "3306")
	}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	cfg.DBName = strings.TrimPrefix(u.Path, "/")
	dsn = cfg.FormatDSN()
	if u.RawQuery != "" {
		// Let the driver read the parameters it knows (parseTime, tls, …);
		// it sends the others as session variables.
		sep := "?"
		if strings.Contains(dsn, "?") {
			sep = "&"
		}
		parsed, err := gomysql.ParseDSN(dsn + sep + u.RawQuery)
		if err != nil {
			return "", "", err
		}
		dsn = parsed.FormatDSN()
	}
	return "mysql", dsn, nil
}

// DevServer implements dialects.Database.
func (Dialect) DevServer() string { return "tidb" }

// TransactionalDDL implements dialects.Database: TiDB commits each DDL
// statement on its own.
func (Dialect) TransactionalDDL() bool { return false }

// CheckTarget implements dialects.Database: the revisions table lives in
// the connected database, which the URL must name.
func (Dialect) CheckTarget(u *url.URL) string {
	if strings.Trim(u.Path, "/") == "" {
		return "names no database: use mysql://USER@HOST:PORT/DATABASE"
	}
	return ""
}
