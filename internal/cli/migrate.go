package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/migration/portable"
	"github.com/schemagen/schemagen/internal/scratch"
)

// migrateCommands are the subcommands of `schemagen migrate`; each file that
// defines one registers it here.
var migrateCommands []func(*App) *cobra.Command

// migrateFlags are shared by the migrate subcommands.
type migrateFlags struct {
	config string
	envs   []string
	vars   map[string]string
}

func (a *App) migrateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Versioned migrations for every dialect, in Atlas's directory format",
		Long: `Plan, check, lint and apply versioned migration files, one directory per
dialect (migrations/postgres, migrations/tidb), each with an atlas.sum that the
Atlas CLI reads. The envs, dev databases and directories come from atlas.hcl.

` + exitCodes,
	}
	cmd.PersistentFlags().StringVar(&a.migrate.config, "config", atlasconf.DefaultFile, "the project configuration")
	cmd.PersistentFlags().StringToStringVar(&a.migrate.vars, "var", nil, "set an atlas.hcl variable (name=value)")
	for _, sub := range migrateCommands {
		cmd.AddCommand(sub(a))
	}
	return cmd
}

// targets loads atlas.hcl and resolves the --env flags (all envs when none).
func (a *App) targets() ([]migration.Target, error) {
	cfg, diags := atlasconf.Load(a.migrate.config, a.migrate.vars)
	if diags.HasErrors() {
		a.printDiags(cfg.Files, diags)
		return nil, findings{fmt.Sprintf("%s is invalid.", a.migrate.config)}
	}
	t, err := migration.Targets(cfg, a.migrate.envs)
	if err != nil {
		return nil, usageError{err}
	}
	return t, nil
}

func envFlag(cmd *cobra.Command, a *App, many bool) {
	if many {
		cmd.Flags().StringSliceVar(&a.migrate.envs, "env", nil, "env(s) of atlas.hcl to work on (default: all)")
		return
	}
	cmd.Flags().StringSliceVar(&a.migrate.envs, "env", nil, "env of atlas.hcl to work on")
	cmd.MarkFlagRequired("env")
}

// interruptible returns a context cancelled by Ctrl-C (SIGINT) or SIGTERM.
// Until stop is called, further signals are caught too: an apply that
// cancels its statement on the server waits for it to stop.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

func init() {
	migrateCommands = append(migrateCommands, (*App).migrateDiffCmd, (*App).migrateHashCmd, (*App).migrateNewCmd)
}

