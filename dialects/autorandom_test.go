package dialects_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

func randomModel(identity, pk string) string {
	return fmt.Sprintf(`table "ev" {
  column "id" {
    type = bigint
    identity {
%s
    }
  }
  column "k" {
    type = int
    null = true
  }
  column "id2" {
    type = int
    default = 0
  }
  check "ev_id_ck" {
    expr = "id > 0"
  }
  primary_key {
    columns = [%s]
  }
}
`, identity, pk)
}

// TestUnorderedIdentityRefused: an identity with ordered = false that TiDB
// would refuse (error 8216) is refused at its line, with TiDB's rule.
func TestUnorderedIdentityRefused(t *testing.T) {
	cases := []struct{ name, identity, pk, want string }{
		{"not the key's first column", "      ordered = false", `"id2", "id"`, "primary key's first column"},
		{"shard bits", "      ordered    = false\n      shard_bits = 16", `"id"`, "at most 15"},
		{"id space", "      ordered    = false\n      shard_bits = 5\n      range      = 32", `"id"`, "TiDB needs 28"},
		{"range below 32", "      ordered = false\n      range   = 31", `"id"`, "from 32 to 64"},
		{"start", "      ordered = false\n      start   = 10", `"id"`, "takes no start"},
		{"cache", "      ordered = false\n      cache   = 10", `"id"`, "takes no cache"},
		{"shard bits of an ordered identity", "      shard_bits = 6", `"id"`, "applies to an identity with ordered = false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := generate(t, "tidb", randomModel(c.identity, c.pk))
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("want an error with %q, got %v", c.want, diags)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Start.Line < 3 || d.Subject.Start.Line > 12 {
					t.Errorf("the error is not placed in the identity: %v", d)
				}
			}
		})
	}
}

// TestAutoRandom runs the DDL of an identity with ordered = false on both
// servers: TiDB's AUTO_RANDOM at the limits the compiler takes (15 shard
// bits, 28 bits left of the range), with a CHECK over the column (which
// TiDB refuses over AUTO_INCREMENT, not AUTO_RANDOM); one past either limit
// and an explicit id are refused by TiDB as the compiler and the docs say.
// PostgreSQL numbers the rows 1, 2, 3; TiDB gives distinct ids with the
// shard bits set, so not 1, 2, 3.
func TestAutoRandom(t *testing.T) {
	ctx := context.Background()
	limits := []string{
		"      ordered    = false\n      shard_bits = 15\n      range      = 43",
		"      ordered    = false\n      shard_bits = 4\n      range      = 32",
	}
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			for i, identity := range append(limits, "      ordered = false") {
				ddl, diags := generate(t, d, strings.ReplaceAll(randomModel(identity, `"id"`), "ev", fmt.Sprintf("ev%d", i)))
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				stmts, err := migrate.Stmts(ddl)
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range stmts {
					if _, err := conn.ExecContext(ctx, st.Text); err != nil {
						t.Fatalf("%v\n%s", err, ddl)
					}
				}
			}
			// One INSERT a transaction: TiDB draws the shard bits from the
			// transaction's start time, and leaves them 0 in one of 2^bits.
			for k := 1; k <= 3; k++ {
				if _, err := conn.ExecContext(ctx, fmt.Sprintf("INSERT INTO ev2 (k) VALUES (%d)", k)); err != nil {
					t.Fatal(err)
				}
			}
			rows, err := conn.QueryContext(ctx, "SELECT id FROM ev2 ORDER BY k")
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, id)
			}
			rows.Close()
			numbered := len(ids) == 3 && ids[0] == 1 && ids[1] == 2 && ids[2] == 3
			distinct := len(ids) == 3 && ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]
			switch {
			case !distinct:
				t.Fatalf("ids %v are not three distinct ids", ids)
			case d == "postgres" && !numbered:
				t.Errorf("PostgreSQL numbered the rows %v, want 1, 2, 3", ids)
			case d == "tidb" && (numbered || ids[0] < 1<<32 && ids[1] < 1<<32 && ids[2] < 1<<32):
				t.Errorf("TiDB numbered the rows %v, want ids with their shard bits set", ids)
			}
			_, err = conn.ExecContext(ctx, "INSERT INTO ev2 (id, k) VALUES (7, 4)")
			if d == "tidb" && !refusedAs(err, "8216") {
				t.Errorf("an explicit id: %v, want TiDB's 8216", err)
			}
			if d == "postgres" && err != nil {
				t.Errorf("an explicit id: %v", err)
			}
			if d != "tidb" {
				return
			}
			for _, ddl := range []string{
				"CREATE TABLE past1 (id BIGINT NOT NULL AUTO_RANDOM(16, 64), PRIMARY KEY (id))",
				"CREATE TABLE past2 (id BIGINT NOT NULL AUTO_RANDOM(5, 32), PRIMARY KEY (id))",
				"CREATE TABLE past3 (k INT NOT NULL, id BIGINT NOT NULL AUTO_RANDOM, PRIMARY KEY (k, id))",
			} {
				if _, err := conn.ExecContext(ctx, ddl); !refusedAs(err, "8216") {
					t.Errorf("%s: %v, want 8216", ddl, err)
				}
			}
		})
	}
}

