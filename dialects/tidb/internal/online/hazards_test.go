package online_test

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/dialects/tidb/internal/online"
	"github.com/schemagen/schemagen/internal/dbtest"
)

const tidbRows = 8192

// tidbSetup makes items with tidbRows rows, by doubling.
func tidbSetup(t *testing.T, db *sql.DB, extra string) {
	t.Helper()
	stmts := []string{
		"CREATE TABLE spaces (id bigint PRIMARY KEY)",
		"INSERT INTO spaces VALUES (1), (2)",
		"CREATE TABLE items (id bigint PRIMARY KEY, space_id bigint NOT NULL, title varchar(200) NULL, slug varchar(64) NULL, n int NOT NULL)",
		"INSERT INTO items VALUES (1, 1, 'title 1', 's1', 1)",
	}
	for n := 1; n < tidbRows; n *= 2 {
		stmts = append(stmts, fmt.Sprintf("INSERT INTO items SELECT id + %d, 1 + (id %% 2), CONCAT('title ', id + %d), CONCAT('s', id + %d), 1 + ((id + %d) %% 1000) FROM items", n, n, n, n))
	}
	for _, s := range append(stmts, strings.Split(extra, ";\n")...) {
		if strings.TrimSpace(s) == "" {
			continue
		}
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

type tidbObservation struct {
	jobType  string
	rowCount int64
	// writes is the number of inserts another session completed while the
	// statement ran; failed the number refused.
	writes, failed int64
}

// allColumnsWrite inserts a row naming every column of items.
const allColumnsWrite = "INSERT INTO items (id, space_id, title, slug, n) VALUES (?, 1, 'w', CONCAT('w', ?), 1)"

// observeTiDB runs stmt while another session inserts rows one at a time with
// write (which takes the new id twice), then reads the statement's DDL job
// from ADMIN SHOW DDL JOBS. It returns the hazards the dialect claims from
// the changes Atlas inspects.
func observeTiDB(t *testing.T, db *dbtest.DB, setup, stmt, write string) (tidbObservation, []hazard.Hazard, error) {
	t.Helper()
	ctx := context.Background()
	tidbSetup(t, db.DB, setup)
	drv, err := tidb.Dialect{}.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	before, err := drv.InspectSchema(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var (
		o             tidbObservation
		running, stop atomic.Bool
		writes, fails atomic.Int64
		wg            sync.WaitGroup
	)
	wg.Go(func() {
		conn, err := db.Conn(ctx)
		if err != nil {
			return
		}
		defer conn.Close()
		for id := int64(1_000_000); !stop.Load(); id++ {
			_, err := conn.ExecContext(ctx, write, id, id)
			if running.Load() {
				if err != nil {
					fails.Add(1)
				} else {
					writes.Add(1)
				}
			}
		}
	})
	lastJob := maxJobID(t, db.DB)
	time.Sleep(100 * time.Millisecond)
	running.Store(true)
	_, err = db.Exec(stmt)
	running.Store(false)
	stop.Store(true)
	wg.Wait()
	if err != nil {
		return o, nil, err
	}
	o.writes, o.failed = writes.Load(), fails.Load()
	for _, j := range ddlJobs(t, db.DB) {
		if j.id > lastJob && j.table == "items" {
			o.jobType = strings.TrimSpace(o.jobType + " " + j.typ)
			o.rowCount = max(o.rowCount, j.rows)
		}
	}
	after, err := drv.InspectSchema(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := drv.SchemaDiff(before, after, schema.DiffNormalized())
	if err != nil {
		t.Fatal(err)
	}
	return o, online.Hazards(changes, hazard.Form{}), nil
}

type ddlJob struct {
	id, rows   int64
	table, typ string
}

// ddlJobs reads the last DDL jobs of the database (ADMIN SHOW DDL JOBS),
// sub-jobs of a multi-schema change included. The count bounds the server's
// history before WHERE filters it, and other packages' tests share the
// server: it must be large enough that their jobs cannot push ours out.
func ddlJobs(t *testing.T, db *sql.DB) []ddlJob {
	t.Helper()
	rows, err := db.Query("ADMIN SHOW DDL JOBS 1000 WHERE DB_NAME = DATABASE()")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []ddlJob
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var j ddlJob
		for i, c := range cols {
			switch c {
			case "JOB_ID":
				fmt.Sscan(vals[i].String, &j.id)
			case "TABLE_NAME":
				j.table = vals[i].String
			case "JOB_TYPE":
				j.typ = vals[i].String
			case "ROW_COUNT":
				fmt.Sscan(vals[i].String, &j.rows)
			}
		}
		out = append(out, j)
	}
	return out
}

func maxJobID(t *testing.T, db *sql.DB) int64 {
	var m int64
	for _, j := range ddlJobs(t, db) {
		m = max(m, j.id)
	}
	return m
}

// TestTiDBHazardsObserved checks TiDB's hazard claims on the server: every
// statement lets another session's writes through while it runs (TiDB's DDL
// is online); the ones claimed to backfill or rewrite (an index, a type
// copied) report the table's rows in their DDL job's ROW_COUNT and the others
// none; the ones TiDB checks with a query instead (a CHECK, a foreign key,
// NOT NULL) fail on an offending row in the table's last row, so they read
// it all; every can-fail claim fails on an offending row.
func TestTiDBHazardsObserved(t *testing.T) {
	cases := []struct {
		name, setup, stmt string
		codes             []string
		offend            string
		// write is the other session's insert when it cannot name every
		// column: a column being dropped leaves the inserts' view as soon
		// as the job starts, so naming it fails for reasons not the lock's.
		write string
	}{
		{name: "add index", stmt: "ALTER TABLE items ADD INDEX items_title_idx (title)", codes: []string{"TD101"}},
		{name: "add unique", stmt: "ALTER TABLE items ADD UNIQUE INDEX items_slug_key (slug)", codes: []string{"TD101", "TD102"},
			offend: "UPDATE items SET slug = 'dup' WHERE id IN (1, 8192)"},
		{name: "add check", stmt: "ALTER TABLE items ADD CONSTRAINT items_n_ck CHECK (n > 0)", codes: []string{"TD104"},
			offend: "UPDATE items SET n = 0 WHERE id = 8192"},
		{name: "narrower type", stmt: "ALTER TABLE items MODIFY COLUMN n smallint NOT NULL", codes: []string{"TD103"},
			offend: "UPDATE items SET n = 100000 WHERE id = 8192"},
		{name: "wider type", stmt: "ALTER TABLE items MODIFY COLUMN n bigint NOT NULL", codes: nil},
		{name: "not null", stmt: "ALTER TABLE items MODIFY COLUMN title varchar(200) NOT NULL", codes: []string{"TD107"},
			offend: "UPDATE items SET title = NULL WHERE id = 8192"},
		{name: "drop column", stmt: "ALTER TABLE items DROP COLUMN title", codes: []string{"TD105"},
			write: "INSERT INTO items (id, space_id, slug, n) VALUES (?, 1, CONCAT('w', ?), 1)"},
		{name: "add foreign key", stmt: "ALTER TABLE items ADD CONSTRAINT items_space_fk FOREIGN KEY (space_id) REFERENCES spaces (id)", codes: []string{"TD101", "TD106"},
			offend: "UPDATE items SET space_id = 99 WHERE id = 8192"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			write := cmp.Or(c.write, allColumnsWrite)
			o, hs, err := observeTiDB(t, dbtest.TiDB(t), c.setup, c.stmt, write)
			if err != nil {
				t.Fatalf("%s: %v", c.stmt, err)
			}
			if got := hazard.Codes(hs); !slices.Equal(got, c.codes) {
				t.Errorf("codes %v, want %v", got, c.codes)
			}
			t.Logf("%s: job %q, row count %d, %d writes during it (%d refused)", c.stmt, o.jobType, o.rowCount, o.writes, o.failed)
			reorg, canFail := false, false
			for _, h := range hs {
				reorg = reorg || h.Code == online.CodeAddIndex || h.Rewrite
				canFail = canFail || h.CanFail
				if h.Scan && !h.CanFail && h.Code != online.CodeAddIndex {
					t.Errorf("%s claims a scan that nothing observes", h.Code)
				}
				if h.Blocks != hazard.BlocksNothing {
					t.Errorf("%s claims it %s", h.Code, h.Blocks)
				}
			}
			if o.writes == 0 {
				t.Errorf("no write went through while %s ran", c.stmt)
			}
			if reorg && o.rowCount < tidbRows || !reorg && o.rowCount != 0 {
				t.Errorf("claims a backfill %v; the DDL job %q counted %d rows", reorg, o.jobType, o.rowCount)
			}
			if canFail != (c.offend != "") {
				t.Errorf("claims can-fail %v, but the case has offending rows %q", canFail, c.offend)
			}
			if c.offend != "" {
				if _, _, err := observeTiDB(t, dbtest.TiDB(t), c.offend, c.stmt, write); err == nil {
					t.Errorf("%s succeeded on offending rows (%s)", c.stmt, c.offend)
				}
			}
		})
	}
}

// TestTiDBUnfinished: a DDL job that has not finished (here paused with
// ADMIN PAUSE DDL JOBS, as a job whose session was killed goes on) is what
// `migrate status` lists for TiDB.
func TestTiDBUnfinished(t *testing.T) {
	ctx := context.Background()
	db := dbtest.TiDB(t)
	tidbSetup(t, db.DB, "")
	if got, err := online.Unfinished(ctx, db.DB); err != nil || len(got) != 0 {
		t.Fatalf("a database without DDL running: %q, %v", got, err)
	}
	// The index may be built before the job can be paused: then it is
	// dropped and built again, a few times, never skipped.
	var (
		done chan error
		id   int64
	)
	for attempt := 1; id == 0; attempt++ {
		if attempt > 5 {
			t.Fatal("the index was built before it could be paused, 5 times")
		}
		done, id = pauseAddIndex(t, db.DB)
		t.Logf("attempt %d: paused job %d", attempt, id)
		if id == 0 {
			if _, err := db.Exec("ALTER TABLE items DROP INDEX items_title_idx"); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The job is "pausing" until its owner has stopped it.
	want := fmt.Sprintf("DDL job %d (add index of table items) is paused", id)
	got, err := online.Unfinished(ctx, db.DB)
	for deadline := time.Now().Add(30 * time.Second); err == nil && len(got) == 1 && strings.Contains(got[0], "is pausing") && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		got, err = online.Unfinished(ctx, db.DB)
	}
	if err != nil || len(got) != 1 || !strings.Contains(got[0], want) {
		t.Errorf("unfinished: %q, %v", got, err)
	}
	// Cancelled rather than resumed: a resumed add-index job of the pinned
	// TiDB was once seen never to finish, which hung the whole run.
	if _, err := db.Exec(fmt.Sprintf("ADMIN CANCEL DDL JOBS %d", id)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the cancelled ALTER TABLE succeeded")
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("DDL job %d did not end within 2 minutes of its cancellation", id)
	}
	if got, err := online.Unfinished(ctx, db.DB); err != nil || len(got) != 0 {
		t.Errorf("after the job: %q, %v", got, err)
	}
}

// pauseAddIndex starts ALTER TABLE items ADD INDEX and pauses its DDL job.
// It returns the statement's outcome and the job, or 0 when the statement
// ended before the job could be paused.
// pauseJob pauses DDL job id. TiDB reports a job it could not pause (one
// already done) in the RESULT column of a row, not as an error.
func pauseJob(db *sql.DB, id int64) bool {
	var jobID, result string
	if err := db.QueryRow(fmt.Sprintf("ADMIN PAUSE DDL JOBS %d", id)).Scan(&jobID, &result); err != nil {
		return false
	}
	return result == "successful"
}

func pauseAddIndex(t *testing.T, db *sql.DB) (chan error, int64) {
	t.Helper()
	// A transaction that has read items holds TiDB's metadata lock on it,
	// so the job cannot move past its first state until it ends: the job
	// is paused while it waits, however fast the machine.
	ctx := context.Background()
	hold, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	if _, err := hold.ExecContext(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := hold.ExecContext(ctx, "SELECT id FROM items LIMIT 1"); err != nil {
		t.Fatal(err)
	}
	defer hold.ExecContext(ctx, "COMMIT")
	done := make(chan error, 1)
	go func() {
		_, err := db.Exec("ALTER TABLE items ADD INDEX items_title_idx (title)")
		done <- err
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		for _, j := range ddlJobs(t, db) {
			if j.typ == "add index" && j.table == "items" {
				if pauseJob(db, j.id) {
					return done, j.id
				}
			}
		}
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return done, 0
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("no add index job to pause")
		}
	}
}