func (a *App) migrateDiffCmd() *cobra.Command {
	var noCache, check, plain bool
	cmd := &cobra.Command{
		Use:   "diff NAME | diff --check",
		Short: "Write the migration from the directory's state to the generated DDL",
		Long: `For each env (all by default): replay the migration directory on a clean dev
database, load the generated DDL into another, let Atlas diff and plan the
change, and write migrations/<dialect>/<version>_NAME.sql, with the same
version in every dialect, then update atlas.sum. With no change, say so and
write nothing. A directory that does not match its atlas.sum is refused.

The model (--schema) is compiled first: when the generated files are not what
it compiles to, nothing is planned (exit 1; run ` + "`schemagen generate`" + `).
The statements written hold the generated DDL's expression texts (CHECKs,
index expressions and predicates, defaults), so that the Atlas CLI, replaying
the directory, finds the same schema as from the env's src.

With --check (the CI gate), nothing is written and NAME is optional: exit 0
when the directories are up to date, 1 when the model has changes that no
migration holds, with the statements a migration would hold.

Plans are online by default: every statement has its hazards (locks, scans,
rewrites, failures on existing rows, data lost) as comments; on PostgreSQL
indexes are built CONCURRENTLY in a second file marked -- atlas:txmode none,
CHECKs and foreign keys added NOT VALID and validated there, NOT NULL set
through a validated CHECK, under lock_timeout. --plain writes Atlas's plan
(see docs/migrations.md).

Where an env's dev URL is empty, an embedded dev database is started and
removed afterwards. Data changes (backfills, checks on existing rows) go into
the written file by hand; then run ` + "`schemagen migrate hash`" + `.

` + exitCodes,
		Args: cobra.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			if !check || name != "" {
				if err := migration.ValidName(name); err != nil {
					return usageError{err}
				}
			}
			targets, err := a.targets()
			if err != nil {
				return err
			}
			r, _, err := a.compile(false)
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			dev := &scratch.Dev{Progress: a.Stderr}
			defer dev.Close()
			cache := scratch.CacheUnless(noCache)
			planned, err := migration.Plan(ctx, dev, cache, targets, migration.Model(r.Outputs), name, migration.Plain(plain))
			if err != nil {
				return a.migrationError(a.generatedFailures(a.refusals(err, r.Schema), r.Schema, targets))
			}
			if check {
				return a.reportCheck(planned)
			}
			written, err := migration.Write(planned, name, time.Now(), cache)
			if err != nil {
				return err
			}
			for _, p := range planned {
				if p.Plan == nil {
					fmt.Fprintf(a.Stdout, "%s: no changes; %s is up to date with %s%s\n", p.Target.Env.Name, p.Dir.Path(), p.Target.Env.Src, cachedNote(p))
				}
			}
			for _, w := range written {
				fmt.Fprintf(a.Stdout, "wrote %s\n", w)
			}
			return nil
		},
	}
	envFlag(cmd, a, true)
	cmd.Flags().BoolVar(&noCache, "no-cache", false, "replay the directory even when an earlier run found it up to date")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 1 with the statements when a migration is missing")
	cmd.Flags().BoolVar(&plain, "plain", false, "write Atlas's plain plan instead of the online one (see docs/migrations.md)")
	return cmd
}

func cachedNote(p *migration.Planned) string {
	if p.Cached {
		return " (known from an earlier run; --no-cache replays it)"
	}
	return ""
}

// reportCheck prints, for migrate diff --check, each env's state and the
// statements a missing migration would hold.
func (a *App) reportCheck(planned []*migration.Planned) error {
	behind := 0
	for _, p := range planned {
		if p.Plan == nil {
			fmt.Fprintf(a.Stdout, "%s: no changes; %s is up to date with %s%s\n", p.Target.Env.Name, p.Dir.Path(), p.Target.Env.Src, cachedNote(p))
			continue
		}
		behind++
		fmt.Fprintf(a.Stdout, "%s: %s is behind %s; a migration would hold:\n", p.Target.Env.Name, p.Dir.Path(), p.Target.Env.Src)
		for _, c := range p.Plan.Changes {
			fmt.Fprintf(a.Stdout, "  %s;\n", strings.ReplaceAll(strings.TrimRight(c.Cmd, ";"), "\n", "\n  "))
		}
	}
	if behind > 0 {
		return findings{fmt.Sprintf("%d migration director%s behind the model; run `schemagen migrate diff NAME`, review and commit the files.", behind, map[bool]string{true: "y is", false: "ies are"}[behind == 1])}
	}
	return nil
}

// migrationError turns errors the user must act on into findings.
func (a *App) migrationError(err error) error {
	var (
		sum   *migration.SumError
		stale *migration.StaleError
		raw   *migration.RawError
	)
	if errors.As(err, &sum) {
		return findings{"Error: " + sum.Error()}
	}
	if errors.As(err, &stale) {
		return findings{"Error: " + stale.Error()}
	}
	var proof *migration.ProofError
	if errors.As(err, &raw) || errors.As(err, &proof) {
		// A raw block a migration cannot carry, or a plan that does not
		// prove, in one env or several.
		return findings{"Error: " + err.Error()}
	}
	var edited *migration.EditedHistoryError
	if errors.As(err, &edited) {
		return findings{"Error: " + err.Error()}
	}
	var replay *migration.ReplayError
	if errors.As(err, &replay) {
		return findings{"Error: " + replay.Error()}
	}
	return err
}

