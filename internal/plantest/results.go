package plantest

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/lint"
)

// One meaning on both databases: the databases of the dialects of one
// lineage and applier receive the same INSERTs, so, while no step has
// stopped on one and not the other, they hold the same rows. A step's
// migration must then give the same result on all of them (issue 30):
//
//   - existing rows stop it on every dialect or on none (a NOT NULL column
//     without a default added to a table with rows applied on TiDB, which
//     fills '', and failed on PostgreSQL; a CHECK TiDB checked the rows of
//     wrongly failed there alone);
//   - where it applies, the rows read the same on every dialect afterwards,
//     in every column, the changed ones too (values a type change converts).

// inSync reports whether, before the step, database i of lineage l held the
// same rows on every dialect (before: the rows read then, by "lineage
// dialect applier table"), and names the dialects.
func (ev *evolution) inSync(before map[string][]string, l *lineage, i int) ([]string, bool) {
	var ds []string
	for _, d := range slices.Sorted(maps.Keys(l.dbs)) {
		if l.dbs[d][i] != nil {
			ds = append(ds, d)
		}
	}
	if len(ds) < 2 || ev.shape == nil {
		return ds, false
	}
	prefix := func(d string) string { return fmt.Sprintf("%s %s %d ", l.name(), d, i) }
	for k, rows := range before {
		t, ok := strings.CutPrefix(k, prefix(ds[0]))
		if !ok {
			continue
		}
		for _, d := range ds[1:] {
			if !slices.Equal(rows, before[prefix(d)+t]) {
				return ds, false
			}
		}
	}
	return ds, true
}

// sameResult requires that the rows stopped the step's files on every
// dialect of a lineage whose databases held the same rows, or on none.
func (ev *evolution) sameResult(before map[string][]string, fail func(kind, format string, args ...any) *Failure) *Failure {
	for _, l := range ev.lineages {
		for i := range 2 {
			ds, ok := ev.inSync(before, l, i)
			if !ok {
				continue
			}
			if slices.ContainsFunc(ds, func(d string) bool { return l.transient[fmt.Sprint(d, i)] }) {
				continue
			}
			var stopped, applied []string
			for _, d := range ds {
				if l.replaced[fmt.Sprint(d, i)] {
					stopped = append(stopped, d)
				} else {
					applied = append(applied, d)
				}
			}
			if len(stopped) > 0 && len(applied) > 0 {
				var why []string
				for _, d := range stopped {
					why = append(why, fmt.Sprintf("%s: %v", d, l.stops[fmt.Sprint(d, i)]))
				}
				return fail("two results", "%s applied by %s: on the same rows, existing rows stopped the step's migration on %s and it applied on %s\n%s\nthe files it wrote:\n%s",
					l.name(), applier(i), strings.Join(stopped, ", "), strings.Join(applied, ", "), strings.Join(why, "\n"), l.writtenText())
			}
		}
	}
	return nil
}

// sameRows requires that the databases of a lineage that held the same
// rows before the step and that the step applied to hold the same rows
// after it, in every column of the new model.
func (ev *evolution) sameRows(ctx context.Context, before map[string][]string, s *compiler.Schema, fail func(kind, format string, args ...any) *Failure) (*Failure, error) {
	// difftest's shape marks the columns each database draws itself,
	// which shapeOf leaves unmarked for comparisons on one database: they
	// read as "(a time)", "(a uuid)" or "(an id)", NULL as NULL, so a NULL
	// one database keeps where the other draws a value shows (evolution
	// 61616184896: an on_update column NULL on TiDB alone).
	det := difftest.Shape(s)
	for _, l := range ev.lineages {
		for i := range 2 {
			ds, ok := ev.inSync(before, l, i)
			if !ok || slices.ContainsFunc(ds, func(d string) bool { return l.replaced[fmt.Sprint(d, i)] }) {
				continue
			}
			rows := make([]map[string][]string, len(ds))
			for k, d := range ds {
				rs, err := readRows(ctx, l.dbs[d][i], d, det)
				if err != nil {
					return nil, err
				}
				rows[k] = rs
			}
			ev.r.count(func(s *Stats) { s.RowsCompared++ })
			for _, t := range slices.Sorted(maps.Keys(rows[0])) {
				for k := 1; k < len(ds); k++ {
					if !slices.Equal(rows[0][t], rows[k][t]) {
						return fail("rows differ", "%s applied by %s: table %s's rows differ after the migration:\n  %s: %q\n  %s: %q",
							l.name(), applier(i), t, ds[0], rows[0][t], ds[k], rows[k][t]), nil
					}
				}
			}
		}
	}
	return nil, nil
}

// lintAccepted are the lint errors a file migrate diff writes may hold:
// hazards the model's change cannot avoid, which the file says (a column
// type change PostgreSQL makes by rewriting the table, a decimal rounded).
var lintAccepted = map[string]bool{"PG106": true, "TD108": true}

// lintWritten runs migrate lint (when the runner's Lint is set) on the
// files the online lineage l wrote this step: lint must report no error
// on a file migrate diff writes (issue 30), but for lintAccepted.
func (ev *evolution) lintWritten(ctx context.Context, l *lineage, fail func(kind, format string, args ...any) *Failure) (*Failure, error) {
	if !ev.r.Lint || l.plain || len(l.written) == 0 {
		return nil, nil
	}
	r, err := lint.Run(ctx, ev.r.Dev, l.targets, lint.Options{})
	if err != nil {
		return nil, err
	}
	ev.r.count(func(s *Stats) { s.Linted += len(l.written) })
	for _, f := range r.Findings {
		if l.written[f.File] && f.Severity == lint.SeverityError && !f.Suppressed && !lintAccepted[f.Code] {
			return fail("lint "+f.Code, "%s: migrate lint reports %s on a file migrate diff wrote: %s: %s\nthe files it wrote:\n%s", l.name(), f.Code, f.File, f.Message, l.writtenText()), nil
		}
	}
	return nil, nil
}

// writtenText is the text of the files l wrote this step, each under its
// path, in the order of their paths.
func (l *lineage) writtenText() string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(l.written)) {
		text, _ := os.ReadFile(name)
		fmt.Fprintf(&b, "-- %s\n%s", name, text)
	}
	return b.String()
}
