package dialects

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler/expr"
)

// Batch is a data statement that runs in batches by its table's key
// (BATCH = n): migrate apply runs it once per batch of Rows keys, each
// batch committed on its own (docs/data-migrations.md).
type Batch struct {
	Table, Key string
	Kind       expr.Kind
	Rows       int
}

// BatchPrefix starts the line of a rendered file that names its batched
// statement's walk; the Atlas CLI reads it as a comment.
const BatchPrefix = "-- schemagen:batch "

// Line is b as its rendered file records it.
func (b Batch) Line() string {
	return fmt.Sprintf("%srows=%d table=%q key=%q kind=%s", BatchPrefix, b.Rows, b.Table, b.Key, b.Kind)
}

// ParseBatch reads the line Line writes, among a file's header lines.
func ParseBatch(file []byte) (Batch, bool) {
	for _, line := range strings.SplitN(string(file), "\n", 6) {
		rest, ok := strings.CutPrefix(line, BatchPrefix)
		if !ok {
			continue
		}
		var b Batch
		var kind string
		if _, err := fmt.Sscanf(rest, "rows=%d table=%q key=%q kind=%s", &b.Rows, &b.Table, &b.Key, &kind); err != nil {
			return Batch{}, false
		}
		for k := expr.KindUnknown; k <= expr.KindEnum; k++ {
			if k.String() == kind {
				b.Kind = k
			}
		}
		return b, true
	}
	return Batch{}, false
}

// Batcher is a dialect that runs batched data statements. The rendered
// statement reads the bounds of its batch from the session, and runs over
// the whole table when none is set (as the Atlas CLI runs it).
type Batcher interface {
	BatchWalk(b Batch) BatchWalk
}

// BatchWalk is how migrate apply walks a table by its key: Start before
// the first batch; First sets the bounds of the first batch (its first and
// last key), Next those of the batch after the last one; More is a query
// of one boolean, true while First or Next found one; Advance moves past
// it; End clears the bounds (after the last batch, or an error).
type BatchWalk struct {
	Start, First, Next, More, Advance, End string
	// Bounds, when set, is a query of the batch's first and last key as
	// text, and Bind writes them into the statement as literals (false:
	// the statement is not one the dialect rendered, and runs as it is).
	// A server that plans a data statement without reading the session's
	// values (TiDB) would otherwise scan the whole table for every batch.
	Bounds string
	Bind   func(stmt, from, upto string) (string, bool)
}

// Bound is stmt with the bounds of the batch the session is at written in
// (Bind), or stmt where the dialect does not bind them or none is set.
func (w BatchWalk) Bound(ctx context.Context, on schema.ExecQuerier, stmt string) (string, error) {
	if w.Bind == nil {
		return stmt, nil
	}
	var from, upto sql.NullString
	rs, err := on.QueryContext(ctx, w.Bounds)
	if err != nil {
		return "", err
	}
	defer rs.Close()
	if rs.Next() {
		err = rs.Scan(&from, &upto)
	} else if err = rs.Err(); err == nil {
		err = fmt.Errorf("%s: no row", w.Bounds)
	}
	if err != nil {
		return "", err
	}
	if bound, ok := w.Bind(stmt, from.String, upto.String); ok && from.Valid && upto.Valid {
		return bound, nil
	}
	return stmt, nil
}
