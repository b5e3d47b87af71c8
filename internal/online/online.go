// Package online turns a dialect's planned statements and their hazards
// into migration files, and helps apply, status and lint use what the
// dialect knows about them. It takes the dialect's Online part, nil for a
// dialect without it, and names no dialect.
package online

import (
	"context"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/hazard"
)

// TxModeNone is the Atlas CLI's directive for a file run outside a
// transaction.
const TxModeNone = "-- atlas:txmode none"

// Plan plans changes as up to two files: main, run in one transaction, and
// noTx (nil when not needed), run after it outside any transaction: the
// concurrent index builds and the validations an online plan runs after the
// strong locks are released. Every statement's comment lists its hazards.
// A dialect without hazards (o nil) plans as Atlas does.
func Plan(ctx context.Context, o dialects.Online, drv migrate.Driver, name string, changes []schema.Change, online bool, opts ...migrate.PlanOption) (main, noTx *migrate.Plan, err error) {
	if o == nil {
		main, err = drv.PlanChanges(ctx, name, changes, opts...)
		return main, nil, err
	}
	stmts, err := o.PlanStmts(ctx, drv, changes, online, opts...)
	if err != nil {
		return nil, nil, err
	}
	main = &migrate.Plan{Name: name, Transactional: true}
	noTx = &migrate.Plan{Name: name, Directives: []string{TxModeNone}}
	var later []*migrate.Change
	for _, s := range stmts {
		c := &migrate.Change{Cmd: s.Cmd, Comment: s.FileComment()}
		switch {
		case s.NoTx:
			noTx.Changes = append(noTx.Changes, c)
		case s.Later:
			later = append(later, c)
		default:
			main.Changes = append(main.Changes, c)
		}
	}
	noTx.Changes = append(noTx.Changes, later...)
	switch {
	case len(noTx.Changes) == 0:
		return main, nil, nil
	case len(main.Changes) == 0:
		return noTx, nil, nil
	}
	return main, noTx, nil
}

// Hazards are the hazards of statement i of a migration file given the
// changes replaying it made, or nil for a dialect that knows none (o nil).
func Hazards(o dialects.Online, stmts []string, i int, changes []schema.Change) []hazard.Hazard {
	if o != nil {
		return o.Hazards(changes, o.StmtForm(stmts, i))
	}
	return nil
}

// Codes describes the hazard codes of every Online part given (nil ones
// have none).
func Codes(parts ...dialects.Online) []hazard.Code {
	var out []hazard.Code
	for _, o := range parts {
		if o != nil {
			out = append(out, o.HazardCodes()...)
		}
	}
	return out
}

// Resume prepares conn to run the statements todo of a partly applied file
// after skipped, and returns how many of todo's first statements the
// server finished after all; a no-op for a dialect that knows no hazards
// (o nil).
func Resume(ctx context.Context, o dialects.Online, conn schema.ExecQuerier, skipped, todo []string) (int, error) {
	if o != nil {
		return o.Resume(ctx, conn, skipped, todo)
	}
	return 0, nil
}

// Unfinished lists what interrupted online statements left in the database
// (nothing for o nil).
func Unfinished(ctx context.Context, o dialects.Online, conn schema.ExecQuerier) ([]string, error) {
	if o != nil {
		return o.Unfinished(ctx, conn)
	}
	return nil, nil
}

// ExplainError is the dialect's advice for a statement's error, or "" (for
// o nil too).
func ExplainError(o dialects.Online, err error) string {
	if o != nil {
		return o.ExplainError(err)
	}
	return ""
}

// Prechecks reads the pre-check queries written above statements (see
// hazard.PrecheckDirective) and has the dialect run them: the rows they
// find are rows the statements would fail on. A dialect without the Online
// part (o nil) writes none.
func Prechecks(ctx context.Context, o dialects.Online, conn schema.ExecQuerier, stmts []*migrate.Stmt) ([]string, error) {
	if o == nil {
		return nil, nil
	}
	var queries []string
	for _, s := range stmts {
		for _, c := range s.Comments {
			for _, line := range strings.Split(c, "\n") {
				if q, ok := strings.CutPrefix(strings.TrimSpace(line), hazard.PrecheckDirective); ok {
					queries = append(queries, strings.TrimSpace(q))
				}
			}
		}
	}
	if len(queries) == 0 {
		return nil, nil
	}
	return o.Prechecks(ctx, conn, queries)
}

// CountPrechecks is the number of pre-check queries written above stmts.
func CountPrechecks(stmts []*migrate.Stmt) int {
	n := 0
	for _, s := range stmts {
		for _, c := range s.Comments {
			for _, line := range strings.Split(c, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), hazard.PrecheckDirective) {
					n++
				}
			}
		}
	}
	return n
}
