package lifecyclecmd

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/redact"
)

// Set is `migrate set`.
func Set(h *Host) *cobra.Command {
	var (
		resolve     func(all bool) ([]Job, error)
		lockTimeout time.Duration
		remove      string
		allEnvs     bool
	)
	cmd := &cobra.Command{
		Use:   "set VERSION | set --remove VERSION",
		Short: "Record which migration files a database has applied, running nothing",
		Long: `Edit the database's atlas_schema_revisions, as the Atlas CLI's migrate set does,
without running any statement: every file of the env's directory up to and
including VERSION counts as applied (files after the last revision are
recorded as "resolved"; a failed or incomplete revision of a file up to
VERSION, finished by hand, is marked complete) and every revision after
VERSION is removed, so that the next apply runs the files after it. With
--remove VERSION, that one revision is deleted.

Use it after a hand repair: a file finished or undone by hand, a database
restored from a backup. A VERSION the directory lacks is refused. set holds
the lock migrate apply holds (atlas_migrate_execute) and changes the
revisions in one transaction. --env may be repeated, or --all names every
env: the same version is set on each (the directories share versions).

` + h.ExitCodes,
		Args: cobra.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (len(args) == 1) == (remove != "") {
				return h.Usage(errors.New("give VERSION, or --remove VERSION"))
			}
			jobs, err := resolve(allEnvs)
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			for _, job := range jobs {
				opts := deploy.SetOptions{URL: job.URL, LockTimeout: lockTimeout, Remove: remove, Notices: h.Stderr}
				if len(args) == 1 {
					opts.Version = args[0]
				}
				res, err := deploy.Set(ctx, job.Target, opts)
				if err != nil {
					var unknown *deploy.UnknownVersionError
					if errors.As(err, &unknown) {
						return h.Findings(fmt.Sprintf("Error: env %s: %v", job.Target.Env.Name, err))
					}
					return h.DatabaseError(err, job.URL)
				}
				name := job.Target.Env.Name
				for _, c := range []struct {
					what string
					vs   []string
				}{{"recorded as applied", res.Marked}, {"marked complete", res.Fixed}, {"removed", res.Removed}} {
					if len(c.vs) > 0 {
						fmt.Fprintf(h.Stdout, "env %s: %s: %s\n", name, c.what, strings.Join(c.vs, ", "))
					}
				}
				fmt.Fprintf(h.Stdout, "env %s: %s is at version %s (was %s); nothing was run\n", name, redact.URL(job.URL), orNone(res.To), orNone(res.From))
			}
			return nil
		},
	}

	resolve = h.DatabaseFlags(cmd)
	cmd.Flags().BoolVar(&allEnvs, "all", false, "set every env of atlas.hcl")
	cmd.Flags().DurationVar(&lockTimeout, "lock-timeout", deploy.DefaultLockTimeout, "how long to wait for an apply to the database to finish")
	cmd.Flags().StringVar(&remove, "remove", "", "delete the revision of this version")
	return cmd
}
