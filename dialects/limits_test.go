package dialects_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/hcl/v2"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// limitCase is one documented limit of one database: the model of size n,
// and the hand-written DDL of size n that shows the server's own limit.
type limitCase struct {
	name    string
	dialect string
	limit   int
	model   func(n int) string
	ddl     func(n int) string
	// refused is the server's error for limit+1: a TiDB error number or a
	// PostgreSQL SQLSTATE and message part.
	refused string
	// want is in schemagen's error for limit+1, with the database's name.
	want string
}

func hclCols(n int, typ string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  column \"c%d\" {\n    type = %s\n  }\n", i, typ)
	}
	return b.String()
}

func colList(n int) string {
	s := make([]string, n)
	for i := range n {
		s[i] = fmt.Sprintf("c%d", i)
	}
	return strings.Join(s, ", ")
}

func quotedList(n int) string {
	s := make([]string, n)
	for i := range n {
		s[i] = fmt.Sprintf("%q", fmt.Sprintf("c%d", i))
	}
	return strings.Join(s, ", ")
}

func sqlCols(n int, typ string) string {
	s := make([]string, n)
	for i := range n {
		s[i] = fmt.Sprintf("c%d %s", i, typ)
	}
	return strings.Join(s, ", ")
}

func oneColumn(typ, comment string) string {
	c := ""
	if comment != "" {
		c = fmt.Sprintf("    comment = %q\n", comment)
	}
	return fmt.Sprintf("table \"t\" {\n  column \"c\" {\n    type = %s\n%s  }\n}\n", typ, c)
}

