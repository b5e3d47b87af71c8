package migration

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schemagen/schemagen/internal/scratch"
)

// ReplayError is a file of the migration directory that a clean dev
// database cannot run. Every command that replays the directory (migrate
// diff, migrate lint, drift) stops at it until the file is repaired, so it
// says how.
type ReplayError struct {
	Env string // the env whose directory it is
	*scratch.ExecError
}

func (e *ReplayError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "env %s: the migration directory does not replay on a clean dev database:\n%s: statement %d failed: %v\n\n", e.Env, e.Source, e.Stmt, e.Err)
	for _, l := range strings.Split(strings.TrimSpace(e.SQL), "\n") {
		b.WriteString("    " + l + "\n")
	}
	fmt.Fprintf(&b, "\nNo migration can be planned or linted for env %s until the file replays. Repair it:\n"+
		"  - if no database has applied it (`schemagen migrate status --env %s --url URL` lists what each one applied),\n"+
		"    remove it, or fix it, then run `schemagen migrate hash` and `schemagen migrate diff NAME` again;\n"+
		"  - if a database has applied it, fix the statement so that it runs on an empty database too (a guard\n"+
		"    that needs rows, an object made outside migrations), keeping what it did there, then run `schemagen migrate hash`.",
		e.Env, e.Env)
	return b.String()
}

func (e *ReplayError) Unwrap() error { return e.ExecError }

// ReplayFailure makes a statement that failed while replaying the
// directory of env into a *ReplayError; other errors are returned as
// they are.
func ReplayFailure(env string, err error) error {
	var ee *scratch.ExecError
	if errors.As(err, &ee) {
		return &ReplayError{Env: env, ExecError: ee}
	}
	return err
}
