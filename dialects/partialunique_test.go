package dialects_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// A partial unique index is lowered on TiDB to a unique key over VIRTUAL
// generated columns CASE WHEN <predicate> THEN <part> END, and behaves there
// as on PostgreSQL: rows outside the predicate (false or NULL) never
// conflict, rows inside conflict exactly when their keys are equal and
// without NULLs, strings compare as in their columns (exact_strings); one
// generated part beside plain ones (g_live_name_uq) is enough.
func TestTiDBPartialUniqueIndex(t *testing.T) {
	src := `
dialect "tidb" {
  exact_strings = true
}
table "o" {
  column "id" {
    type = int
  }
  primary_key {
    columns = ["id"]
  }
}
table "g" {
  column "id" {
    type = int
  }
  column "owner" {
    type = int
    null = true
  }
  column "name" {
    type = varchar(20)
    null = true
  }
  column "deleted_at" {
    type = timestamp
    null = true
  }
  column "status" {
    type = varchar(10)
    null = true
  }
  primary_key {
    columns = ["id"]
  }
  foreign_key "g_owner_fk" {
    columns     = ["owner"]
    ref_table   = "o"
    ref_columns = ["id"]
    on_delete   = "set_null"
  }
  index "g_live_uq" {
    unique  = true
    columns = ["owner", "name"]
    where   = "deleted_at IS NULL"
  }
  index "g_active_uq" {
    unique = true
    on {
      expr = "lower(name)"
    }
    on {
      column = "owner"
      tidb {
        column = "active_owner"
      }
    }
    where = "status = 'active' AND owner > 0"
  }
  index "g_live_name_uq" {
    unique = true
    on {
      column = "owner"
    }
    on {
      column = "name"
      tidb {
        column = "live_name"
      }
    }
    where = "deleted_at IS NULL"
  }
}
`
	opts := load.Options{Dialects: all.Names()}
	s, diags := load.Source(opts, "g.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ddl := map[string]string{}
	for _, d := range []string{"postgres", "tidb"} {
		o, diags := all.Get(d).Generate(s)
		if diags.HasErrors() {
			t.Fatal(d, diags)
		}
		ddl[d] = string(o.SQL)
	}
	for _, w := range []string{
		"`g_live_uq_0` INT AS (CASE WHEN `deleted_at` IS NULL THEN `owner` END) VIRTUAL",
		"`g_live_uq_1` VARCHAR(20) COLLATE utf8mb4_0900_bin AS (CASE WHEN `deleted_at` IS NULL THEN `name` END) VIRTUAL",
		"`g_active_uq_0` VARCHAR(20) COLLATE utf8mb4_0900_bin AS (CASE WHEN `status` = 'active' AND `owner` > 0 THEN LOWER(`name`) END) VIRTUAL",
		"`active_owner` INT AS (CASE WHEN `status` = 'active' AND `owner` > 0 THEN `owner` END) VIRTUAL",
		"UNIQUE INDEX `g_live_uq` (`g_live_uq_0`, `g_live_uq_1`)",
		"UNIQUE INDEX `g_active_uq` (`g_active_uq_0`, `active_owner`)",
		"`live_name` VARCHAR(20) COLLATE utf8mb4_0900_bin AS (CASE WHEN `deleted_at` IS NULL THEN `name` END) VIRTUAL",
		"UNIQUE INDEX `g_live_name_uq` (`owner`, `live_name`)",
	} {
		if !strings.Contains(ddl["tidb"], w) {
			t.Errorf("tidb: no %s in\n%s", w, ddl["tidb"])
		}
	}
	dbs := map[string]*dbtest.DB{"postgres": dbtest.Postgres(t), "tidb": dbtest.TiDB(t)}
	ctx := context.Background()
	for d, db := range dbs {
		stmts, err := migrate.Stmts(ddl[d])
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range stmts {
			if _, err := db.ExecContext(ctx, st.Text); err != nil {
				t.Fatalf("%s: %v\n%s", d, err, st.Text)
			}
		}
	}
	// Each statement, and whether a unique key rejects it (on both).
	steps := []struct {
		sql      string
		conflict bool
	}{
		{"INSERT INTO o (id) VALUES (1), (2), (3), (-2)", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (1, 1, 'a', NULL, 'active')", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (2, 1, 'a', NULL, 'x')", true},                   // live (1, a) again
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (3, 1, 'a', '2020-01-01 00:00:00', 'x')", false}, // outside: deleted
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (4, 1, 'a', '2020-01-01 00:00:00', 'x')", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (5, NULL, 'a', NULL, NULL)", false}, // NULL in the key
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (6, NULL, 'a', NULL, NULL)", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (7, 2, 'A', NULL, 'active')", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (8, 2, 'a', NULL, 'active')", true}, // lower(name), owner of 7
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (9, 3, 'a ', NULL, 'x')", false},    // trailing space: another key
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (10, 3, 'a', NULL, 'x')", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (11, 2, 'a', '2020-01-01 00:00:00', NULL)", false}, // predicate NULL
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (12, 2, 'A', '2020-01-02 00:00:00', NULL)", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (13, -2, 'b', '2020-01-02 00:00:00', 'active')", false}, // owner > 0 false
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (14, -2, 'b', '2020-01-03 00:00:00', 'active')", false},
		{"UPDATE g SET deleted_at = NULL WHERE id = 3", true},                                             // back inside: (1, a) again
		{"UPDATE g SET status = 'active' WHERE id = 12", true},                                            // deleted, but active: (a, 2) of 7
		{"UPDATE g SET deleted_at = NULL WHERE id = 12", true},                                            // live: (2, A) of 7
		{"UPDATE g SET owner = 2 WHERE id = 14", false},                                                   // inside g_active_uq as (b, 2), alone
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (15, 2, 'B', NULL, 'active')", true}, // (b, 2) of 14
		{"DELETE FROM g WHERE id = 1", false},
		{"UPDATE g SET deleted_at = NULL WHERE id = 3", false}, // (1, a) is free now
		// The foreign key's action changes key columns: owner 2 becomes NULL
		// (rows 7, 11, 12, 14), which collides with nothing.
		{"DELETE FROM o WHERE id = 2", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (16, 3, 'b', NULL, 'active')", false},
		{"INSERT INTO g (id, owner, name, deleted_at, status) VALUES (17, 3, 'B', NULL, 'active')", true}, // (b, 3) of 16
	}
	for _, st := range steps {
		outcome := map[string]string{}
		for d, db := range dbs {
			_, err := db.ExecContext(ctx, st.sql)
			outcome[d] = classifyUnique(t, d, err)
		}
		want := "ok"
		if st.conflict {
			want = "unique"
		}
		if outcome["postgres"] != outcome["tidb"] {
			t.Errorf("%s: postgres %s, tidb %s", st.sql, outcome["postgres"], outcome["tidb"])
		} else if outcome["postgres"] != want {
			t.Errorf("%s: %s on both, want %s", st.sql, outcome["postgres"], want)
		}
	}
}

func classifyUnique(t *testing.T, d string, err error) string {
	if err == nil {
		return "ok"
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return "unique"
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number == 1062 {
		return "unique"
	}
	t.Logf("%s: %v", d, err)
	return "error"
}
