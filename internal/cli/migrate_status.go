package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/cli/report"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/migration/lifecycle"
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

Versions that this env's directory has and another dialect's env lacks, or
the other way round, are listed (every migration has one version in every
dialect; such a version is a file added by hand to one directory, a change one
dialect had nothing to do for, or a merge not rebased); they do not change the
exit code.

--format json prints the same as one JSON object: env, dir, url, state
(up-to-date, pending or failed), current_version, applied, partial, pending,
not_clean, unpaired.

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
			if st.Unpaired, err = a.unpaired(t); err != nil {
				return err
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

// unpaired compares t's directory with those of atlas.hcl's other envs.
func (a *App) unpaired(t migration.Target) ([]lifecycle.Unpaired, error) {
	cfg, diags := atlasconf.Load(a.migrate.config, a.migrate.vars)
	if diags.HasErrors() {
		return nil, nil // reported by targets() already
	}
	all, err := migration.Targets(cfg, nil)
	if err != nil {
		return nil, nil // an env whose dialect is unknown has no directory to compare
	}
	return lifecycle.UnpairedVersions(t, all)
}
