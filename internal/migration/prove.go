package migration

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/online"
)

// Every file migrate diff writes is proven first: run on the scratch
// database that holds the directory's state, as migrate apply runs it (on
// PostgreSQL the main file in one transaction, the online file without;
// on TiDB statement by statement), then compared with the generated DDL's
// state (Differences). A plan that fails or falls short converges:
//
//   - a statement the database refuses is left out (in a transaction, the
//     file runs again without it), as a DROP of a key or index that a
//     column's drop already removed;
//   - what the database then still lacks is planned again from the state
//     it reached and run after the rest, which orders a statement after
//     what it needs;
//
// for up to proofRounds plans. The files written are the statements that
// ran, in the order they ran. A plan that does not converge is refused (a
// *ProofError), and nothing is written.

// proofRounds bounds the plans tried for one migration.
const proofRounds = 4

// ProofError is a migration that migrate diff could not prove: its
// statements fail on a database holding the directory's state, or do not
// reach the model, however planned again.
type ProofError struct {
	Env, Dialect string
	// Change is what the statement makes (its comment), Stmt the statement
	// and Err the database's error; Stmt is "" when every statement ran and
	// the result still differs.
	Change, Stmt string
	Err          error
	// Left is what still differs from the model.
	Left []Difference
}

func (e *ProofError) Error() string {
	var b strings.Builder
	// Plan puts the env in front.
	fmt.Fprintf(&b, "the migration planned for %s does not prove: ", e.Dialect)
	if e.Stmt != "" {
		what := ""
		if e.Change != "" {
			what = " (" + e.Change + ")"
		}
		fmt.Fprintf(&b, "a database holding the directory's state refuses the statement%s\n\n", what)
		for _, l := range strings.Split(strings.TrimSpace(e.Stmt), "\n") {
			b.WriteString("    " + l + "\n")
		}
		fmt.Fprintf(&b, "\nwith: %v\n", e.Err)
	} else {
		b.WriteString("the database its statements leave (none, when the planner found nothing to do) is not the model's\n")
	}
	if len(e.Left) > 0 {
		b.WriteString("Still different from the model after planning again from the state reached:\n")
		for _, d := range e.Left {
			b.WriteString("  - " + d.What + "\n")
		}
	}
	fmt.Fprintf(&b, "Nothing was written. Make this change in two steps instead (change the model in two edits and run `schemagen migrate diff` after each),\n"+
		"or write the migration by hand (`schemagen migrate new NAME`, with a data migration where rows must move) and run `schemagen migrate hash`.")
	return b.String()
}

// Unwrap returns the database's error.
func (e *ProofError) Unwrap() error { return e.Err }

// proofFailure is a statement the database refused while proving.
type proofFailure struct {
	change *migrate.Change
	stmt   string
	err    error
}

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
		failures           []proofFailure
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
			txMain := t.Dialect.TransactionalDDL() && !noTx(outMain)
			if outOnline != nil || len(outMain.Changes) > 0 && txMain && (round > 0 || noTx(main)) {
				if outOnline == nil {
					outOnline = onlineOf(main)
				}
				into = &outOnline
			}
			ran, fails, err := runChanges(ctx, conn, p, main.Changes, t.Dialect.TransactionalDDL() && !noTx(*into))
			if err != nil {
				return nil, nil, err
			}
			(*into).Changes, failures = append((*into).Changes, ran...), append(failures, fails...)
		}
		if onl != nil && len(onl.Changes) > 0 {
			if outOnline == nil {
				outOnline = onlineOf(onl)
			}
			ran, fails, err := runChanges(ctx, conn, p, onl.Changes, false)
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
			return written(outMain, outOnline)
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
		history, err := rawHistory(t.Dialect, append(slices.Clone(files), ranFiles(outMain, outOnline)...))
		if err != nil {
			return nil, nil, err
		}
		if main, onl, err = planStep(ctx, p, got, want, history, name, opts); err != nil {
			return nil, nil, err
		}
		if main == nil && (onl == nil || len(onl.Changes) == 0) {
			if len(left) == 0 {
				return written(outMain, outOnline)
			}
			return nil, nil, proofError(t, failures, left)
		}
	}
}

