// Package lifecyclecmd is the command line of the migration directory over
// the years: `migrate down`, `migrate set`, `migrate checkpoint` and
// `migrate rebase`, each acting on every dialect at one version. The work is
// packages deploy's and lifecycle's; the CLI around it (flags shared with
// the other migrate commands, exit codes, error sorting) is given as a
// Host, so that these commands stand apart from package cli.
package lifecyclecmd

import (
	"context"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/migration"
)

// Host is what the commands take from the CLI around them.
type Host struct {
	Stdout, Stderr io.Writer
	// ExitCodes is the text on exit codes every command's help ends with.
	ExitCodes string
	// EnvFlag registers --env (repeatable; all envs when none).
	EnvFlag func(cmd *cobra.Command)
	// DatabaseFlags registers --env (repeatable) and --url and returns the
	// resolver of the envs' databases: --all, else the envs named.
	DatabaseFlags func(cmd *cobra.Command) func(all bool) ([]Job, error)
	// Targets resolves the envs --env names (all when none).
	Targets func() ([]migration.Target, error)
	// Model compiles the model (--schema).
	Model func() (migration.Model, error)
	// Findings is an error that exits 1 with msg; Usage one that exits 2.
	Findings func(msg string) error
	Usage    func(err error) error
	// DatabaseError and MigrationError sort the errors of a database and of
	// the directory as the other migrate commands do.
	DatabaseError  func(err error, rawURL string) error
	MigrationError func(err error) error
}

// Job is one env with its database's URL.
type Job struct {
	Target migration.Target
	URL    string
}

func envNames(jobs []Job) string {
	var names []string
	for _, j := range jobs {
		names = append(names, j.Target.Env.Name)
	}
	return strings.Join(names, ", ")
}

// interruptible returns a context cancelled by Ctrl-C (SIGINT) or SIGTERM.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func orNone(v string) string {
	if v == "" {
		return "none"
	}
	return v
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
