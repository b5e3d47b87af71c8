// Package corpora finds the public corpora (schemas and migration histories
// written by other teams, in ../shared/corpora) for tests, and splits their
// scripts into statements as the mysql client and psql would run them.
package corpora

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
)

// Dir returns the folder of the public corpora (../shared/corpora from the
// checkout's root, found upward of the working directory). Under CI a
// missing folder fails the test; otherwise it skips, saying why.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for ; ; dir = filepath.Dir(dir) {
		c := filepath.Join(dir, "..", "shared", "corpora")
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("the public corpora (../shared/corpora) are not found upward of the checkout")
	}
	t.Skip("the public corpora (../shared/corpora) are not found upward of the checkout")
	return ""
}

var (
	delimiter  = regexp.MustCompile(`(?im)^DELIMITER\s+(\S+)\s*$`)
	routine    = regexp.MustCompile(`(?is)^\s*CREATE\s+(DEFINER\s*=\s*\S+\s+)?(TRIGGER|PROCEDURE|FUNCTION)\s+` + "`?" + `(\w+)`)
	ownDB      = regexp.MustCompile(`(?is)^\s*(DROP|CREATE)\s+(DATABASE|SCHEMA)\b|^\s*USE\s`)
	psqlMeta   = regexp.MustCompile(`(?m)^\\.*$`)
	pgOwnDB    = regexp.MustCompile(`(?is)^\s*(DROP|CREATE)\s+DATABASE\b`)
	dumpHeader = regexp.MustCompile(`(?is)^\s*ALTER\s+(PROCEDURAL\s+LANGUAGE|\S+\s+\S+\s+OWNER\s+TO)\b|^\s*(ALTER\s+\S+\s+\S+\s+)?OWNER\s+TO\b|^\s*(REVOKE|GRANT|COMMENT\s+ON\s+SCHEMA)\b`)
)

// MySQL splits a MySQL-dialect script as the mysql client would: DELIMITER
// lines change the statement delimiter, and the script's own database
// statements (DROP/CREATE DATABASE, USE) are left out. With routines
// false, triggers and routines (which TiDB refuses) are left out too and
// listed in skipped as "kind name". Names qualified by the script's
// database own ("" for none) lose the qualifier.
func MySQL(src []byte, own string, routines bool) (stmts, skipped []string) {
	if own != "" {
		src = regexp.MustCompile(`\b`+own+`\.`).ReplaceAll(src, nil)
	}
	add := func(text, delim string) {
		for text != "" {
			i := statementEnd(text, delim)
			stmt := stripComments(text[:i])
			text = text[min(len(text), i+len(delim)):]
			switch {
			case stmt == "":
			case ownDB.MatchString(stmt):
			case !routines && routine.MatchString(stmt):
				m := routine.FindStringSubmatch(stmt)
				skipped = append(skipped, strings.ToLower(m[2])+" "+m[3])
			default:
				stmts = append(stmts, stmt)
			}
		}
	}
	// DELIMITER is a line of its own: the text between two is split by
	// the delimiter the first set.
	text, delim := string(src), ";"
	for {
		m := delimiter.FindStringSubmatchIndex(text)
		if m == nil {
			add(text, delim)
			break
		}
		add(text[:m[0]], delim)
		delim, text = text[m[2]:m[3]], text[m[1]:]
	}
	return stmts, skipped
}

// statementEnd finds the end of the statement at the start of text: the
// first delim outside quotes and comments.
func statementEnd(text, delim string) int {
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case strings.HasPrefix(text[i:], "--") || c == '#':
			if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
				i += j
			} else {
				return len(text)
			}
		case strings.HasPrefix(text[i:], "/*") && !strings.HasPrefix(text[i:], "/*!"):
			if j := strings.Index(text[i:], "*/"); j >= 0 {
				i += j + 1
			} else {
				return len(text)
			}
		case strings.HasPrefix(text[i:], delim):
			return i
		}
	}
	return len(text)
}

var lineComment = regexp.MustCompile(`(?m)^\s*(--|#).*$`)

func stripComments(stmt string) string {
	stmt = lineComment.ReplaceAllString(stmt, "")
	for {
		i := strings.Index(stmt, "/*")
		if i < 0 || strings.HasPrefix(stmt[i:], "/*!") {
			break
		}
		j := strings.Index(stmt[i:], "*/")
		if j < 0 {
			break
		}
		stmt = stmt[:i] + stmt[i+j+2:]
	}
	return strings.TrimSpace(stmt)
}

// Postgres splits a PostgreSQL script as psql would run it: psql's
// meta-commands (\c) and the script's own database statements are left
// out, and so are ownership and privilege statements, which name roles of
// another server.
func Postgres(src []byte) ([]string, error) {
	list, err := migrate.Stmts(psqlMeta.ReplaceAllString(string(src), ""))
	if err != nil {
		return nil, err
	}
	var stmts []string
	for _, s := range list {
		text := stripComments(s.Text)
		if text == "" || pgOwnDB.MatchString(text) || dumpHeader.MatchString(text) {
			continue
		}
		stmts = append(stmts, text)
	}
	return stmts, nil
}

// The script families the corpora's files are written in, as their folders
// and file names tag them: PostgreSQL's (psql) and MySQL's (the mysql
// client). Which database runs a family's files is the caller's to say.
const (
	FamilyPostgres = "postgres"
	FamilyMySQL    = "mysql"
)

// Families are the script families, PostgreSQL's first.
var Families = []string{FamilyPostgres, FamilyMySQL}

// Split splits a script of family as that family's client runs it
// (Postgres, MySQL with routines kept and no database of its own).
func Split(family string, src []byte) ([]string, error) {
	switch family {
	case FamilyPostgres:
		return Postgres(src)
	case FamilyMySQL:
		stmts, _ := MySQL(src, "", true)
		return stmts, nil
	}
	return nil, fmt.Errorf("corpora: no script family %q (%s)", family, strings.Join(Families, ", "))
}

// Run runs stmts in order on one connection of db, outside a transaction;
// the error names the statement that failed.
func Run(ctx context.Context, db *sql.DB, stmts []string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%w\n%.600s", err, s)
		}
	}
	return nil
}
