package online_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"testing"
	"time"

	"ariga.io/atlas/sql/schema"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/postgres/internal/online"
	"github.com/schemagen/schemagen/internal/dbtest"
)

const hazardSetup = `
CREATE TABLE spaces (id bigint PRIMARY KEY);
CREATE TABLE docs (id bigint PRIMARY KEY, space_id bigint NOT NULL, title varchar(200), slug text, n integer);
INSERT INTO spaces SELECT g FROM generate_series(1, 10) g;
INSERT INTO docs SELECT g, 1 + g % 10, 'title ' || g, 'slug-' || g, g FROM generate_series(1, 2000) g;
ANALYZE docs;
`

// pgLockModes are pg_locks' names of the locks hazards name.
var pgLockModes = map[string]string{
	"ACCESS EXCLUSIVE":       "AccessExclusiveLock",
	"SHARE":                  "ShareLock",
	"SHARE ROW EXCLUSIVE":    "ShareRowExclusiveLock",
	"SHARE UPDATE EXCLUSIVE": "ShareUpdateExclusiveLock",
}

// observation is what other sessions see while a statement holds its locks.
type observation struct {
	modes                     []string // locks the statement's session holds on docs
	refModes                  []string // ... and on spaces
	writeBlocked, readBlocked bool
	seqScans                  int64 // heap scans of docs by the statement
	rewrote                   bool  // docs got a new relfilenode
}

