package deploy

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// batcher runs the batched statement of a rendered data migration (BATCH
// = n) batch by batch, each committed on its own (the file runs without a
// transaction), walking the table by its key with the dialect's
// statements, and prints each batch. Every other statement passes through.
// Run again after an interrupt or a failure, the walk starts over: the
// statement changes only rows that differ from what it writes, so the
// rows done before are read and left as they are.
type batcher struct {
	schema.ExecQuerier
	stmt  string
	batch dialects.Batch
	walk  dialects.BatchWalk
	w     io.Writer
}

// batched returns on wrapped in a batcher when f is a rendered batched
// data migration and the dialect runs batches (bt is not nil).
func batched(on schema.ExecQuerier, bt dialects.Batcher, f migrate.File, w io.Writer) schema.ExecQuerier {
	b, ok := dialects.ParseBatch(f.Bytes())
	if !ok || bt == nil {
		return on
	}
	stmts, err := f.Stmts()
	if err != nil || len(stmts) != 1 {
		return on
	}
	return &batcher{ExecQuerier: on, stmt: strings.TrimSpace(stmts[0]), batch: b, walk: bt.BatchWalk(b), w: w}
}

// batchError is a batched statement that failed after some batches, whose
// changes stay committed.
type batchError struct {
	batches int
	rows    int64
	err     error
}

func (e *batchError) Error() string {
	msg := fmt.Sprintf("after %d batch(es), %d row(s) changed and committed: %v", e.batches, e.rows, e.err)
	if interrupted(e.err) {
		return interruptedPrefix + msg
	}
	return msg
}

func (e *batchError) Unwrap() error { return e.err }

func (b *batcher) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if strings.TrimSpace(query) != b.stmt {
		return b.ExecQuerier.ExecContext(ctx, query, args...)
	}
	start := time.Now()
	var rows int64
	batches := 0
	fail := func(err error) (sql.Result, error) {
		return nil, &batchError{batches, rows, err}
	}
	if _, err := b.ExecQuerier.ExecContext(ctx, b.walk.Start); err != nil {
		return fail(err)
	}
	for {
		bounds := b.walk.Next
		if batches == 0 {
			bounds = b.walk.First
		}
		if _, err := b.ExecQuerier.ExecContext(ctx, bounds); err != nil {
			return fail(err)
		}
		var more bool
		if err := queryRow(ctx, b.ExecQuerier, b.walk.More, &more); err != nil {
			return fail(err)
		}
		if !more {
			break
		}
		t := time.Now()
		stmt, err := b.walk.Bound(ctx, b.ExecQuerier, query)
		if err != nil {
			return fail(err)
		}
		res, err := b.ExecQuerier.ExecContext(ctx, stmt, args...)
		if err != nil {
			return fail(err)
		}
		n, _ := res.RowsAffected()
		rows += n
		batches++
		if b.w != nil {
			fmt.Fprintf(b.w, "     batch %d of %s (%d keys by %s): %d row(s) changed, committed (%s; %d in all, %s)\n",
				batches, b.batch.Table, b.batch.Rows, b.batch.Key, n, time.Since(t).Round(time.Millisecond), rows, time.Since(start).Round(time.Millisecond))
		}
		if _, err := b.ExecQuerier.ExecContext(ctx, b.walk.Advance); err != nil {
			return fail(err)
		}
	}
	if _, err := b.ExecQuerier.ExecContext(ctx, b.walk.End); err != nil {
		return fail(err)
	}
	return driverResult(rows), nil
}

// queryRow scans the one row of query into dest.
func queryRow(ctx context.Context, q schema.ExecQuerier, query string, dest ...any) error {
	rs, err := q.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rs.Close()
	if !rs.Next() {
		if err := rs.Err(); err != nil {
			return err
		}
		return fmt.Errorf("%s: no row", query)
	}
	return rs.Scan(dest...)
}

// driverResult is the result of a batched statement: the rows it changed.
type driverResult int64

func (r driverResult) LastInsertId() (int64, error) { return 0, nil }
func (r driverResult) RowsAffected() (int64, error) { return int64(r), nil }
