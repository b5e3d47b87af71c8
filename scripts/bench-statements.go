//go:build ignore

// bench-statements counts the statements a client sent to a TiDB server, for
// scripts/bench-migrate.sh: a measure of the work each tree asks for that
// does not depend on the machine's load, beside the times that do. It reads
// TiDB's statement summary, which is server-wide, so it is only meaningful
// on a server no one else uses (the bench starts its own).
//
//	go run scripts/bench-statements.go reset SERVER_URL   # empties the summary
//	go run scripts/bench-statements.go count SERVER_URL   # prints "STATEMENTS DDL" since the reset
//	go run scripts/bench-statements.go exec SERVER_URL SQL...   # runs each statement (the Atlas CLI's dev database)
//
// SERVER_URL is mysql://user[:password]@host:port/ (a TiDB).
package main

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"

	_ "github.com/go-sql-driver/mysql"
)

func main() {
	if len(os.Args) < 3 || (os.Args[1] != "reset" && os.Args[1] != "count" && os.Args[1] != "exec") || (os.Args[1] != "exec") != (len(os.Args) == 3) {
		fmt.Fprintln(os.Stderr, "usage: bench-statements reset|count SERVER_URL, or exec SERVER_URL SQL...")
		os.Exit(2)
	}
	u, err := url.Parse(os.Args[2])
	must(err)
	if u.Scheme != "mysql" {
		must(fmt.Errorf("bench-statements: %s is not a mysql:// URL", u.Redacted()))
	}
	pw, _ := u.User.Password()
	db, err := sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/", u.User.Username(), pw, u.Host))
	must(err)
	defer db.Close()
	db.SetMaxOpenConns(1)
	if os.Args[1] == "exec" {
		for _, q := range os.Args[3:] {
			_, err := db.Exec(q)
			must(err)
		}
		return
	}
	if os.Args[1] == "reset" {
		// Switching the summary off and on empties it and its history.
		for _, s := range []string{"SET GLOBAL tidb_enable_stmt_summary = OFF", "SET GLOBAL tidb_enable_stmt_summary = ON"} {
			_, err := db.Exec(s)
			must(err)
		}
		return
	}
	// The history holds the current window and those closed since the
	// reset (a window can close during a measurement). This tool's own
	// statements are left out.
	var n, ddl int64
	must(db.QueryRow(`SELECT COALESCE(SUM(EXEC_COUNT), 0),
	COALESCE(SUM(IF(STMT_TYPE REGEXP '^(Create|Drop|Alter|Rename|Truncate)', EXEC_COUNT, 0)), 0)
FROM information_schema.statements_summary_history
WHERE COALESCE(DIGEST_TEXT, '') NOT LIKE '%tidb_enable_stmt_summary%'
  AND COALESCE(DIGEST_TEXT, '') NOT LIKE '%statements_summary%'`).Scan(&n, &ddl))
	fmt.Println(n, ddl)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
