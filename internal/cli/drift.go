package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

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
				writeGitHub(a.Stdout, reports)
			default:
				writeText(a.Stdout, reports, a.useColor(a.Stdout))
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

var statusWord = map[int]string{drift.NoDrift: "no drift", drift.Drift: "DRIFT", drift.CouldNotDo: "COULD NOT CHECK"}

func writeText(w io.Writer, reports []*drift.Report, color bool) {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(w)
		}
		word := statusWord[r.Status]
		switch r.Status {
		case drift.NoDrift:
			word = paint("32", word)
		case drift.Drift:
			word = paint("33;1", word)
		default:
			word = paint("31;1", word)
		}
		fmt.Fprintf(w, "%s (%s, env %s): %s\n", r.Target, r.Dialect, r.Env, word)
		if r.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", r.Error)
			continue
		}
		version := r.Version
		if version == "" {
			version = "none (no migration applied)"
		}
		fmt.Fprintf(w, "  version: %s\n", version)
		if r.Partial != nil {
			fmt.Fprintf(w, "  %s: migration %s stopped after %d of %d statements: %s\n", paint("33", "partly applied"), r.Partial.Version, r.Partial.Applied, r.Partial.Total, r.Partial.Error)
		}
		if len(r.Pending) > 0 {
			fmt.Fprintf(w, "  pending: %d migration(s): %s\n", len(r.Pending), strings.Join(r.Pending, ", "))
		}
		for _, s := range r.ServerWarnings {
			fmt.Fprintf(w, "  %s: %s\n", paint("33", "server"), s)
		}
		for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
			if c == nil {
				continue
			}
			label := map[string]string{"migrations": "against the migrations at its version", "model": "against schema.hcl"}[c.Against]
			if len(c.Findings) == 0 {
				fmt.Fprintf(w, "  %s: no drift\n", label)
				continue
			}
			fmt.Fprintf(w, "  %s: %d difference(s)\n", label, len(c.Findings))
			for _, f := range c.Findings {
				fmt.Fprintf(w, "    - %s\n", f.Describe())
			}
			fmt.Fprintf(w, "    SQL that would bring it back:\n")
			for _, s := range c.Fix {
				fmt.Fprintf(w, "      %s\n", paint("36", strings.ReplaceAll(s, "\n", "\n      ")))
			}
		}
	}
}

// writeGitHub writes workflow annotations: one per finding or failure.
func writeGitHub(w io.Writer, reports []*drift.Report) {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	for _, r := range reports {
		title := esc.Replace(fmt.Sprintf("drift: %s (%s)", r.Target, r.Env))
		if r.Error != "" {
			fmt.Fprintf(w, "::error title=%s::could not check: %s\n", title, esc.Replace(r.Error))
			continue
		}
		for _, s := range r.ServerWarnings {
			fmt.Fprintf(w, "::error title=%s::%s\n", title, esc.Replace(s))
		}
		if len(r.Pending) > 0 {
			fmt.Fprintf(w, "::notice title=%s::%d pending migration(s): %s\n", title, len(r.Pending), esc.Replace(strings.Join(r.Pending, ", ")))
		}
		for _, c := range []*drift.Comparison{r.Migrations, r.Model} {
			if c == nil {
				continue
			}
			for _, f := range c.Findings {
				fmt.Fprintf(w, "::error title=%s::against %s: %s\n", title, c.Against, esc.Replace(f.Describe()))
			}
		}
		if r.Status == drift.NoDrift {
			fmt.Fprintf(w, "::notice title=%s::no drift\n", title)
		}
	}
}
