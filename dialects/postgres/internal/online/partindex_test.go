package online_test

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/postgres/internal/online"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/proof"
)

// partSetup is a hash-partitioned table of four parts holding rows, as the
// plan oracle's p0 (evolution seed 61616184882), with a column to index.
const partSetup = `
CREATE TABLE p0 (id0 bigint PRIMARY KEY, c varchar(20), n integer) PARTITION BY HASH (id0);
CREATE TABLE p0_p0 PARTITION OF p0 FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE p0_p1 PARTITION OF p0 FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE p0_p2 PARTITION OF p0 FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE p0_p3 PARTITION OF p0 FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO p0 SELECT g, 'c' || g, g % 7 FROM generate_series(1, 2000) g;
`

// TestPartitionedIndexOnline: an index added online to a partitioned table
// holding rows is created ON ONLY the table in the transactional file,
// each part's built CONCURRENTLY and attached in the online file (issue
// 30: the plan wrote a plain CREATE INDEX, a SHARE lock of every part for
// the whole build, PG101). The statements apply in their files' order,
// the index ends valid with every part's attached, the comparison of
// migrate diff, drift and the plan oracle finds nothing between the
// database and one where the index was created plainly, whose parts'
// indexes PostgreSQL named as the plan names them, and the statements'
// hazards hold what the server takes (pg_locks, waiting writes and reads).
func TestPartitionedIndexOnline(t *testing.T) {
	cases := []struct {
		name, setup, model string
		current            string   // run on the migrated database only
		codes              []string // the codes of the whole plan
		onlyBuilt          bool     // the plan builds CONCURRENTLY and attaches
	}{
		{name: "index", model: `CREATE INDEX p0_ix0 ON p0 (c)`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "unique index", model: `CREATE UNIQUE INDEX p0_uq ON p0 (id0, c)`, codes: []string{"PG102", "PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "unique constraint", model: `ALTER TABLE p0 ADD CONSTRAINT p0_uc UNIQUE (c, id0)`, codes: []string{"PG102", "PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "expression partial index", model: `CREATE INDEX p0_lower ON p0 (lower(c), (n + 1)) WHERE n > 2`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "long names", setup: `ALTER TABLE p0_p1 RENAME TO p0_part_with_a_name_long_enough_to_overflow_with_its_index;`,
			model: `CREATE INDEX p0_index_with_a_name_long_enough_too ON p0 (c)`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "names taken", setup: `CREATE TABLE p0_p0_c_idx (x int); CREATE SEQUENCE p0_p1_c_idx;`,
			model: `CREATE INDEX p0_ix0 ON p0 (c); CREATE INDEX p0_ix1 ON p0 (c)`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "multibyte names clipped", setup: `ALTER TABLE p0_p2 RENAME TO "p0_déjà_vu_part_with_a_name_long_enough_to_overflow_ééé";`,
			model: `CREATE INDEX p0_ix0 ON p0 (c, n, id0, lower(c), (n * 2))`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "part added", current: `DROP TABLE p0_p3;`, model: `CREATE INDEX p0_ix0 ON p0 (c)`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "index with a comment", model: `CREATE INDEX p0_ix0 ON p0 (c); COMMENT ON INDEX p0_ix0 IS 'by c'`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "index renamed", current: `CREATE INDEX p0_ix0 ON p0 (c); ALTER TABLE p0 ADD CONSTRAINT p0_uc UNIQUE (c, id0)`,
			model: `CREATE INDEX p0_ix9 ON p0 (c); ALTER TABLE p0 ADD CONSTRAINT p0_uc9 UNIQUE (c, id0)`},
		{name: "no parts", setup: `DROP TABLE p0_p0, p0_p1, p0_p2, p0_p3;`, model: `CREATE INDEX p0_ix0 ON p0 (c)`, codes: []string{"PG114"}},
		{name: "drop index", setup: `CREATE INDEX p0_ix0 ON p0 (c);`, model: `DROP INDEX p0_ix0`, codes: []string{"PG110"}},
		{name: "index changed", setup: `CREATE INDEX p0_ix0 ON p0 (c);`, model: `DROP INDEX p0_ix0; CREATE INDEX p0_ix0 ON p0 (c, n)`, codes: []string{"PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "unique constraint changed", setup: `ALTER TABLE p0 ADD CONSTRAINT p0_uc UNIQUE (c, id0);`,
			model: `ALTER TABLE p0 DROP CONSTRAINT p0_uc; ALTER TABLE p0 ADD CONSTRAINT p0_uc UNIQUE (n, c, id0)`, codes: []string{"PG102", "PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "include and nulls not distinct", model: `CREATE UNIQUE INDEX p0_uq ON p0 (c, id0) INCLUDE (n) NULLS NOT DISTINCT`, codes: []string{"PG102", "PG109", "PG110", "PG114"}, onlyBuilt: true},
		{name: "partitioned part", setup: `DROP TABLE p0_p3; CREATE TABLE p0_p3 PARTITION OF p0 FOR VALUES WITH (MODULUS 4, REMAINDER 3) PARTITION BY RANGE (id0);
CREATE TABLE p0_p3_a PARTITION OF p0_p3 FOR VALUES FROM (MINVALUE) TO (MAXVALUE); INSERT INTO p0 SELECT g, 'c' || g, g % 7 FROM generate_series(2001, 3000) g ON CONFLICT DO NOTHING;`,
			model: `CREATE INDEX p0_ix0 ON p0 (c)`, codes: []string{"PG115"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, want := dbtest.Postgres(t), dbtest.Postgres(t)
			for _, d := range []*dbtest.DB{db, want} {
				if _, err := d.Exec(partSetup + c.setup); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := want.Exec(c.model); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(c.current); err != nil {
				t.Fatal(err)
			}
			drv, err := postgres.Dialect{}.OpenAtlas(db.DB)
			if err != nil {
				t.Fatal(err)
			}
			changes, err := drv.SchemaDiff(inspect(t, db.DB), inspect(t, want.DB), schema.DiffNormalized())
			if err != nil {
				t.Fatal(err)
			}
			stmts, err := online.PlanStmts(ctx, drv, changes, true, migration.PlanOptions)
			if err != nil {
				t.Fatal(err)
			}
			var all []hazard.Hazard
			var text, commented []string
			for _, s := range stmts {
				all = append(all, s.Hazards...)
				text = append(text, s.Cmd)
				commented = append(commented, "-- "+s.FileComment()+"\n"+s.Cmd)
			}
			plan := strings.Join(text, ";\n")
			t.Logf("plan:\n%s", strings.Join(commented, ";\n"))
			if strings.Contains(plan, `"public".`) {
				t.Errorf("the plan names the schema, which migrate diff's files do not:\n%s", plan)
			}
			if got := hazard.Codes(all); !slices.Equal(got, c.codes) {
				t.Errorf("codes %v, want %v; plan:\n%s", got, c.codes, plan)
			}
			if built := strings.Contains(plan, "ATTACH PARTITION") && strings.Contains(plan, " ON ONLY ") || strings.Contains(plan, "ALTER TABLE ONLY"); built != c.onlyBuilt {
				t.Errorf("built ON ONLY and attached: %v, want %v; plan:\n%s", built, c.onlyBuilt, plan)
			}
			applyObserved(t, db, stmts)
			if c.onlyBuilt {
				var invalid, unattached int
				if err := db.QueryRow(`SELECT count(*) FILTER (WHERE NOT indisvalid), (SELECT count(*) FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhrelid WHERE i.inhparent = 'p0'::regclass
					AND NOT EXISTS (SELECT FROM pg_inherits x JOIN pg_index pi ON pi.indexrelid = x.inhrelid WHERE pi.indrelid = p.oid AND x.inhparent IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'p0'::regclass AND NOT indisprimary)))
					FROM pg_index WHERE indrelid = 'p0'::regclass`).Scan(&invalid, &unattached); err != nil {
					t.Fatal(err)
				}
				if invalid > 0 || unattached > 0 {
					t.Errorf("after the plan: %d invalid indexes of p0, %d parts without an attached index; plan:\n%s", invalid, unattached, plan)
				}
			}
			// The parts' indexes have the names PostgreSQL gave those of
			// the database where the index was created plainly.
			if got, want := indexDefs(t, db.DB), indexDefs(t, want.DB); !slices.Equal(got, want) {
				t.Errorf("indexes:\n%s\nwant (PostgreSQL's names):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			diffs, err := proof.Differences(ctx, drv, proof.Side{Schema: inspect(t, db.DB)}, proof.Side{Schema: inspect(t, want.DB)})
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) > 0 {
				t.Errorf("the database differs from the model's after the plan: %v; plan:\n%s", diffs, plan)
			}
		})
	}
}

// applyObserved runs stmts as migrate diff's two files run them: the
// transactional ones in one transaction, then the online file (the
// statements run outside a transaction, then the later ones). Each
// statement that claims a lock is first run alone in a transaction rolled
// back, while other sessions read pg_locks and try a write to and a read of
// the table the hazard names (through the partitioned table for p0).
func applyObserved(t *testing.T, db *dbtest.DB, stmts []hazard.Stmt) {
	t.Helper()
	var first, noTx, later []hazard.Stmt
	for _, s := range stmts {
		switch {
		case s.NoTx:
			noTx = append(noTx, s)
		case s.Later:
			later = append(later, s)
		default:
			first = append(first, s)
		}
	}
	for i, s := range first {
		observeClaims(t, db, first[:i], s)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range first {
		if _, err := tx.Exec(s.Cmd); err != nil {
			tx.Rollback()
			t.Fatalf("%s: %v", s.Cmd, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	// Between the files, migrate status says the index waits for its
	// parts' (Unfinished).
	if len(noTx) > 0 && slices.ContainsFunc(first, func(s hazard.Stmt) bool { return strings.Contains(s.Cmd, " ONLY ") }) {
		left, err := online.Unfinished(context.Background(), db.DB)
		if err != nil {
			t.Fatal(err)
		}
		if len(left) == 0 || !strings.Contains(left[0], "of partitioned table p0 is invalid: the index of a part is not attached to it yet") {
			t.Errorf("between the files, Unfinished says %q", left)
		}
	}
	for _, s := range append(noTx, later...) {
		if !s.NoTx {
			observeClaims(t, db, nil, s)
		}
		if _, err := db.Exec(s.Cmd); err != nil {
			t.Fatalf("%s: %v", s.Cmd, err)
		}
	}
}

// observeClaims checks the lock hazards of s (not SET statements) against
// the server: run after the statements before it of its transaction, the
// session holds the lock on the table named, or on the index the statement
// attaches, and a write and a read of the table wait as the hazards of the
// transaction so far say.
func observeClaims(t *testing.T, db *dbtest.DB, before []hazard.Stmt, s hazard.Stmt) {
	t.Helper()
	if strings.HasPrefix(s.Cmd, "SET ") || strings.HasPrefix(s.Cmd, "RESET ") {
		return
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var pid int
	if err := tx.QueryRow(`SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	most := map[string]hazard.Blocks{}
	for _, b := range append(slices.Clone(before), s) {
		if _, err := tx.Exec(b.Cmd); err != nil {
			t.Fatalf("%s: %v", b.Cmd, err)
		}
		for _, h := range b.Hazards {
			if h.Lock != "" {
				most[h.Table] = max(most[h.Table], h.Blocks)
			}
		}
	}
	for _, h := range s.Hazards {
		if h.Lock == "" {
			continue
		}
		modes := heldModes(t, db.DB, pid, h.Table)
		if strings.Contains(s.Cmd, "ATTACH PARTITION") {
			// The part's index attached, named last.
			w := strings.Fields(s.Cmd)
			modes = heldModes(t, db.DB, pid, w[len(w)-1])
		}
		if !slices.Contains(modes, pgLockModes[h.Lock]) {
			t.Errorf("%s: %s claims %s of %s; the session holds %v", s.Cmd, h.Code, h.Lock, h.Table, modes)
		}
		if strings.Contains(h.Text, "also of its") {
			// DROP INDEX of a partitioned table's index: every part too.
			rows, err := db.Query(`SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = $1::regclass`, h.Table)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for rows.Next() {
				var part string
				if err := rows.Scan(&part); err != nil {
					t.Fatal(err)
				}
				parts = append(parts, part)
			}
			rows.Close()
			for _, part := range parts {
				if m := heldModes(t, db.DB, pid, part); !slices.Contains(m, pgLockModes[h.Lock]) {
					t.Errorf("%s: %s claims %s of every part; the session holds %v of %s", s.Cmd, h.Code, h.Lock, m, part)
				}
			}
			if len(parts) == 0 {
				t.Errorf("%s: %s claims locks of parts; %s has none", s.Cmd, h.Code, h.Table)
			}
		}
		b := most[h.Table]
		if w := writeBlocked(t, db.DB, h.Table); w != (b >= hazard.BlocksWrites) {
			t.Errorf("%s: %s claims %q (the transaction so far %q); a write to %s waited: %v", s.Cmd, h.Code, h.Blocks, b, h.Table, w)
		}
		if r := blocked(t, db.DB, "SELECT count(*) FROM "+h.Table); r != (b == hazard.BlocksAll) {
			t.Errorf("%s: %s claims %q (the transaction so far %q); a read of %s waited: %v", s.Cmd, h.Code, h.Blocks, b, h.Table, r)
		}
	}
}

// writeBlocked tells whether an update of a row of table (a part, or the
// partitioned table) waits for a lock.
func writeBlocked(t *testing.T, db *sql.DB, table string) bool {
	t.Helper()
	return blocked(t, db, "UPDATE "+table+" SET n = n WHERE id0 = (SELECT min(id0) FROM "+table+")")
}

// indexDefs are the definitions of the indexes of the database's tables
// and parts, sorted.
func indexDefs(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}