func layoutModel(table, pk string) string {
	return fmt.Sprintf(`table "logs" {
%s
  column "id" {
    type = bigint
%s
  }
  primary_key {
    columns = ["id"]
%s
  }
}
`, table, "", pk)
}

// TestLayoutRefused: TiDB's layout options that TiDB would refuse (8200,
// 8216) or silently store otherwise (TestLayoutOnServer) are refused at
// their line.
func TestLayoutRefused(t *testing.T) {
	cases := []struct{ name, table, pk, want string }{
		{"shard bits on a clustered key", "  shard_row_id_bits = 4", "", "stored by its primary key"},
		{"shard bits on an explicitly clustered key", "  shard_row_id_bits = 4", "    clustered = true", "stored by its primary key"},
		{"16 shard bits", "  shard_row_id_bits = 16", "    clustered = false", "from 0 to 15"},
		{"more regions than shard bits", "  shard_row_id_bits = 3\n  pre_split_regions = 5", "    clustered = false", "silently lowers it"},
		{"regions without shard bits", "  pre_split_regions = 2", "    clustered = false", "silently lowers it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := generate(t, "tidb", layoutModel(c.table, c.pk))
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("want an error with %q, got %v", c.want, diags)
			}
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Start.Line < 2 || d.Subject.Start.Line > 3 {
					t.Errorf("the error is not placed at the options (lines 2 and 3): %v", d)
				}
			}
		})
	}
	random := strings.Replace(randomModel("      ordered = false", `"id"`), `columns = ["id"]`, "columns = [\"id\"]\n    clustered = false", 1)
	if _, diags := generate(t, "tidb", random); !diags.HasErrors() || !strings.Contains(diags.Error(), "clustered primary key") {
		t.Errorf("ordered = false on a non-clustered key: %v", diags)
	}
}

// TestLayoutOnServer shows on TiDB what the compiler's layout rules stand
// for: SHARD_ROW_ID_BITS on a clustered key is refused (8200), AUTO_RANDOM
// on a non-clustered one too (8216), and more than 15 shard bits or more
// pre-split regions than shard bits are silently lowered. The model's
// layout applies on both servers (PostgreSQL has none).
func TestLayoutOnServer(t *testing.T) {
	ctx := context.Background()
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			ddl, diags := generate(t, d, layoutModel("  shard_row_id_bits = 15\n  pre_split_regions = 15", "    clustered = false"))
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
				return
			}
			show := func(table string) string {
				var name, create string
				if err := db.QueryRowContext(ctx, "SHOW CREATE TABLE "+table).Scan(&name, &create); err != nil {
					t.Fatal(err)
				}
				return create
			}
			if s := show("logs"); !strings.Contains(s, "NONCLUSTERED") || !strings.Contains(s, "SHARD_ROW_ID_BITS=15 PRE_SPLIT_REGIONS=15") {
				t.Errorf("the model's layout is not the table's:\n%s", s)
			}
			for _, c := range []struct{ ddl, want string }{
				{"CREATE TABLE c1 (id BIGINT NOT NULL, PRIMARY KEY (id) CLUSTERED) SHARD_ROW_ID_BITS = 4", "8200"},
				{"CREATE TABLE c2 (id BIGINT NOT NULL AUTO_RANDOM, PRIMARY KEY (id) NONCLUSTERED)", "8216"},
			} {
				if _, err := db.ExecContext(ctx, c.ddl); !refusedAs(err, c.want) {
					t.Errorf("%s: %v, want %s", c.ddl, err, c.want)
				}
			}
			for _, c := range []struct{ ddl, table, want string }{
				{"CREATE TABLE s16 (id BIGINT NOT NULL, PRIMARY KEY (id) NONCLUSTERED) SHARD_ROW_ID_BITS = 16", "s16", "SHARD_ROW_ID_BITS=15 */"},
				{"CREATE TABLE s35 (id BIGINT NOT NULL, PRIMARY KEY (id) NONCLUSTERED) SHARD_ROW_ID_BITS = 3 PRE_SPLIT_REGIONS = 5", "s35", "SHARD_ROW_ID_BITS=3 PRE_SPLIT_REGIONS=3 */"},
				{"CREATE TABLE s02 (id BIGINT NOT NULL, PRIMARY KEY (id) NONCLUSTERED) PRE_SPLIT_REGIONS = 2", "s02", "COLLATE=utf8mb4_bin"},
			} {
				if _, err := db.ExecContext(ctx, c.ddl); err != nil {
					t.Fatal(err)
				}
				if s := show(c.table); !strings.HasSuffix(s, c.want) {
					t.Errorf("%s: TiDB stored\n%s\nwant it to end %q", c.ddl, s, c.want)
				}
			}
		})
	}
}
