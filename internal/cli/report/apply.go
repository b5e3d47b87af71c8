package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/schemagen/schemagen/internal/migration/deploy"
)

// Apply writes what an apply of env did, or what it applied before err.
func Apply(w io.Writer, env string, res *deploy.ApplyResult, err error) {
	stmts := 0
	for _, f := range res.Files {
		stmts += f.Stmts
	}
	switch {
	case err != nil && len(res.Files) > 0:
		fmt.Fprintf(w, "env %s: %s (%s) applied before the failure; the database is at version %s\n",
			env, countFiles(len(res.Files)), countStatements(stmts), res.To)
	case err != nil:
	case len(res.Files) == 0:
		fmt.Fprintf(w, "env %s: no pending files; %s\n", env, atVersion(res.To))
	default:
		fmt.Fprintf(w, "env %s: applied %s (%s); the database is at version %s (was %s)\n",
			env, countFiles(len(res.Files)), countStatements(stmts), res.To, orNone(res.From))
	}
}

// DryRun writes what an apply of env would do and the pre-checks that
// found rows; quiet leaves out the statements and the files whose checks
// found nothing.
func DryRun(w io.Writer, env string, res *deploy.ApplyResult, quiet bool) {
	stmts := 0
	for _, f := range res.Would {
		stmts += len(f.Stmts)
		if quiet && len(f.Found) == 0 {
			continue
		}
		if f.Skip > 0 {
			fmt.Fprintf(w, "would resume %s at statement %d (an earlier apply stopped there)\n", f.Name, f.Skip+1)
		} else {
			fmt.Fprintf(w, "would apply %s\n", f.Name)
		}
		if !quiet {
			for _, s := range f.Stmts {
				fmt.Fprintf(w, "  -> %s\n", strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n     "))
			}
		}
		for _, found := range f.Found {
			fmt.Fprintf(w, "  pre-check: %s\n", found)
		}
		if f.Later > 0 && !quiet {
			fmt.Fprintf(w, "  (%d pre-check%s run%s when the files before it are applied)\n", f.Later,
				map[bool]string{true: "", false: "s"}[f.Later == 1], map[bool]string{true: "s", false: ""}[f.Later == 1])
		}
	}
	if len(res.Would) == 0 {
		fmt.Fprintf(w, "env %s: dry run: no pending files; %s\n", env, atVersion(res.To))
		return
	}
	fmt.Fprintf(w, "env %s: dry run: would apply %s (%s); the database is at version %s and would be at %s; nothing was changed\n",
		env, countFiles(len(res.Would)), countStatements(stmts), orNone(res.From), res.To)
}

func countFiles(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}

func countStatements(n int) string {
	if n == 1 {
		return "1 statement"
	}
	return fmt.Sprintf("%d statements", n)
}

func orNone(version string) string {
	if version == "" {
		return "none"
	}
	return version
}

func atVersion(version string) string {
	if version == "" {
		return "the database has no migration applied"
	}
	return "the database is at version " + version
}