// written are the files that hold what ran: nil when nothing did.
func written(main, onl *migrate.Plan) (*migrate.Plan, *migrate.Plan, error) {
	if main == nil || len(main.Changes) == 0 {
		main, onl = onl, nil
	}
	if main == nil || len(main.Changes) == 0 {
		return nil, nil, nil
	}
	if onl != nil && len(onl.Changes) == 0 {
		onl = nil
	}
	return main, onl, nil
}

// onlineOf is an empty online file (run without a transaction) named as
// plan.
func onlineOf(plan *migrate.Plan) *migrate.Plan {
	return &migrate.Plan{Name: plan.Name, Version: plan.Version, Directives: []string{online.TxModeNone}}
}

// noTx reports whether a file runs outside a transaction.
func noTx(plan *migrate.Plan) bool { return slices.Contains(plan.Directives, online.TxModeNone) }

// ranFiles are the statements that ran, as files, for the raw blocks they
// hold.
func ranFiles(plans ...*migrate.Plan) []migrate.File {
	var out []migrate.File
	for _, plan := range plans {
		if plan == nil || len(plan.Changes) == 0 {
			continue
		}
		if b, err := Format(plan); err == nil {
			out = append(out, migrate.NewLocalFile(fmt.Sprintf("proof_%d.sql", len(out)), b))
		}
	}
	return out
}

func proofError(t Target, failures []proofFailure, left []Difference) error {
	e := &ProofError{Env: t.Env.Name, Dialect: t.Dialect.Name(), Left: left}
	if n := len(failures); n > 0 {
		f := failures[n-1]
		e.Change, e.Stmt, e.Err = f.change.Comment, f.stmt, f.err
	}
	return e
}

// runChanges runs changes on conn, in one transaction when tx is set, and
// returns those that ran; a change whose statement fails is left out (in
// a transaction, rolled back and run again without it) and returned as a
// failure. An error is one of the connection, not of a statement.
func runChanges(ctx context.Context, conn *sql.Conn, p *Planned, changes []*migrate.Change, tx bool) (ran []*migrate.Change, fails []proofFailure, err error) {
	todo := slices.Clone(changes)
	for {
		var on interface {
			ExecContext(context.Context, string, ...any) (sql.Result, error)
		} = conn
		var txn *sql.Tx
		if tx {
			if txn, err = conn.BeginTx(ctx, nil); err != nil {
				return nil, nil, err
			}
			on = txn
		}
		ran = ran[:0]
		failedAt := -1
		for i, c := range todo {
			stmts, err := p.Target.Dialect.ScanStmts(terminated(c.Cmd))
			if err != nil {
				return nil, nil, fmt.Errorf("proving the plan: %w", err)
			}
			var f *proofFailure
			for _, s := range stmts {
				if _, err := on.ExecContext(ctx, s.Text); err != nil {
					if ctx.Err() != nil || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
						if txn != nil {
							txn.Rollback()
						}
						return nil, nil, err
					}
					f = &proofFailure{change: c, stmt: s.Text, err: err}
					break
				}
			}
			if f != nil {
				fails = append(fails, *f)
				if tx {
					failedAt = i
					break
				}
				continue
			}
			ran = append(ran, c)
		}
		if txn == nil {
			return ran, fails, nil
		}
		if failedAt < 0 {
			if err := txn.Commit(); err != nil {
				return nil, nil, err
			}
			return ran, fails, nil
		}
		txn.Rollback()
		todo = slices.Delete(todo, failedAt, failedAt+1)
	}
}

// terminated ends a statement with a semicolon, as the file holds it.
func terminated(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if strings.HasSuffix(cmd, ";") {
		return cmd
	}
	return cmd + ";"
}
