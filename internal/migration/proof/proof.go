// Package proof is how migrate diff proves every file before writing
// it: the file runs on the scratch database that holds the directory's
// state, as migrate apply runs it (on PostgreSQL the main file in one
// transaction, the online file without; on TiDB statement by statement,
// Run), and the result is compared with the generated DDL's state
// (Differences, also drift's and the plan oracle's comparison). A plan
// that fails or falls short converges:
//
//   - a statement the database refuses is left out (in a transaction, the
//     file runs again without it), as a DROP of a key or index that a
//     column's drop already removed;
//   - what the database then still lacks is planned again from the state
//     it reached and run after the rest, which orders a statement after
//     what it needs;
//
// for a bounded number of plans (package migration's prove). The files
// written are the statements that ran, in the order they ran. A plan that
// does not converge is refused (an *Error), and nothing is written.
package proof

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/online"
)

// Error is a migration that migrate diff could not prove: its
// statements fail on a database holding the directory's state, or do not
// reach the model, however planned again.
type Error struct {
	Env, Dialect string
	// Change is what the statement makes (its comment), Stmt the statement
	// and Err the database's error; Stmt is "" when every statement ran and
	// the result still differs.
	Change, Stmt string
	Err          error
	// Left is what still differs from the model.
	Left []Difference
}

func (e *Error) Error() string {
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
func (e *Error) Unwrap() error { return e.Err }

// Failure is a statement the database refused: the change it belongs to
// (a statement planned, whose comment says what it makes), the statement,
// the database's error.
type Failure struct {
	Change *migrate.Change
	Stmt   string
	Err    error
}

// Run runs changes on conn, each split into statements by scan (the
// dialect's scanner, as the file will be), in one transaction when tx is
// set, and returns those that ran. A change a statement of which fails is
// left out (in a transaction, rolled back, and the changes run again
// without it) and returned as a Failure. An error is one of the
// connection, not of a statement.
func Run(ctx context.Context, conn *sql.Conn, scan func(string) ([]*migrate.Stmt, error), changes []*migrate.Change, tx bool) (ran []*migrate.Change, fails []Failure, err error) {
	units := make([][]string, len(changes))
	for i, c := range changes {
		text := strings.TrimSpace(c.Cmd)
		if !strings.HasSuffix(text, ";") {
			text += ";"
		}
		stmts, err := scan(text)
		if err != nil {
			return nil, nil, fmt.Errorf("proving the plan: %w", err)
		}
		for _, s := range stmts {
			units[i] = append(units[i], s.Text)
		}
	}
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
		for k, c := range todo {
			var f *Failure
			for _, s := range units[slices.Index(changes, c)] {
				if _, err := on.ExecContext(ctx, s); err != nil {
					if ctx.Err() != nil || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
						if txn != nil {
							txn.Rollback()
						}
						return nil, nil, err
					}
					f = &Failure{Change: c, Stmt: s, Err: err}
					break
				}
			}
			if f == nil {
				ran = append(ran, c)
				continue
			}
			fails = append(fails, *f)
			if tx {
				failedAt = k
				break
			}
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

// Written are the files that hold what ran, main and online: nil when
// nothing did, the online file alone as main when the main file is empty.
func Written(main, onl *migrate.Plan) (*migrate.Plan, *migrate.Plan) {
	if main == nil || len(main.Changes) == 0 {
		main, onl = onl, nil
	}
	if main == nil || len(main.Changes) == 0 {
		return nil, nil
	}
	if onl != nil && len(onl.Changes) == 0 {
		onl = nil
	}
	return main, onl
}

// OnlineOf is an empty online file (run without a transaction) named as
// plan.
func OnlineOf(plan *migrate.Plan) *migrate.Plan {
	return &migrate.Plan{Name: plan.Name, Version: plan.Version, Directives: []string{online.TxModeNone}}
}

// NoTx reports whether a file runs outside a transaction.
func NoTx(plan *migrate.Plan) bool { return slices.Contains(plan.Directives, online.TxModeNone) }

// Files are the statements that ran, as migration files, for the raw
// blocks' marks they hold.
func Files(plans ...*migrate.Plan) []migrate.File {
	var out []migrate.File
	for _, plan := range plans {
		if plan == nil || len(plan.Changes) == 0 {
			continue
		}
		if fs, err := migrate.DefaultFormatter.Format(plan); err == nil && len(fs) == 1 {
			out = append(out, migrate.NewLocalFile(fmt.Sprintf("proof_%d.sql", len(out)), fs[0].Bytes()))
		}
	}
	return out
}
