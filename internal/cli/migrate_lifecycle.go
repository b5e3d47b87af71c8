package cli

import (
	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/cli/lifecyclecmd"
	"github.com/schemagen/schemagen/internal/migration"
)

func init() {
	for _, c := range []func(*lifecyclecmd.Host) *cobra.Command{lifecyclecmd.Down, lifecyclecmd.Set, lifecyclecmd.Checkpoint, lifecyclecmd.Rebase} {
		migrateCommands = append(migrateCommands, func(a *App) *cobra.Command { return c(a.lifecycleHost()) })
	}
}

// lifecycleHost gives the lifecycle commands (down, set, checkpoint,
// rebase) the flags, resolution and error sorting of the other migrate
// commands.
func (a *App) lifecycleHost() *lifecyclecmd.Host {
	return &lifecyclecmd.Host{
		Stdout: a.Stdout, Stderr: a.Stderr, ExitCodes: exitCodes,
		EnvFlag: func(cmd *cobra.Command) { envFlag(cmd, a, true) },
		DatabaseFlags: func(cmd *cobra.Command) func(bool) ([]lifecyclecmd.Job, error) {
			var f targetFlags
			f.registerMany(cmd, a)
			return func(all bool) ([]lifecyclecmd.Job, error) {
				jobs, err := a.applyTargets(&f, all)
				var out []lifecyclecmd.Job
				for _, j := range jobs {
					out = append(out, lifecyclecmd.Job{Target: j.target, URL: j.url})
				}
				return out, err
			}
		},
		Targets: a.targets,
		Model: func() (migration.Model, error) {
			r, _, err := a.compile(false)
			if err != nil {
				return nil, err
			}
			return migration.Model(r.Outputs), nil
		},
		Findings:       func(msg string) error { return findings{msg} },
		Usage:          func(err error) error { return usageError{err} },
		DatabaseError:  a.databaseError,
		MigrationError: a.migrationError,
	}
}
