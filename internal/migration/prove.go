package migration

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration/proof"
)

// How migrate diff proves a file: see package proof.

// ProofError is a migration that migrate diff could not prove.
type ProofError = proof.Error

// proofRounds bounds the plans tried for one migration.
const proofRounds = 4

// prove runs the plan (main, then online) on current's database, which
// must hold the directory's state, and converges it on desired's state; it
// returns the files to write. A nil plan is checked as well: a change the
// planner does not see is refused, never reported as no change.
func prove(ctx context.Context, p *Planned, current, desired *State, files []migrate.File, main, onl *migrate.Plan, name string, opts []PlanOption) (_, _ *migrate.Plan, err error) {
	t := p.Target
	db := current.DB()
	if db == nil {
		return nil, nil, fmt.Errorf("env %s: proving the plan: the current state has no database", t.Env.Name)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	var (
		outMain, outOnline *migrate.Plan
		failures           []proof.Failure
	)
	for round := 0; ; round++ {
		failed := len(failures)
		// The desired state is read again while the statements run (the
		// plan changed the one it was planned into); with nothing planned,
		// both states are as read.
		var (
			wantState *State
			wantErr   error
			wantRead  sync.WaitGroup
		)
		planned := main != nil || onl != nil && len(onl.Changes) > 0
		if planned {
			wantRead.Go(func() { wantState, wantErr = Reread(ctx, t, desired) })
		}
		if main != nil {
			if outMain == nil || len(outMain.Changes) == 0 {
				outMain = &migrate.Plan{Name: main.Name, Version: main.Version, Transactional: main.Transactional, Directives: main.Directives}
			}
			// Statements join the main file while it runs as apply runs
			// it. Once it holds statements, a later round's go to the
			// online file, run after it without a transaction: the main
			// file's transaction was committed here, and a statement that
			// needs that commit (an enum's new value) would fail in it.
			into := &outMain
			txMain := t.Dialect.TransactionalDDL() && !proof.NoTx(outMain)
			if outOnline != nil || len(outMain.Changes) > 0 && txMain && (round > 0 || proof.NoTx(main)) {
				if outOnline == nil {
					outOnline = proof.OnlineOf(main)
				}
				into = &outOnline
			}
			ran, fails, err := proof.Run(ctx, conn, t.Dialect.ScanStmts, main.Changes, t.Dialect.TransactionalDDL() && !proof.NoTx(*into))
			if err != nil {
				return nil, nil, err
			}
			(*into).Changes, failures = append((*into).Changes, ran...), append(failures, fails...)
		}
		if onl != nil && len(onl.Changes) > 0 {
			if outOnline == nil {
				outOnline = proof.OnlineOf(onl)
			}
			ran, fails, err := proof.Run(ctx, conn, t.Dialect.ScanStmts, onl.Changes, false)
			if err != nil {
				return nil, nil, err
			}
			outOnline.Changes, failures = append(outOnline.Changes, ran...), append(failures, fails...)
		}
		// What the database reached, against the model.
		got, want := current, desired
		if planned {
			wantRead.Wait()
			if wantErr != nil {
				return nil, nil, wantErr
			}
			if got, err = Reread(ctx, t, current); err != nil {
				return nil, nil, err
			}
			want = wantState
		}
		left, err := Differences(ctx, t, got, want)
		if err != nil {
			return nil, nil, err
		}
		// Without a failure, what ran is the plan: done when nothing is
		// left. After one, the plan from the state reached must be empty
		// too: a raw block's statement that failed leaves nothing a
		// comparison sees.
		if len(left) == 0 && len(failures) == failed {
			m, o := proof.Written(outMain, outOnline)
			return m, o, nil
		}
		if round == proofRounds-1 {
			return nil, nil, proofError(t, failures, left)
		}
		// Planned again from the state reached, with the raw blocks the
		// statements that ran hold.
		if got, err = Reread(ctx, t, current); err != nil {
			return nil, nil, err
		}
		if want, err = Reread(ctx, t, desired); err != nil {
			return nil, nil, err
		}
		history, err := rawHistory(t.Dialect, append(slices.Clone(files), proof.Files(outMain, outOnline)...))
		if err != nil {
			return nil, nil, err
		}
		if main, onl, err = planStep(ctx, p, got, want, history, name, opts); err != nil {
			return nil, nil, err
		}
		if main == nil && (onl == nil || len(onl.Changes) == 0) {
			if len(left) == 0 {
				m, o := proof.Written(outMain, outOnline)
				return m, o, nil
			}
			return nil, nil, proofError(t, failures, left)
		}
	}
}

func proofError(t Target, failures []proof.Failure, left []Difference) error {
	e := &ProofError{Env: t.Env.Name, Dialect: t.Dialect.Name(), Left: left}
	if n := len(failures); n > 0 {
		f := failures[n-1]
		e.Change, e.Stmt, e.Err = f.Change.Comment, f.Stmt, f.Err
	}
	return e
}