func limitCases() []limitCase {
	product := map[string]string{"tidb": "TiDB", "postgres": "PostgreSQL"}
	typeCase := func(d, name, typ string, limit int, sqlType, refused, want string) limitCase {
		return limitCase{name: name, dialect: d, limit: limit,
			model:   func(n int) string { return oneColumn(fmt.Sprintf(typ, n), "") },
			ddl:     func(n int) string { return fmt.Sprintf("CREATE TABLE t (c "+sqlType+")", n) },
			refused: refused, want: want}
	}
	keyParts := func(d string, limit int, refused string) []limitCase {
		return []limitCase{
			{name: "index key parts", dialect: d, limit: limit,
				model: func(n int) string {
					return fmt.Sprintf("table \"t\" {\n%s  index \"t_ix\" {\n    columns = [%s]\n  }\n}\n", hclCols(n, "int"), quotedList(n))
				},
				ddl: func(n int) string {
					return fmt.Sprintf("CREATE TABLE t (%s); CREATE INDEX t_ix ON t (%s)", sqlCols(n, "INT"), colList(n))
				},
				refused: refused, want: fmt.Sprintf("index \"t_ix\" has %d key parts; %s allows at most %d in one key", limit+1, product[d], limit)},
			{name: "foreign key parts", dialect: d, limit: limit,
				model: func(n int) string {
					return fmt.Sprintf("table \"p\" {\n%s  primary_key {\n    columns = [%s]\n  }\n}\ntable \"t\" {\n%s  foreign_key \"t_fk\" {\n    columns     = [%s]\n    ref_table   = \"p\"\n    ref_columns = [%s]\n  }\n}\n",
						hclCols(n, "int"), quotedList(n), hclCols(n, "int"), quotedList(n), quotedList(n))
				},
				ddl: func(n int) string {
					// The referenced key has at most the limit's columns.
					k := min(n, limit)
					return fmt.Sprintf("CREATE TABLE p (%s, UNIQUE (%s)); CREATE TABLE t (%s, FOREIGN KEY (%s) REFERENCES p (%s))", sqlCols(n, "INT"), colList(k), sqlCols(n, "INT"), colList(n), colList(n))
				},
				refused: refused, want: fmt.Sprintf("foreign key \"t_fk\" has %d key parts; %s allows at most %d in one key", limit+1, product[d], limit)},
		}
	}
	cases := []limitCase{
		typeCase("tidb", "varchar length", "varchar(%d)", 16383, "VARCHAR(%d)", "1074", "The length of varchar is at most 16383 characters (TiDB's limit, error 1074)"),
		typeCase("tidb", "char length", "char(%d)", 255, "CHAR(%d)", "1074", "The length of char is at most 255 (TiDB's limit, error 1074)"),
		typeCase("tidb", "decimal precision", "decimal(%d,0)", 65, "DECIMAL(%d,0)", "1426", "between 1 and 65 (TiDB's limit, error 1426)"),
		typeCase("tidb", "decimal scale", "decimal(65,%d)", 30, "DECIMAL(65,%d)", "1425", "or 30 (TiDB's limit, error 1425)"),
		typeCase("postgres", "varchar length", "varchar(%d)", 10485760, "VARCHAR(%d)", "22023 cannot exceed 10485760", "The length of varchar is at most 10485760 characters (PostgreSQL's limit)"),
		typeCase("postgres", "char length", "char(%d)", 10485760, "CHAR(%d)", "22023 cannot exceed 10485760", "The length of char is at most 10485760 (PostgreSQL's limit)"),
		typeCase("postgres", "numeric precision", "decimal(%d,0)", 1000, "NUMERIC(%d,0)", "22023 must be between 1 and 1000", "between 1 and 1000 (PostgreSQL's limit)"),
		// A bigint AUTO_INCREMENT is never given 2^63-1: the INSERT fails.
		{name: "bigint identity", dialect: "tidb", limit: 9223372036854775806,
			model: func(n int) string {
				return fmt.Sprintf("table \"t\" {\n  column \"id\" {\n    type = bigint\n    identity {\n      start = %d\n    }\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n", n)
			},
			ddl: func(n int) string {
				return fmt.Sprintf("CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, c INT) AUTO_INCREMENT = %d AUTO_ID_CACHE = 1; INSERT INTO t (c) VALUES (1)", n)
			},
			refused: "1105", want: "TiDB gives a bigint identity at most 9223372036854775806 (TiDB's limit, error 1105)"},
		// Comments count bytes on TiDB: two-byte characters reach the limit
		// at half the characters.
		{name: "column comment", dialect: "tidb", limit: 512,
			model:   func(n int) string { return oneColumn("int", strings.Repeat("é", n)) },
			ddl:     func(n int) string { return fmt.Sprintf("CREATE TABLE t (c INT COMMENT '%s')", strings.Repeat("é", n)) },
			refused: "1629", want: "1026 bytes; TiDB allows at most 1024 (TiDB's limit, error 1629)"},
		{name: "index comment", dialect: "tidb", limit: 512,
			model: func(n int) string {
				return fmt.Sprintf("table \"t\" {\n  column \"c\" {\n    type = int\n  }\n  index \"t_c_idx\" {\n    columns = [\"c\"]\n    comment = %q\n  }\n}\n", strings.Repeat("é", n))
			},
			ddl: func(n int) string {
				return fmt.Sprintf("CREATE TABLE t (c INT, INDEX t_c_idx (c) COMMENT '%s')", strings.Repeat("é", n))
			},
			refused: "1688", want: "The comment of index \"t_c_idx\" is 1026 bytes; TiDB allows at most 1024 (TiDB's limit, error 1688)"},
		{name: "table comment", dialect: "tidb", limit: 2048,
			model: func(n int) string {
				return fmt.Sprintf("table \"t\" {\n  comment = %q\n  column \"c\" {\n    type = int\n  }\n}\n", strings.Repeat("x", n))
			},
			ddl: func(n int) string {
				return fmt.Sprintf("CREATE TABLE t (c INT) COMMENT = '%s'", strings.Repeat("x", n))
			},
			refused: "1628", want: "2049 bytes; TiDB allows at most 2048 (TiDB's limit, error 1628)"},
		{name: "columns", dialect: "tidb", limit: 1017,
			model:   func(n int) string { return fmt.Sprintf("table \"t\" {\n%s}\n", hclCols(n, "int")) },
			ddl:     func(n int) string { return fmt.Sprintf("CREATE TABLE t (%s)", sqlCols(n, "INT")) },
			refused: "1117", want: "1018 columns on TiDB (with the generated columns schemagen adds there); TiDB allows at most 1017 (TiDB's limit, error 1117)"},
		// A partial unique index adds a generated column on TiDB, which
		// counts: 1016 columns and one such index are 1017.
		{name: "columns with generated ones", dialect: "tidb", limit: 1016,
			model: func(n int) string {
				return fmt.Sprintf("table \"t\" {\n%s  index \"t_uq\" {\n    unique  = true\n    columns = [\"c0\"]\n    where   = \"c1 > 0\"\n  }\n}\n", hclCols(n, "int"))
			},
			ddl: func(n int) string {
				return fmt.Sprintf("CREATE TABLE t (%s, g INT AS (CASE WHEN c1 > 0 THEN c0 END) VIRTUAL, UNIQUE (g))", sqlCols(n, "INT"))
			},
			refused: "1117", want: "TiDB allows at most 1017"},
		{name: "indexes", dialect: "tidb", limit: 64,
			model: func(n int) string {
				var b strings.Builder
				b.WriteString("table \"t\" {\n  column \"id\" {\n    type = varchar(5)\n  }\n  column \"c\" {\n    type = int\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n")
				for i := range n - 1 {
					fmt.Fprintf(&b, "  index \"t_ix%d\" {\n    columns = [\"c\"]\n  }\n", i)
				}
				b.WriteString("}\n")
				return b.String()
			},
			ddl: func(n int) string {
				var b strings.Builder
				b.WriteString("CREATE TABLE t (id VARCHAR(5) PRIMARY KEY, c INT")
				for i := range n - 1 {
					fmt.Fprintf(&b, ", INDEX t_ix%d (c)", i)
				}
				return b.String() + ")"
			},
			refused: "1069", want: "65 indexes on TiDB"},
		{name: "identifier", dialect: "tidb", limit: 64,
			model: func(n int) string {
				return fmt.Sprintf("table %q {\n  column \"c\" {\n    type = int\n  }\n}\n", strings.Repeat("t", n))
			},
			ddl:     func(n int) string { return fmt.Sprintf("CREATE TABLE %s (c INT)", strings.Repeat("t", n)) },
			refused: "1059", want: "TiDB allows at most 64"},
		{name: "columns", dialect: "postgres", limit: 1600,
			model:   func(n int) string { return fmt.Sprintf("table \"t\" {\n%s}\n", hclCols(n, "int")) },
			ddl:     func(n int) string { return fmt.Sprintf("CREATE TABLE t (%s)", sqlCols(n, "INT")) },
			refused: "54011 at most 1600 columns", want: "PostgreSQL allows at most 1600 (PostgreSQL's limit)"},
		// PostgreSQL cuts a longer name to 63 bytes: two tables whose names
		// differ in the 64th byte are one name.
		{name: "identifier", dialect: "postgres", limit: 63,
			model: func(n int) string {
				return fmt.Sprintf("table %q {\n  column \"c\" {\n    type = int\n  }\n}\n", strings.Repeat("t", n))
			},
			ddl: func(n int) string {
				return fmt.Sprintf("CREATE TABLE %s (c INT); CREATE TABLE %sx (c INT)", strings.Repeat("t", n), strings.Repeat("t", n-1))
			},
			refused: "42P07 already exists", want: "PostgreSQL allows at most 63"},
	}
	cases = append(cases, keyParts("tidb", 16, "1070")...)
	cases = append(cases, keyParts("postgres", 32, "54011 more than 32")...)
	return cases
}

