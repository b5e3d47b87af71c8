package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/cli/report"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

func (a *App) driftCmd() *cobra.Command {
	var (
		urls     []string
		targets  string
		format   string
		parallel int
		timeout  time.Duration
		ignore   []string
		noCache  bool
	)
	cmd := &cobra.Command{
		Use:   "drift --env E [--url U ...] [--targets FILE]",
		Short: "Report whether live databases match the migrations and the model",
		Long: `For each target database of the env: inspect its schema read-only, read its
applied version from atlas_schema_revisions, and compare it with (a) the state
the migration directory produces at that version and (b) the generated DDL of
schema.hcl. Reports objects missing, extra or different (tables, columns with
type, nullability and default, indexes, foreign keys, CHECKs), migrations
pending or partly applied, a TiDB whose CHECKs are switched off, and the SQL
that would bring the database back. Drift never writes to a target.

Targets come from --url (repeatable), lines of --targets FILE (# comments),
or the env's url. They are checked concurrently, --parallel at a time, each
within --timeout. The revisions table and --ignore patterns are left out.
The expected states are built once per run on the dev database and kept, by
the hash of the files they come from, in the user cache directory.

Formats: text (coloured on a terminal), json (an array of reports, see
docs/drift.md), github (workflow annotations).

Exit codes, per target in the output and overall (the highest):
  0  no drift
  1  drift
  2  could not check (unreachable, bad credentials, usage error)`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(a.migrate.envs) != 1 {
				return usageError{fmt.Errorf("drift needs exactly one --env")}
			}
			ts, err := a.targets()
			if err != nil {
				return err
			}
			t := ts[0]
			list := append([]string(nil), urls...)
			if targets != "" {
				more, err := readTargets(targets)
				if err != nil {
					return usageError{err}
				}
				list = append(list, more...)
			}
			if len(list) == 0 && t.Env.URL != "" {
				list = []string{t.Env.URL}
			}
			if len(list) == 0 {
				return usageError{fmt.Errorf("no target: give --url, --targets, or a url for env %s in %s", t.Env.Name, a.migrate.config)}
			}
			if format != "text" && format != "json" && format != "github" {
				return usageError{fmt.Errorf("--format is text, json or github")}
			}
			// The model is compiled, and the generated file must be what it
			// compiles to: drift against a stale file would mislead.
			compiled, _, err := a.compile(false)
			if err != nil {
				return err
			}
			model := migration.Model(compiled.Outputs)
			if _, err := migration.Generated(t, model); err != nil {
				return a.migrationError(err)
			}
			ctx, stop := interruptible()
			defer stop()
			dev := &scratch.Dev{Progress: a.Stderr}
			defer dev.Close()
			cache := scratch.CacheUnless(noCache)
			reports := drift.Check(ctx, drift.Options{Target: t, Dev: dev, Ignore: ignore, Timeout: timeout, Parallel: parallel, Cache: cache, Model: model}, list)
			worst := 0
			for _, r := range reports {
				worst = max(worst, r.Status)
			}
			switch format {
			case "json":
				enc := json.NewEncoder(a.Stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(reports); err != nil {
					return err
				}
			case "github":
				report.DriftGitHub(a.Stdout, reports)
			default:
				report.Drift(a.Stdout, reports, a.useColor(a.Stdout))
			}
			switch worst {
			case drift.Drift:
				return findings{""}
			case drift.CouldNotDo:
				return exitError{code: ExitError}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&a.migrate.config, "config", "atlas.hcl", "the project configuration")
	cmd.Flags().StringToStringVar(&a.migrate.vars, "var", nil, "set an atlas.hcl variable (name=value)")
	cmd.Flags().StringSliceVar(&a.migrate.envs, "env", nil, "the env of atlas.hcl whose migrations and model the targets should match")
	cmd.Flags().StringArrayVar(&urls, "url", nil, "a target database URL (repeatable)")
	cmd.Flags().StringVar(&targets, "targets", "", "a file of target URLs, one a line")
	cmd.Flags().StringVar(&format, "format", "text", "text, json or github")
	cmd.Flags().IntVar(&parallel, "parallel", 4, "targets checked at once")
	cmd.Flags().DurationVar(&timeout, "timeout", 60*time.Second, "time allowed for each target")
	cmd.Flags().StringSliceVar(&ignore, "ignore", nil, "table name patterns to leave out (globs, repeatable)")
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "rebuild the expected states on the dev database even when an earlier run stored them")
	return cmd
}

func readTargets(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out, s.Err()
}
