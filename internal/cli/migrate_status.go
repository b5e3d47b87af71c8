package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/migration"
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
			st, err := migration.ReadStatus(ctx, t, rawURL)
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
				writeStatus(a.Stdout, st)
			}
			if st.State != migration.StateUpToDate {
				return findings{}
			}
			return nil
		},
	}
	target.register(cmd, a)
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// writeStatus prints a status for people.
func writeStatus(w io.Writer, st *migration.Status) {
	fmt.Fprintf(w, "env %s: %s on %s\n", st.Env, st.Dir, st.URL)
	state := map[string]string{
		migration.StateUpToDate: "UP TO DATE",
		migration.StatePending:  "PENDING",
		migration.StateFailed:   "FAILED",
	}[st.State]
	fmt.Fprintf(w, "  status:          %s\n", state)
	fmt.Fprintf(w, "  current version: %s\n", orNone(st.Current))
	fmt.Fprintf(w, "  applied files:   %d\n", len(st.Applied))
	fmt.Fprintf(w, "  pending files:   %d\n", len(st.Pending))
	width := 0
	for _, f := range append(append([]migration.FileStatus{}, st.Applied...), st.Pending...) {
		width = max(width, len(f.Name))
	}
	if len(st.Applied) > 0 {
		fmt.Fprintln(w, "\nApplied:")
		for _, f := range st.Applied {
			what := countStatements(f.Total)
			if f.Type != "" && f.Type != "applied" {
				what = f.Type
			}
			missing := ""
			if f.Missing {
				missing = "  (file not in the directory)"
			}
			fmt.Fprintf(w, "  %-*s  %-14s  %s%s\n", width, f.Name, what, f.ExecutedAt.Format("2006-01-02 15:04:05 UTC"), missing)
		}
	}
	if p := st.Partial; p != nil {
		if p.Error != "" {
			fmt.Fprintln(w, "\nFailed:")
		} else {
			fmt.Fprintln(w, "\nIncomplete:")
		}
		fmt.Fprintf(w, "  %s  %d of %d statements applied, %s\n", p.Name, p.Applied, p.Total, p.ExecutedAt.Format("2006-01-02 15:04:05 UTC"))
		if p.Error != "" {
			fmt.Fprintf(w, "    error:     %s\n", indentRest(p.Error, "               "))
		}
		if p.ErrorStmt != "" {
			fmt.Fprintf(w, "    statement: %s\n", indentRest(p.ErrorStmt, "               "))
		}
	}
	if len(st.Pending) > 0 {
		fmt.Fprintln(w, "\nPending:")
		for _, f := range st.Pending {
			what := countStatements(f.Total)
			if st.Partial != nil && f.Version == st.Partial.Version && f.Applied > 0 {
				what = fmt.Sprintf("resumes at statement %d of %d", f.Applied+1, f.Total)
			}
			fmt.Fprintf(w, "  %-*s  %s\n", width, f.Name, what)
		}
	}
	if len(st.Unfinished) > 0 {
		fmt.Fprintln(w, "\nLeft by interrupted online statements:")
		for _, u := range st.Unfinished {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
	if st.NotClean != "" {
		fmt.Fprintf(w, "\nThe database has tables but no applied migrations (%s):\nthe first apply needs --baseline VERSION or --allow-dirty.\n", st.NotClean)
	}
}

// indentRest indents the lines of s after the first.
func indentRest(s, indent string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n"+indent)
}
