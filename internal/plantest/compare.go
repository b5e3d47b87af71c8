package plantest

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"reflect"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Compare is the oracle's comparison, for other tests (the replay of
// public histories, internal/histories): database got against want, a
// fresh database built from generated/, both of dialect d. It returns ""
// when they are equal, else what is left to do (the statements Atlas would
// plan, or the objects or deferrable keys that differ).
func Compare(ctx context.Context, d dialects.Atlas, got, want *sql.DB) (string, error) {
	w, wantDefer, _, err := inspect(ctx, d, &scratch.DB{DB: want})
	if err != nil {
		return "", err
	}
	g, gotDefer, drv, err := inspect(ctx, d, &scratch.DB{DB: got})
	if err != nil {
		return "", err
	}
	changes, err := drv.SchemaDiff(g, w, schema.DiffNormalized())
	if err != nil {
		return "", err
	}
	switch {
	case len(changes) > 0:
		return "left to do:\n" + describeChanges(ctx, drv, changes), nil
	case !reflect.DeepEqual(objectsOf(g), objectsOf(w)):
		return fmt.Sprintf("objects (extensions, views, triggers) %+v, a fresh database's %+v", objectsOf(g), objectsOf(w)), nil
	case !maps.Equal(gotDefer, wantDefer):
		return fmt.Sprintf("deferrable foreign keys %v, the model's %v", gotDefer, wantDefer), nil
	}
	return "", nil
}

// Shape is a compiled model's tables, columns and keys as the oracle draws
// rows over them and reads them back.
func Shape(s *compiler.Schema) *difftest.Model { return shapeOf(s) }

// KeptColumns is, for every table of both shapes, the columns of old that
// new has with the same type (renames followed): before by the old names,
// after by the new, in the same order.
func KeptColumns(old, new *difftest.Model) (before, after *difftest.Model) {
	return keptColumns(old, new)
}

// ReadRows reads the rows of every table of m on db, of dialect d, as
// canonical text, sorted; by table name.
func ReadRows(ctx context.Context, db *sql.DB, d string, m *difftest.Model) (map[string][]string, error) {
	return readRows(ctx, &scratch.DB{DB: db}, d, m)
}

// InsertRows tries n random INSERTs of seed over shape m on db, of dialect
// d, leaving out those the database refuses. It returns how many ran.
func InsertRows(ctx context.Context, db *sql.DB, d string, m *difftest.Model, seed uint64, n int) int {
	ran := 0
	for _, s := range draw.NewGen(seed).Stmts(m, 3*n) {
		if s.Kind != "insert" || n == 0 {
			continue
		}
		n--
		if q, ok := difftest.SQLOf(s, d, m); ok {
			if _, err := db.ExecContext(ctx, q); err == nil {
				ran++
			}
		}
	}
	return ran
}

// DataError reports whether err is rows breaking what a statement adds (a
// constraint, NOT NULL, a narrower type), or a pre-check finding such rows,
// with the reason.
func DataError(err error) (string, bool) { return dataError(err) }
