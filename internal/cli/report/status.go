// Package report writes what drift and migrate status found, for people
// (text, optionally coloured) and for CI (GitHub workflow annotations).
// The JSON forms are the types' own encodings and need nothing here.
//
// It stands alone because these renderings are the commands' output
// format, which scripts and reviewers read, not the commands' logic: they
// take a finished report and print it, and are tested without running a
// command.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/schemagen/schemagen/internal/migration/deploy"
)

// Status writes a migration status for people.
func Status(w io.Writer, st *deploy.Status) {
	fmt.Fprintf(w, "env %s: %s on %s\n", st.Env, st.Dir, st.URL)
	state := map[string]string{
		deploy.StateUpToDate: "UP TO DATE",
		deploy.StatePending:  "PENDING",
		deploy.StateFailed:   "FAILED",
	}[st.State]
	fmt.Fprintf(w, "  status:          %s\n", state)
	fmt.Fprintf(w, "  current version: %s\n", orNone(st.Current))
	fmt.Fprintf(w, "  applied files:   %d\n", len(st.Applied))
	fmt.Fprintf(w, "  pending files:   %d\n", len(st.Pending))
	width := 0
	for _, f := range append(append([]deploy.FileStatus{}, st.Applied...), st.Pending...) {
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
	if len(st.Unpaired) > 0 {
		fmt.Fprintln(w, "\nVersions one dialect has and the other lacks:")
		for _, u := range st.Unpaired {
			fmt.Fprintf(w, "  %s  env %s has %s; env %s has no file of that version\n", u.Version, u.Has, u.File, u.Lacks)
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
