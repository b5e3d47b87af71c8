package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/lint"
	"github.com/schemagen/schemagen/internal/scratch"
)

func init() {
	migrateCommands = append(migrateCommands, (*App).migrateLintCmd)
}

func (a *App) migrateLintCmd() *cobra.Command {
	var (
		gitBase string
		latest  int
		format  string
		noCache bool
	)
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Lint new migration files: destructive, data-dependent and non-portable changes",
		Long: `For each env (all by default): replay the migration directory on a clean dev
database, statement by statement for the files linted, and report what each
statement does that may lose data, fail on existing rows, break running
applications or not mean the same on the env's dialect: Atlas's analyzers
(DS1xx destructive, MF1xx data-dependent, CD1xx constraint drops, BC1xx
backward-incompatible, MY1xx TiDB) and schemagen's own rules (SG1xx: CHECKs
that TiDB would ignore, NOT NULL columns added to tables with rows, another
dialect's syntax, data statements to review, nolint comments). Every code is
described in docs/lint.md.

The files linted are those of the latest migration (--latest N for more; a
migration's NAME_online file counts with it), or those added or
changed in the env's migration directory since a git ref (--git-base
origin/main), untracked files included.

A reviewed finding is accepted with a comment line in the migration file,
directly above the statement (or in the file's header, followed by a blank
line, for the whole file), with a reason:

  -- schemagen:nolint DS103 the column is unused since v2.3

Suppressed findings are shown but do not fail. Formats: text (file:line: CODE
[severity] message), json, github (workflow annotations) and sarif (2.1.0).

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("git-base") && cmd.Flags().Changed("latest") {
				return usageError{errors.New("--git-base and --latest exclude each other")}
			}
			if gitBase == "" && latest < 1 {
				return usageError{fmt.Errorf("--latest %d: lint at least one file", latest)}
			}
			if !slices.Contains(lint.Formats, format) {
				return usageError{fmt.Errorf("--format %q: want %s", format, strings.Join(lint.Formats, ", "))}
			}
			targets, err := a.targets()
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			dev := &scratch.Dev{Progress: a.Stderr}
			defer dev.Close()
			report, err := lint.Run(ctx, dev, targets, lint.Options{GitBase: gitBase, Latest: latest, Cache: scratch.CacheUnless(noCache)})
			if err != nil {
				return a.migrationError(err)
			}
			if format != "json" {
				for _, n := range report.Notes {
					fmt.Fprintf(a.Stderr, "schemagen: note: %s\n", n)
				}
			}
			if err := lint.Write(a.Stdout, report, format); err != nil {
				return err
			}
			if errs, _, _ := report.Counts(); errs > 0 {
				return findings{}
			}
			return nil
		},
	}
	envFlag(cmd, a, true)
	cmd.Flags().StringVar(&gitBase, "git-base", "", "lint the files added or changed since this git ref")
	cmd.Flags().IntVar(&latest, "latest", 1, "lint the latest N migrations (each with its _online file)")
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "replay every file before those linted, even when an earlier run kept their state")
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(lint.Formats, ", "))
	return cmd
}