// TestLimits: every documented limit of each database that a model can
// reach, on the real server: the limit is accepted there and schemagen
// generates it, which the server then takes too; limit + 1 is refused by the
// server, and schemagen refuses it first, at the line, naming the limit
// and the database.
func TestLimits(t *testing.T) {
	ctx := context.Background()
	for _, c := range limitCases() {
		t.Run(c.dialect+" "+c.name, func(t *testing.T) {
			db := dbtest.New(t, c.dialect)
			exec := func(script string) error {
				for _, q := range strings.Split(script, "; ") {
					if err := db.ExecRetried(ctx, q); err != nil {
						return err
					}
				}
				return nil
			}
			reset := func() {
				tables := []string{"t", "p"}
				if c.name == "identifier" {
					tables = append(tables, strings.Repeat("t", c.limit), strings.Repeat("t", c.limit)+"x", strings.Repeat("t", c.limit+1))
				}
				for _, tb := range tables {
					if _, err := db.ExecContext(ctx, "DROP TABLE IF EXISTS "+tb); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := exec(c.ddl(c.limit)); err != nil {
				t.Fatalf("the server refuses the limit %d: %v", c.limit, err)
			}
			reset()
			err := exec(c.ddl(c.limit + 1))
			if err == nil || !refusedAs(err, c.refused) {
				t.Fatalf("the server at limit+1: %v, want %s", err, c.refused)
			}
			reset()

			ddl, diags := generate(t, c.dialect, c.model(c.limit))
			if diags.HasErrors() {
				t.Fatalf("schemagen refuses the limit: %s", diags)
			}
			stmts, err := migrate.Stmts(ddl)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range stmts {
				if err := db.ExecRetried(ctx, st.Text); err != nil {
					t.Fatalf("generated DDL at the limit: %v", err)
				}
			}
			_, diags = generate(t, c.dialect, c.model(c.limit+1))
			var found *hcl.Diagnostic
			for _, d := range diags {
				if d.Severity == hcl.DiagError && strings.Contains(d.Detail, c.want) {
					found = d
				}
			}
			if found == nil {
				t.Fatalf("schemagen at limit+1: %s, want an error with %q", diags, c.want)
			}
			if found.Subject == nil || found.Subject.Filename != "limits.hcl" || found.Subject.Start.Line == 0 {
				t.Errorf("the error is not positioned: %v", found.Subject)
			}
		})
	}
}

func generate(t *testing.T, d, src string) (string, hcl.Diagnostics) {
	t.Helper()
	s, diags := load.Source(load.Options{Dialects: all.Names()}, "limits.hcl", []byte(src))
	if diags.HasErrors() {
		return "", diags
	}
	o, gd := all.Get(d).Generate(s)
	diags = append(diags, gd...)
	if o == nil {
		return "", diags
	}
	return string(o.SQL), diags
}

// refusedAs reports whether err is the server's error want: a TiDB error
// number, or a SQLSTATE followed by a part of PostgreSQL's message.
func refusedAs(err error, want string) bool {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return fmt.Sprint(me.Number) == want
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		code, msg, _ := strings.Cut(want, " ")
		return pe.Code == code && strings.Contains(pe.Message, msg)
	}
	return false
}
