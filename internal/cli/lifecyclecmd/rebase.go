package lifecyclecmd

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/lifecycle"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Rebase is `migrate rebase`.
func Rebase(h *Host) *cobra.Command {
	var base string
	cmd := &cobra.Command{
		Use:   "rebase [VERSION...]",
		Short: "After a merge, move this branch's migrations after the merged branch's, in every dialect",
		Long: `After merging the main branch into a branch that has migrations of its own
(git merge main), this branch's versions may come before main's, and both
atlas.sum files conflict. migrate rebase moves this branch's versions after
every other version, in every env's directory (all by default), each version
to one new version in every dialect, in their order (an online file stays one
second after its migration), and rewrites atlas.sum.

This branch's versions are those the directory has and --base (default main)
lacks, read with git; or name them: migrate rebase VERSION.... Versions
already after every other one stay.

Before anything is renamed, every directory, merged and reordered, is
replayed on a clean dev database: a moved file that does not run after
main's (both branches changed the same column, say) stops the rebase, naming
the file, the statement and the database's error, and nothing is moved.
Then, as migrate diff --check, it says whether the merged model (run
schemagen generate first) needs a migration of its own.

` + h.ExitCodes,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, v := range args {
				if strings.Trim(v, "0123456789") != "" || v == "" {
					return h.Usage(fmt.Errorf("version %q: a migration version is digits (20260101120000)", v))
				}
			}
			targets, err := h.Targets()
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			dev := &scratch.Dev{Progress: h.Stderr}
			defer dev.Close()
			moved, err := lifecycle.Rebase(ctx, dev, targets, lifecycle.RebaseOptions{Base: base, Versions: args, Now: time.Now()})
			if err != nil {
				var re *lifecycle.RebaseError
				if errors.As(err, &re) {
					return h.Findings("Error: " + err.Error())
				}
				return h.MigrationError(err)
			}
			if len(moved) == 0 {
				fmt.Fprintln(h.Stdout, "nothing to move: this branch's versions come after every other; atlas.sum rewritten")
			}
			for _, m := range moved {
				fmt.Fprintf(h.Stdout, "moved %s to %s:\n", m.From, m.To)
				for _, f := range m.Files {
					fmt.Fprintf(h.Stdout, "  %s\n", f)
				}
			}
			// As migrate diff --check: does the merged model need a migration?
			model, err := h.Model()
			if err != nil {
				fmt.Fprintln(h.Stderr, "the merged model does not compile; fix it, run schemagen generate, then migrate diff --check")
				return nil
			}
			planned, err := migration.Plan(ctx, dev, nil, targets, model, "rebase")
			if err != nil {
				fmt.Fprintf(h.Stderr, "cannot tell whether the merged model needs a migration: %v\n", err)
				return nil
			}
			for _, p := range planned {
				if p.Plan != nil || p.Online != nil {
					fmt.Fprintf(h.Stdout, "%s: the merged model has changes no migration holds; run `schemagen migrate diff NAME`\n", p.Target.Env.Name)
				} else {
					fmt.Fprintf(h.Stdout, "%s: the rebased directory is in step with the model\n", p.Target.Env.Name)
				}
			}
			return nil
		},
	}
	h.EnvFlag(cmd)
	cmd.Flags().StringVar(&base, "base", "main", "the git ref merged in: the versions it lacks are this branch's")
	return cmd
}
