package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/cli/report"
	"github.com/schemagen/schemagen/internal/migration/deploy"
)

func (a *App) migrateStatusCmd() *cobra.Command {
	var (
		target targetFlags
		format string
	)
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show which migration files an env's database has applied and which are pending",
		Long: `Read the database's atlas_schema_revisions (the Atlas CLI's table) and compare
it with the env's migration directory: the current version, the files applied,
the files pending, and a file the last apply left incomplete, with its error
and the failed statement. The database is --url, else the env's url in
atlas.hcl. Nothing is written, not even the revisions table.

--format json prints the same as one JSON object: env, dir, url, state
(up-to-date, pending or failed), current_version, applied, partial, pending,
not_clean.

Exit 0 means every file is applied. Exit 1: files are pending or the last
apply failed (the report says which), or the directory does not match
atlas.sum. Exit 2: the database cannot be reached or read, or a usage error.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "text" && format != "json" {
				return usageError{fmt.Errorf("--format %q: want text or json", format)}
			}
			t, rawURL, err := a.target(&target)
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			st, err := deploy.ReadStatus(ctx, t, rawURL)
			if err != nil {
				return a.databaseError(err, rawURL)
			}
			if format == "json" {
				enc := json.NewEncoder(a.Stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(st); err != nil {
					return err
				}
			} else {
				report.Status(a.Stdout, st)
			}
			if st.State != deploy.StateUpToDate {
				return findings{}
			}
			return nil
		},
	}
	target.register(cmd, a)
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}
