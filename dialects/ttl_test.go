package dialects_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// ttlModel is a table with a ttl block ttl and primary key options pk,
// and a table with a foreign key fk (empty: none) to it.
func ttlModel(ttl, pk, fk string) string {
	return fmt.Sprintf(`table "sessions" {
  column "id" {
    type = bigint
  }
  column "score" {
    type = double
  }
  column "created_at" {
    type = datetime
  }
  column "note" {
    type = varchar(20)
    null = true
  }
  primary_key {
    columns = ["id"%s]
  }
  ttl {
%s
  }
}
table "uses" {
  column "id" {
    type = bigint
  }
  column "session_id" {
    type = bigint
  }
  primary_key {
    columns = ["id"]
  }
%s
}
`, pk, ttl, fk)
}

const ttlFK = `  foreign_key "uses_session_fk" {
    columns    = ["session_id"]
    ref_table  = "sessions"
    ref_columns = ["id"]
  }`

// TestTTLRefused: a ttl TiDB would refuse, or whose jobs could not read
// it, is refused at its line; so is a foreign key to a table with one.
func TestTTLRefused(t *testing.T) {
	ok := "    column = \"created_at\"\n    interval = 90\n    unit = \"day\""
	cases := []struct{ name, ttl, pk, fk, want string }{
		{"unknown column", strings.Replace(ok, `"created_at"`, `"created"`, 1), "", "", "does not have"},
		{"not a date", strings.Replace(ok, `"created_at"`, `"note"`, 1), "", "", "error 8148"},
		{"unknown unit", strings.Replace(ok, `"day"`, `"fortnight"`, 1), "", "", "unit is one of"},
		{"zero interval", strings.Replace(ok, "90", "0", 1), "", "", "from 1"},
		{"job interval", ok + "\n    job_interval = \"24\"", "", "", "job_interval is a duration"},
		{"job interval unit", ok + "\n    job_interval = \"1s\"", "", "", "job_interval is a duration"},
		{"double key", ok, `, "score"`, "", "error 8153"},
		{"referenced", ok, "", ttlFK, "error 8152"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := generate(t, "tidb", ttlModel(c.ttl, c.pk, c.fk))
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("want an error with %q, got %v", c.want, diags)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Start.Line < 15 || d.Subject.Start.Line > 22 && !strings.Contains(d.Detail, "8152") {
					t.Errorf("the error is not placed at the ttl: %v", d)
				}
			}
		})
	}
	if _, diags := generate(t, "tidb", ttlModel(ok+"\n    job_interval = \"1h30m\"", ", \"score\"]\n    clustered = false\n    #", "")); diags.HasErrors() {
		t.Errorf("a ttl over a non-clustered key with a double is TiDB's: %v", diags)
	}
}

// TestTTLOnServer shows on TiDB what the compiler's ttl rules stand for
// (8148, 8152, 8153 refused; 8149: a TTL's column cannot be dropped), and
// that the model's TTL, enabled, is the table's (its rows are in the
// future: no job deletes them). PostgreSQL creates the table without it.
func TestTTLOnServer(t *testing.T) {
	ctx := context.Background()
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			ddl, diags := generate(t, d, ttlModel("    column = \"created_at\"\n    interval = 1\n    unit = \"hour\"\n    job_interval = \"10m\"", "", ""))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			stmts, err := migrate.Stmts(ddl)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range stmts {
				if _, err := db.ExecContext(ctx, st.Text); err != nil {
					t.Fatalf("%v\n%s", err, ddl)
				}
			}
			if d != "tidb" {
				if strings.Contains(ddl, "TTL") {
					t.Errorf("PostgreSQL's DDL has a TTL:\n%s", ddl)
				}
				return
			}
			var name, create string
			if err := db.QueryRowContext(ctx, "SHOW CREATE TABLE sessions").Scan(&name, &create); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(create, "TTL=`created_at` + INTERVAL 1 HOUR */ /*T![ttl] TTL_ENABLE='ON' */ /*T![ttl] TTL_JOB_INTERVAL='10m' */") {
				t.Errorf("the model's TTL is not the table's:\n%s", create)
			}
			for _, c := range []struct{ ddl, want string }{
				{"CREATE TABLE t1 (id BIGINT PRIMARY KEY, n VARCHAR(10)) TTL = `n` + INTERVAL 1 DAY", "8148"},
				{"CREATE TABLE t2 (id DOUBLE PRIMARY KEY, at DATETIME) TTL = `at` + INTERVAL 1 DAY", "8153"},
				{"CREATE TABLE t3 (id BIGINT PRIMARY KEY, s BIGINT, FOREIGN KEY (s) REFERENCES sessions (id))", "8152"},
				{"ALTER TABLE sessions DROP COLUMN created_at", "8149"},
			} {
				if _, err := db.ExecContext(ctx, c.ddl); !refusedAs(err, c.want) {
					t.Errorf("%s: %v, want %s", c.ddl, err, c.want)
				}
			}
		})
	}
}
