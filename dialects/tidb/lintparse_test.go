package tidb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestParseStmtAsServer checks ParseStmt against a real TiDB: a statement
// TiDB's parser rejects is one the server rejects as a syntax error, at the
// same line, column and text near; one it accepts the server does not
// reject as a syntax error.
func TestParseStmtAsServer(t *testing.T) {
	db := dbtest.TiDB(t)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i, c := range []struct {
		stmt string
		bad  bool
		near string // where the error starts
	}{
		{"CREATE TABLE t1 (id bigint NOT NULL, name varchar(10) COLLATE utf8mb4_bin, PRIMARY KEY (id))", false, ""},
		{"CREATE TABLE t2 (id int PRIMARY KEY, n int, CONSTRAINT t2_n CHECK ((`n` > 0) and (`n` < 10)))", false, ""},
		{"ALTER TABLE t2 ADD INDEX t2_ix ((lower(`n`)))", false, ""},
		{"INSERT INTO t1 (id, name) VALUES (1, 'it''s'), (2, _utf8mb4'\\\\')", false, ""},
		{"CREATE TABLE t3 (id serial PRIMARY KEY, tags text[])", true, `[])`},
		{"CREATE TABLE t4 (\n  id int,\n  name text NOT NULL DEFAULT ''::text\n)", true, `::text`},
		{"CREATE INDEX CONCURRENTLY t1_name ON t1 (name)", true, `t1_name ON`}, // CONCURRENTLY reads as the index name
		{"COMMENT ON TABLE t1 IS 'x'", true, `COMMENT`},
		{"ALTER TABLE t1 ADD COLUMN x int GENERATED ALWAYS AS IDENTITY", true, `IDENTITY`},
		{"CREATE TABLE \"t5\" (id int)", true, `"t5"`},
		{"ALTER TABLE t1\n  ADD COLUMN y int,\n  ADD COLUMN z int NOT NULL DEFAULT 0,\n  ADD CONSTRAINT y_ck CHECK (y > 0) NOT VALID", true, `VALID`},
		{"UPDATE t1 SET name = 'x' WHERE", true, ""},
	} {
		got, bad := tidb.Dialect{}.ParseStmt(c.stmt)
		if bad != c.bad {
			t.Errorf("%d: %s\n  ParseStmt rejects it: %v (%+v), want %v", i, c.stmt, bad, got, c.bad)
		}
		_, err := conn.ExecContext(ctx, c.stmt)
		var want dialects.StmtError
		wantBad := false
		if err != nil {
			want, _ = tidb.Dialect{}.ReadError(err)
			wantBad = want.Syntax
		}
		if bad != wantBad {
			t.Errorf("%d: %s\n  ParseStmt rejects it: %v, the server: %v (%v)", i, c.stmt, bad, wantBad, err)
			continue
		}
		if !bad {
			continue
		}
		if got.Line != want.Line || got.Col != want.Col || got.Near != want.Near || got.Msg != want.Msg {
			t.Errorf("%d: %s\n  ParseStmt: %+v\n  server:    %+v", i, c.stmt, got, want)
		}
		if got.Rune < 1 || !strings.HasPrefix(string([]rune(c.stmt)[got.Rune-1:]), c.near) {
			t.Errorf("%d: %s\n  the error is at character %d, want it at %q", i, c.stmt, got.Rune, c.near)
		}
	}
}

// TestParseStmtNoPanic: the literal driver of TiDB's parser panics on a
// decimal of more than 81 digits; ParseStmt reports it instead.
func TestParseStmtNoPanic(t *testing.T) {
	e, bad := tidb.Dialect{}.ParseStmt("INSERT INTO t VALUES (" + strings.Repeat("9", 100) + ")")
	if !bad || e.Syntax || !strings.Contains(e.Msg, "TiDB's parser fails on it") {
		t.Errorf("got %v %+v", bad, e)
	}
}