func (a *App) migrateHashCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hash",
		Short: "Rewrite atlas.sum after a reviewed edit of migration files",
		Long: `Recompute atlas.sum of each env's migration directory from its files, as
` + "`atlas migrate hash`" + ` does. Run it after adding data statements to a file.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			targets, err := a.targets()
			if err != nil {
				return err
			}
			for _, t := range targets {
				dir, err := migration.OpenDir(t.Env.Dir, false)
				if err != nil {
					return err
				}
				if err := migration.Hash(dir); err != nil {
					return err
				}
				fmt.Fprintf(a.Stdout, "wrote %s/atlas.sum\n", strings.TrimSuffix(dir.Path(), "/"))
			}
			return nil
		},
	}
	envFlag(cmd, a, true)
	return cmd
}

func (a *App) migrateNewCmd() *cobra.Command {
	var data bool
	var before string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Write an empty migration file in every dialect, for data migrations",
		Long: `Write migrations/<dialect>/<version>_NAME.sql, empty, with the same version in
every env's directory, and update atlas.sum. Fill in each dialect's statements,
then run ` + "`schemagen migrate hash`" + `.

With --data, write one portable data migration instead,
migrations/portable/<version>_NAME.sql: INSERT ... SELECT, UPDATE, DELETE
and ASSERT NOT EXISTS guards written once, which ` + "`schemagen generate`" + `
checks against the schema at its version and renders into every env's directory (see
docs/data-migrations.md). With --before VERSION, the data migration runs just
before the migration of that version (a fix its statements need), also
when an env's database applied it and failed (the next apply runs the fix,
then the failed file again, or on TiDB the rest of it): refused when the
database of an env (its url in atlas.hcl) applied that migration in full,
or a later one, even in part.

` + exitCodes,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := migration.ValidName(args[0]); err != nil {
				return usageError{err}
			}
			targets, err := a.targets()
			if err != nil {
				return err
			}
			if before != "" {
				if !data {
					return usageError{errors.New("--before places a data migration: use it with --data")}
				}
				if err := a.notApplied(cmd.Context(), targets, before); err != nil {
					return err
				}
				path, err := portable.NewFileBefore(targets, args[0], before)
				if err != nil {
					return findings{"Error: " + err.Error()}
				}
				fmt.Fprintf(a.Stdout, "wrote %s, which runs before version %s; write its statements, then run `schemagen generate`, which renders it into every env's directory and rehashes them\n", path, before)
				return nil
			}
			if data {
				path, err := portable.NewFile(targets, args[0], time.Now())
				if err != nil {
					return a.migrationError(err)
				}
				fmt.Fprintf(a.Stdout, "wrote %s; write its statements, then run `schemagen generate`\n", path)
				return nil
			}
			written, err := migration.NewFile(targets, args[0], time.Now())
			if err != nil {
				return a.migrationError(err)
			}
			for _, w := range written {
				fmt.Fprintf(a.Stdout, "wrote %s\n", w)
			}
			return nil
		},
	}
	envFlag(cmd, a, true)
	cmd.Flags().BoolVar(&data, "data", false, "write a portable data migration, rendered for every dialect by generate")
	cmd.Flags().StringVar(&before, "before", "", "with --data: place it just before the pending migration of this version")
	return cmd
}

// notApplied refuses a version that the database of an env applied, in
// full or in part, or applied a later one (deploy.AppliedFrom).
func (a *App) notApplied(ctx context.Context, targets []migration.Target, version string) error {
	out, err := deploy.AppliedFrom(ctx, targets, version, a.Stderr)
	if err != nil {
		return err
	}
	if len(out) > 0 {
		return findings{strings.Join(out, "\n")}
	}
	return nil
}