// observe runs stmt on docs in a transaction of its own session and, before
// rolling it back, reads pg_locks from a second session and tries a write
// and a read from a third, each giving up after 200 ms. It returns the
// hazards the dialect claims for the statement, from the changes it made
// as Atlas inspects them.
func observe(t *testing.T, db *dbtest.DB, setup, stmt string) (observation, []hazard.Hazard, error) {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Exec(hazardSetup + setup); err != nil {
		t.Fatal(err)
	}
	before := inspect(t, db.DB)
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
	var o observation
	var pid int
	var node0, node1 uint32
	var scans0, scans1 int64
	if err := tx.QueryRow(`SELECT pg_backend_pid(), relfilenode, (SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'docs') FROM pg_class WHERE oid = 'docs'::regclass`).Scan(&pid, &node0, &scans0); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(stmt); err != nil {
		return o, nil, err
	}
	if err := tx.QueryRow(`SELECT relfilenode, (SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'docs') FROM pg_class WHERE oid = 'docs'::regclass`).Scan(&node1, &scans1); err != nil {
		t.Fatal(err)
	}
	o.rewrote, o.seqScans = node0 != node1, scans1-scans0
	o.modes = heldModes(t, db.DB, pid, "docs")
	o.refModes = heldModes(t, db.DB, pid, "spaces")
	o.writeBlocked = blocked(t, db.DB, "INSERT INTO docs (id, space_id, title, slug, n) VALUES (100000, 1, 't', 'unique-slug', 1)")
	o.readBlocked = blocked(t, db.DB, "SELECT count(*) FROM docs")
	after := inspectOn(t, tx)
	changes, err := openDriver(t, db.DB).SchemaDiff(before, after, schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	return o, online.Hazards(changes, online.StmtForm([]string{stmt}, 0)), nil
}

func heldModes(t *testing.T, db *sql.DB, pid int, table string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT mode FROM pg_locks WHERE pid = $1 AND relation = $2::regclass AND granted ORDER BY mode`, pid, table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// blocked tells whether q waits for a lock for more than 200 ms.
func blocked(t *testing.T, db *sql.DB, q string) bool {
	t.Helper()
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
	if _, err := tx.Exec("SET LOCAL lock_timeout = '200ms'"); err != nil {
		t.Fatal(err)
	}
	_, err = tx.Exec(q)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "55P03" {
		return true
	}
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return false
}

func openDriver(t *testing.T, conn schema.ExecQuerier) interface {
	SchemaDiff(from, to *schema.Schema, opts ...schema.DiffOption) ([]schema.Change, error)
	InspectSchema(ctx context.Context, name string, opts *schema.InspectOptions) (*schema.Schema, error)
} {
	t.Helper()
	drv, err := postgres.Dialect{}.OpenAtlas(conn)
	if err != nil {
		t.Fatal(err)
	}
	return drv
}

func inspect(t *testing.T, db *sql.DB) *schema.Schema { return inspectOn(t, db) }

func inspectOn(t *testing.T, conn schema.ExecQuerier) *schema.Schema {
	t.Helper()
	s, err := openDriver(t, conn).InspectSchema(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHazardsObserved checks every lock, scan and rewrite the PostgreSQL
// dialect claims for a statement against what the server does: the lock
// modes its session holds in pg_locks, whether another session's write or
// read waits, the heap scans counted for its transaction and whether the
// table's file changed; and, for each claim that it can fail on existing
// data, that it fails on an offending row.
func TestHazardsObserved(t *testing.T) {
	cases := []struct {
		name, setup, stmt string
		codes             []string
		offend            string // rows that make stmt fail, for CanFail claims
	}{
		{name: "create index", stmt: `CREATE INDEX docs_title_idx ON docs (title)`, codes: []string{"PG101"}},
		{name: "create unique index", stmt: `CREATE UNIQUE INDEX docs_slug_idx ON docs (slug)`, codes: []string{"PG101", "PG102"},
			offend: `UPDATE docs SET slug = 'dup' WHERE id IN (1, 2)`},
		{name: "add unique constraint", stmt: `ALTER TABLE docs ADD CONSTRAINT docs_slug_key UNIQUE (slug)`, codes: []string{"PG102", "PG111"},
			offend: `UPDATE docs SET slug = 'dup' WHERE id IN (1, 2)`},
		{name: "add check", stmt: `ALTER TABLE docs ADD CONSTRAINT docs_n_ck CHECK (n > 0)`, codes: []string{"PG103"},
			offend: `UPDATE docs SET n = 0 WHERE id = 1`},
		{name: "add foreign key", stmt: `ALTER TABLE docs ADD CONSTRAINT docs_space_fk FOREIGN KEY (space_id) REFERENCES spaces (id)`, codes: []string{"PG104"},
			offend: `UPDATE docs SET space_id = 99 WHERE id = 1`},
		{name: "set not null", stmt: `ALTER TABLE docs ALTER COLUMN title SET NOT NULL`, codes: []string{"PG105"},
			offend: `UPDATE docs SET title = NULL WHERE id = 1`},
		{name: "set not null proven by a valid check", setup: `ALTER TABLE docs ADD CONSTRAINT docs_title_nn CHECK (title IS NOT NULL);`,
			stmt: `ALTER TABLE docs ALTER COLUMN title SET NOT NULL`, codes: []string{"PG110"}},
		{name: "type change", stmt: `ALTER TABLE docs ALTER COLUMN n TYPE smallint`, codes: []string{"PG106"},
			offend: `UPDATE docs SET n = 100000 WHERE id = 1`},
		{name: "varchar widened", stmt: `ALTER TABLE docs ALTER COLUMN title TYPE varchar(300)`, codes: []string{"PG110"}},
		{name: "drop column", stmt: `ALTER TABLE docs DROP COLUMN n`, codes: []string{"PG107"}},
		{name: "add nullable column", stmt: `ALTER TABLE docs ADD COLUMN note text NULL`, codes: []string{"PG110"}},
		{name: "add check not valid", stmt: `ALTER TABLE docs ADD CONSTRAINT docs_n_ck CHECK (n > 0) NOT VALID`, codes: []string{"PG110"}},
		{name: "add foreign key not valid", stmt: `ALTER TABLE docs ADD CONSTRAINT docs_space_fk FOREIGN KEY (space_id) REFERENCES spaces (id) NOT VALID`, codes: []string{"PG112"}},
		{name: "validate check", setup: `ALTER TABLE docs ADD CONSTRAINT docs_n_ck CHECK (n > 0) NOT VALID;`,
			stmt: `ALTER TABLE docs VALIDATE CONSTRAINT docs_n_ck`, codes: []string{"PG108"},
			offend: `UPDATE docs SET n = 0 WHERE id = 1`},
		{name: "validate foreign key", setup: `ALTER TABLE docs ADD CONSTRAINT docs_space_fk FOREIGN KEY (space_id) REFERENCES spaces (id) NOT VALID;`,
			stmt: `ALTER TABLE docs VALIDATE CONSTRAINT docs_space_fk`, codes: []string{"PG108"},
			offend: `UPDATE docs SET space_id = 99 WHERE id = 1`},
		{name: "unique constraint using index", setup: `CREATE UNIQUE INDEX docs_slug_key ON docs (slug);`,
			stmt: `ALTER TABLE docs ADD CONSTRAINT docs_slug_key UNIQUE USING INDEX docs_slug_key`, codes: []string{"PG110"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o, hs, err := observe(t, dbtest.Postgres(t), c.setup, c.stmt)
			if err != nil {
				t.Fatalf("%s: %v", c.stmt, err)
			}
			if got := hazard.Codes(hs); !slices.Equal(got, c.codes) {
				t.Errorf("codes %v, want %v", got, c.codes)
			}
			canFail := false
			for _, h := range hs {
				checkClaim(t, h, o)
				canFail = canFail || h.CanFail
			}
			if canFail != (c.offend != "") {
				t.Errorf("claims can-fail %v, but the case has offending rows %q", canFail, c.offend)
			}
			if c.offend != "" {
				if _, _, err := observe(t, dbtest.Postgres(t), c.offend+";\n"+c.setup, c.stmt); err == nil {
					t.Errorf("%s succeeded on offending rows (%s)", c.stmt, c.offend)
				}
			}
		})
	}
}

// checkClaim compares one hazard with the observation.
func checkClaim(t *testing.T, h hazard.Hazard, o observation) {
	t.Helper()
	if h.Lock != "" {
		mode := pgLockModes[h.Lock]
		if !slices.Contains(o.modes, mode) {
			t.Errorf("%s claims %s on docs; the session holds %v", h.Code, h.Lock, o.modes)
		}
		if h.Code == "PG104" || h.Code == "PG112" {
			if !slices.Contains(o.refModes, mode) {
				t.Errorf("%s claims %s on the referenced table too; the session holds %v there", h.Code, h.Lock, o.refModes)
			}
		}
		if want := h.Blocks >= hazard.BlocksWrites; o.writeBlocked != want {
			t.Errorf("%s claims %q; a concurrent INSERT waited: %v", h.Code, h.Blocks, o.writeBlocked)
		}
		if want := h.Blocks == hazard.BlocksAll; o.readBlocked != want {
			t.Errorf("%s claims %q; a concurrent SELECT waited: %v", h.Code, h.Blocks, o.readBlocked)
		}
	}
	if h.Lock != "" || h.Scan {
		if scanned := o.seqScans > 0 || o.rewrote; scanned != (h.Scan || h.Rewrite) {
			t.Errorf("%s claims scan %v, rewrite %v; observed %d heap scans, new file %v", h.Code, h.Scan, h.Rewrite, o.seqScans, o.rewrote)
		}
		if h.Rewrite != o.rewrote {
			t.Errorf("%s claims rewrite %v; the table got a new file: %v", h.Code, h.Rewrite, o.rewrote)
		}
	}
}

// TestConcurrentIndexObserved: CREATE INDEX CONCURRENTLY cannot run in a
// transaction, so its window is made observable by a writer's open
// transaction, which the build waits for. Meanwhile the build's session
// holds what PG109 claims, and other sessions write and read freely.
func TestConcurrentIndexObserved(t *testing.T) {
	ctx := context.Background()
	db := dbtest.Postgres(t)
	if _, err := db.Exec(hazardSetup); err != nil {
		t.Fatal(err)
	}
	before := inspect(t, db.DB)
	writer, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	wtx, err := writer.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wtx.Exec(`INSERT INTO docs VALUES (50000, 1, 'w', 'w', 1)`); err != nil {
		t.Fatal(err)
	}
	const stmt = `CREATE INDEX CONCURRENTLY docs_title_idx ON docs (title)`
	done := make(chan error, 1)
	go func() {
		_, err := db.ExecContext(ctx, stmt)
		done <- err
	}()
	var pid int
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := db.QueryRow(`SELECT pid FROM pg_stat_activity WHERE query = $1 AND wait_event_type = 'Lock'`, stmt).Scan(&pid)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the concurrent build never waited: %v", err)
		}
	}
	o := observation{modes: heldModes(t, db.DB, pid, "docs")}
	o.writeBlocked = blocked(t, db.DB, "INSERT INTO docs (id, space_id, title, slug, n) VALUES (100000, 1, 't', 'unique-slug', 1)")
	o.readBlocked = blocked(t, db.DB, "SELECT count(*) FROM docs")
	if err := wtx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	changes, err := openDriver(t, db.DB).SchemaDiff(before, inspect(t, db.DB), schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	hs := online.Hazards(changes, online.StmtForm([]string{stmt}, 0))
	if got := hazard.Codes(hs); !slices.Equal(got, []string{"PG109"}) {
		t.Fatalf("codes %v, want [PG109]", got)
	}
	h := hs[0]
	if !slices.Contains(o.modes, pgLockModes[h.Lock]) || o.writeBlocked || o.readBlocked || h.Blocks != hazard.BlocksNothing {
		t.Errorf("PG109 claims %s (%s); observed locks %v, write waited %v, read waited %v", h.Lock, h.Blocks, o.modes, o.writeBlocked, o.readBlocked)
	}
}

// TestIndexParamsPlanned: a btree index's fillfactor or deduplicate_items
// set or reset takes SHARE UPDATE EXCLUSIVE on the index alone, which
// blocks no read or write of the table (observed), so the planned ALTER
// INDEX ... SET has no hazard; a GIN index's fastupdate takes ACCESS
// EXCLUSIVE on the index, which blocks the table's writes: PG110.
func TestIndexParamsPlanned(t *testing.T) {
	cases := []struct {
		name, setup, stmt string
		codes             []string
	}{
		{"fillfactor", `CREATE INDEX docs_title_idx ON docs (title);`, `ALTER INDEX docs_title_idx SET (fillfactor = 70)`, nil},
		{"deduplicate_items reset", `CREATE INDEX docs_title_idx ON docs (title) WITH (deduplicate_items = false);`, `ALTER INDEX docs_title_idx RESET (deduplicate_items)`, nil},
		{"gin fastupdate", `CREATE INDEX docs_words_idx ON docs USING gin (to_tsvector('simple', slug));`, `ALTER INDEX docs_words_idx SET (fastupdate = false)`, []string{"PG110"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := dbtest.Postgres(t)
			o, _, err := observe(t, db, c.setup, c.stmt)
			if err != nil {
				t.Fatal(err)
			}
			if blocks := o.writeBlocked || o.readBlocked; blocks != (c.codes != nil) {
				t.Errorf("writes or reads blocked: %v, want %v", blocks, c.codes != nil)
			}
			before := inspect(t, db.DB)
			if _, err := db.Exec(c.stmt); err != nil {
				t.Fatal(err)
			}
			drv, err := postgres.Dialect{}.OpenAtlas(db.DB)
			if err != nil {
				t.Fatal(err)
			}
			changes, err := drv.SchemaDiff(before, inspect(t, db.DB), schema.DiffNormalized())
			if err != nil {
				t.Fatal(err)
			}
			stmts, err := online.PlanStmts(ctx, drv, changes, false)
			if err != nil || len(stmts) != 1 {
				t.Fatalf("planned %d statements (%v), want the ALTER INDEX", len(stmts), err)
			}
			if got := hazard.Codes(stmts[0].Hazards); !slices.Equal(got, c.codes) {
				t.Errorf("%s: codes %v, want %v", stmts[0].Cmd, got, c.codes)
			}
		})
	}
}
