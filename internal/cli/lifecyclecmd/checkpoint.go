package lifecyclecmd

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/lifecycle"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Checkpoint is `migrate checkpoint NAME`.
func Checkpoint(h *Host) *cobra.Command {
	var noCache bool
	cmd := &cobra.Command{
		Use:   "checkpoint NAME",
		Short: "Write a checkpoint file holding the directory's whole state, in every dialect",
		Long: `Write migrations/<dialect>/<version>_NAME.sql in every env's directory (all by
default), with one version, in Atlas's checkpoint format: the file starts with
-- atlas:checkpoint NAME and holds the whole state of the directory, which is
the env's generated DDL. atlas.sum is rewritten.

A new database starts from the latest checkpoint (migrate apply and the Atlas
CLI's executor run it and the files after it); a database that applied the
files before it goes on after it and never runs it. migrate diff replays
from the latest checkpoint, so long histories replay in the time of one file.

The directories must be in step with the model first (migrate diff finds
nothing; else exit 1). After writing, the diff is run again, replayed from
the checkpoint, and must find nothing either; otherwise nothing is kept.

` + h.ExitCodes,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := migration.ValidName(args[0]); err != nil {
				return h.Usage(err)
			}
			targets, err := h.Targets()
			if err != nil {
				return err
			}
			model, err := h.Model()
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			dev := &scratch.Dev{Progress: h.Stderr}
			defer dev.Close()
			written, err := lifecycle.Checkpoint(ctx, dev, scratch.CacheUnless(noCache), targets, model, args[0], time.Now())
			if err != nil {
				var behind *lifecycle.BehindError
				if errors.As(err, &behind) {
					return h.Findings("Error: " + err.Error())
				}
				return h.MigrationError(err)
			}
			for _, w := range written {
				fmt.Fprintf(h.Stdout, "wrote %s\n", w)
			}
			return nil
		},
	}
	h.EnvFlag(cmd)
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "replay the directory even when an earlier run found it up to date")
	return cmd
}
