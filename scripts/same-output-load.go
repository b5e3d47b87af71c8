//go:build ignore

// same-output-load recreates one database on a server and runs a SQL script
// in it, statement by statement, for scripts/same-output.sh. It keeps going
// past statements the server refuses (TiDB refuses Sakila's triggers and
// routines) and prints each refusal, so the loaded state is the same on
// every run.
//
//	go run scripts/same-output-load.go SERVER_URL DBNAME [FILE.sql]
//
// SERVER_URL is postgres://... or mysql://... (a TiDB); without FILE the
// database is only recreated, empty; with a leading + it is kept as it is. The database URL is printed on stdout.
package main

import (
	"bufio"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: same-output-load SERVER_URL DBNAME [FILE.sql]")
		os.Exit(2)
	}
	server, name := os.Args[1], os.Args[2]
	keep := strings.HasPrefix(server, "+")
	server = strings.TrimPrefix(server, "+")
	u, err := url.Parse(server)
	must(err)
	var driver, dsn, dbURL string
	dbu := *u
	dbu.Path = "/" + name
	dbURL = dbu.String()
	switch u.Scheme {
	case "postgres", "postgresql":
		driver, dsn = "pgx", server
	case "mysql":
		driver = "mysql"
		pw, _ := u.User.Password()
		dsn = fmt.Sprintf("%s:%s@tcp(%s)/?multiStatements=false", u.User.Username(), pw, u.Host)
	default:
		must(fmt.Errorf("unknown scheme %q", u.Scheme))
	}
	admin, err := sql.Open(driver, dsn)
	must(err)
	q := `"` + name + `"`
	if driver == "mysql" {
		q = "`" + name + "`"
	}
	if !keep {
		_, err = admin.Exec("DROP DATABASE IF EXISTS " + q)
		must(err)
		_, err = admin.Exec("CREATE DATABASE " + q)
		must(err)
	}
	admin.Close()
	fmt.Println(dbURL)
	if len(os.Args) < 4 {
		return
	}
	if driver == "mysql" {
		dsn = strings.Replace(dsn, "/?", "/"+name+"?", 1)
	} else {
		dsn = dbURL
	}
	f, err := os.Open(os.Args[3])
	must(err)
	defer f.Close()
	stmts := split(f, driver == "mysql")
	refused := 0
	if driver == "pgx" {
		// psql splits PostgreSQL's scripts (dollar-quoted bodies) and goes
		// on past an error; the lines that create and connect to another
		// database are left out.
		cmd := exec.Command("psql", "-q", "-X", dbURL)
		cmd.Stdin = strings.NewReader(strings.Join(stmts, "\n"))
		var errs strings.Builder
		cmd.Stderr = &errs
		must(cmd.Run())
		for _, l := range strings.Split(strings.TrimSpace(errs.String()), "\n") {
			if strings.Contains(l, "ERROR") {
				refused++
				fmt.Fprintln(os.Stderr, "refused:", l)
			}
		}
	} else {
		db, err := sql.Open(driver, dsn)
		must(err)
		db.SetMaxOpenConns(1)
		defer db.Close()
		for _, s := range stmts {
			if _, err := db.Exec(s); err != nil {
				refused++
				fmt.Fprintf(os.Stderr, "refused: %.60q: %v\n", s, err)
			}
		}
	}
	fmt.Fprintf(os.Stderr, "%d statements, %d refused\n", len(stmts), refused)
}

var skip = regexp.MustCompile(`(?i)^\s*(\\c\b|(DROP|CREATE)\s+(DATABASE|SCHEMA)\b|USE\s)`)

// split cuts a script into statements: for MySQL at the current DELIMITER
// at a line's end; for PostgreSQL it only drops the lines skip matches.
func split(f *os.File, mysql bool) []string {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	delim := ";"
	var out []string
	var cur strings.Builder
	for sc.Scan() {
		line := sc.Text()
		if skip.MatchString(line) {
			continue
		}
		if !mysql {
			out = append(out, line)
			continue
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(strings.ToUpper(t), "DELIMITER ") {
			delim = strings.TrimSpace(t[len("DELIMITER "):])
			continue
		}
		if cur.Len() == 0 && (t == "" || strings.HasPrefix(t, "--")) {
			continue
		}
		cur.WriteString(line)
		cur.WriteString("\n")
		if strings.HasSuffix(t, delim) {
			s := strings.TrimSpace(cur.String())
			s = strings.TrimSpace(strings.TrimSuffix(s, delim))
			if s != "" {
				out = append(out, s)
			}
			cur.Reset()
		}
	}
	must(sc.Err())
	if s := strings.TrimSpace(cur.String()); s != "" && mysql {
		out = append(out, s)
	}
	return out
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "same-output-load:", err)
		os.Exit(2)
	}
}
