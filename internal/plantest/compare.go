package plantest

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Compare is the oracle's comparison, for other tests (the replay of
// public histories, internal/histories): database got against want, a
// fresh database built from generated/, both of dialect d. It returns ""
// when they are equal, else what is left to do (the statements Atlas would
// plan, or the objects or deferrable keys that differ).
func Compare(ctx context.Context, d dialects.Atlas, got, want *sql.DB) (string, error) {
	dd, _ := d.(dialects.Dialect)
	t := migration.Target{Dialect: dd}
	read := func(db *sql.DB) (*migration.State, error) {
		drv, err := d.OpenAtlas(db)
		if err != nil {
			return nil, err
		}
		return migration.Reread(ctx, t, &migration.State{Driver: drv})
	}
	g, err := read(got)
	if err != nil {
		return "", err
	}
	w, err := read(want)
	if err != nil {
		return "", err
	}
	diffs, err := migration.Differences(ctx, t, g, w)
	if err != nil || len(diffs) == 0 {
		return "", err
	}
	var b strings.Builder
	b.WriteString("left to do:\n")
	for _, x := range diffs {
		fmt.Fprintf(&b, "  %s\n", x.What)
	}
	return b.String(), nil
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
