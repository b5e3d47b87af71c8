package lifecyclecmd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/redact"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Down is `migrate down`.
func Down(h *Host) *cobra.Command {
	var (
		resolve       func(all bool) ([]Job, error)
		lockTimeout   time.Duration
		to            string
		allowDataLoss bool
		dryRun        bool
		allEnvs       bool
	)
	cmd := &cobra.Command{
		Use:   "down [N] | down --to VERSION",
		Short: "Revert the last N applied migrations (or back to a version) on envs' databases",
		Long: `Revert the last N versions the database applied (1 by default), or every
version after --to VERSION. No down files are written or needed: the plan goes
from the database's schema to the state the env's migration directory has at
the target version, both built on the env's dev database.

Before anything runs, the database must have the directory's state at its
current version (else exit 1: repair it, or record what it is with migrate
set), the plan is run on a scratch copy of that state and must reach the
target's state exactly, and its pre-checks run: a plan that drops a table
with rows or a column holding values is refused, naming them, unless
--allow-data-loss is given. Then the plan runs under the lock migrate apply
holds (on PostgreSQL in one transaction with the revisions) and the reverted
files' revisions are removed, as the Atlas CLI's migrate down does; the next
migrate apply runs those files again.

--dry-run prints the plan and what it would drop, and changes nothing.
--env may be repeated, or --all names every env: each env is reverted in
turn, to the same version, and the first that fails stops the run.

` + h.ExitCodes,
		Args: cobra.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			steps := 0
			if len(args) == 1 {
				n, err := strconv.Atoi(args[0])
				if err != nil || n < 1 {
					return h.Usage(fmt.Errorf("N %q: want a number of versions, 1 or more", args[0]))
				}
				if to != "" {
					return h.Usage(errors.New("give N or --to VERSION, not both"))
				}
				steps = n
			}
			jobs, err := resolve(allEnvs)
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			dev := &scratch.Dev{Progress: h.Stderr}
			defer dev.Close()
			for i, job := range jobs {
				t, rawURL := job.Target, job.URL
				opts := deploy.DownOptions{
					URL: rawURL, LockTimeout: lockTimeout, Steps: steps, To: to,
					AllowDataLoss: allowDataLoss, DryRun: dryRun, Dev: dev,
					Progress: h.Stdout, Notices: h.Stderr,
				}
				verb := "reverting"
				if dryRun {
					verb = "dry run: nothing is changed; would revert"
				}
				fmt.Fprintf(h.Stdout, "env %s: %s on %s\n", t.Env.Name, verb, redact.URL(rawURL))
				res, err := deploy.Down(ctx, t, opts)
				if res != nil {
					reportDown(h, t, res)
				}
				if err != nil {
					if rest := len(jobs) - i - 1; rest > 0 {
						fmt.Fprintf(h.Stderr, "schemagen: env %s failed; not reverted: %s\n", t.Env.Name, envNames(jobs[i+1:]))
					}
					return downError(h, err, rawURL)
				}
				if dryRun {
					fmt.Fprintf(h.Stdout, "env %s: would revert %d version%s; the database would be at version %s (is %s)\n", t.Env.Name, len(res.Reverted), plural(len(res.Reverted)), orNone(res.To), orNone(res.From))
				} else {
					fmt.Fprintf(h.Stdout, "env %s: reverted %d version%s; the database is at version %s (was %s)\n", t.Env.Name, len(res.Reverted), plural(len(res.Reverted)), orNone(res.To), orNone(res.From))
				}
			}
			return nil
		},
	}

	resolve = h.DatabaseFlags(cmd)
	cmd.Flags().BoolVar(&allEnvs, "all", false, "revert every env of atlas.hcl")
	cmd.Flags().StringVar(&to, "to", "", "revert every version applied after this one")
	cmd.Flags().BoolVar(&allowDataLoss, "allow-data-loss", false, "drop tables with rows and columns holding values")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "change nothing: print the plan and what it would drop")
	cmd.Flags().DurationVar(&lockTimeout, "lock-timeout", deploy.DefaultLockTimeout, "how long to wait for an apply to the database to finish")
	return cmd
}

func reportDown(h *Host, t migration.Target, res *deploy.DownResult) {
	if len(res.Reverted) > 0 {
		fmt.Fprintf(h.Stdout, "  versions: %s\n", strings.Join(deploy.RevertedNames(t.Env.Dir, res.Reverted), ", "))
	}
	if res.DryRun || len(res.Stmts) == 0 {
		if len(res.Stmts) == 0 {
			fmt.Fprintln(h.Stdout, "  the schema is the target's already: only the revisions change")
		}
		for _, s := range res.Stmts {
			fmt.Fprintf(h.Stdout, "  -> %s;\n", strings.ReplaceAll(s, "\n", "\n     "))
		}
	}
	for _, l := range res.Lost {
		fmt.Fprintf(h.Stdout, "  loses data: %s\n", l)
	}
	for _, f := range res.Found {
		fmt.Fprintf(h.Stdout, "  pre-check: %s\n", f)
	}
}

// downError sorts migrate down's errors as databaseError does.
func downError(h *Host, err error, rawURL string) error {
	var (
		lost    *deploy.DataLossError
		notAt   *deploy.NotAtVersionError
		failed  *deploy.DownError
		replay  *migration.ReplayError
		unknown *deploy.UnknownVersionError
		target  *deploy.DownTargetError
		pre     *deploy.DownPrecheckError
	)
	if errors.As(err, &target) || errors.As(err, &pre) || errors.As(err, &lost) || errors.As(err, &notAt) || errors.As(err, &failed) || errors.As(err, &replay) || errors.As(err, &unknown) {
		return h.Findings("Error: " + redact.Secrets(err.Error(), redact.Password(rawURL)))
	}
	return h.DatabaseError(err, rawURL)
}
