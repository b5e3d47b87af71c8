package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/cli/report"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/redact"
	"github.com/schemagen/schemagen/internal/scratch"
)

func init() {
	migrateCommands = append(migrateCommands, (*App).migrateApplyCmd, (*App).migrateStatusCmd)
}

// targetFlags are the flags of the commands that work on one env's database.
type targetFlags struct {
	url string
}

func (f *targetFlags) register(cmd *cobra.Command, a *App) {
	envFlag(cmd, a, false)
	cmd.Flags().StringVar(&f.url, "url", "", "the database URL (default: the env's url in atlas.hcl)")
}

// target resolves the one --env and the database URL: --url, else the env's
// url.
func (a *App) target(f *targetFlags) (migration.Target, string, error) {
	if len(a.migrate.envs) != 1 {
		return migration.Target{}, "", usageError{fmt.Errorf("--env: name exactly one env (got %d)", len(a.migrate.envs))}
	}
	targets, err := a.targets()
	if err != nil {
		return migration.Target{}, "", err
	}
	t := targets[0]
	u := f.url
	if u == "" {
		u = t.Env.URL
	}
	if u == "" {
		return t, "", usageError{fmt.Errorf("no database for env %q: pass --url, or set url in env %q of %s", t.Env.Name, t.Env.Name, a.migrate.config)}
	}
	return t, u, nil
}

// databaseError sorts the errors of apply and status: what the user must act
// on in the directory or the database is a finding (exit 1), anything else,
// such as a database that cannot be reached, an error (exit 2). Passwords of
// rawURL never show.
func (a *App) databaseError(err error, rawURL string) error {
	var (
		apply     *deploy.ApplyError
		notClean  *deploy.NotCleanError
		history   *deploy.HistoryError
		edited    *deploy.EditedError
		nonLinear *migrate.HistoryNonLinearError
		missing   *migrate.MissingMigrationError
		sum       *migration.SumError
		precheck  *deploy.PrecheckError
		dry       *deploy.DryRunRefusedError
		intr      *deploy.InterruptedError
	)
	msg := redact.Secrets(err.Error(), redact.Password(rawURL))
	switch {
	case errors.As(err, &sum):
		return a.migrationError(err)
	case errors.As(err, &apply), errors.As(err, &notClean), errors.As(err, &history), errors.As(err, &edited), errors.As(err, &intr),
		errors.As(err, &nonLinear), errors.As(err, &missing), errors.As(err, &precheck), errors.As(err, &dry):
		return findings{"Error: " + msg}
	}
	var u usageError
	if errors.As(err, &u) {
		return usageError{errors.New(msg)}
	}
	return errors.New(msg)
}

func (a *App) migrateApplyCmd() *cobra.Command {
	var (
		target      targetFlags
		lockTimeout time.Duration
		baseline    string
		allowDirty  bool
		dryRun      bool
		quiet       bool
		allEnvs     bool
	)
	cmd := &cobra.Command{
		Use:   "apply",
		Short: "Apply the pending migration files to envs' databases",
		Long: `Run the files of the env's migration directory that the database has not
applied yet, in order, and record each in atlas_schema_revisions, the table
(and columns) the Atlas CLI uses, so that either tool can continue from the
other's history: on PostgreSQL in the schema atlas_schema_revisions, on TiDB in
the database the URL names. The database is --url, else the env's url in
atlas.hcl. --env may be repeated (--env postgres --env tidb) or --all names
every env of atlas.hcl; the envs are applied one after the other, and the
first that fails stops the run.

--dry-run changes nothing: it prints the files and statements that would run
and the findings of their pre-checks (rows that would make a statement fail),
and exits 1 when the apply would refuse a file. --quiet prints one line per
env, and errors.

A directory that does not match its atlas.sum is refused. The apply holds the
lock the Atlas CLI takes (atlas_migrate_execute): a second apply waits up to
--lock-timeout for it, then finds nothing pending.

PostgreSQL runs each file in one transaction: when a statement fails, the whole
file is rolled back and the failure recorded; the next apply runs the file
again. A file starting with "-- atlas:txmode none" runs without one (CREATE
INDEX CONCURRENTLY). TiDB commits DDL statement by statement: the revision
records every statement applied, and after a failure the next apply resumes at
the failed statement; before a file runs, its pre-checks must find no rows
that would make it fail half-way. Either way the file, line, statement and
error are printed; fix the cause (data, or a statement not yet applied, then
` + "`schemagen migrate hash`" + `) and apply again.

Ctrl-C (SIGINT) or SIGTERM cancels the running statement on the server (it
does not go on running there after schemagen exits), waits for the server to
stop it and records exactly what ran; the next apply resumes there. An index
that PostgreSQL built CONCURRENTLY to the end although its apply stopped is
recorded as applied; an invalid one that a cancelled build left is dropped
and built again.

On a database that has tables but no revisions, the first apply needs
--baseline VERSION (the files up to VERSION are recorded as applied without
running) or --allow-dirty (every file runs).

Exit 1 means: the apply was refused or failed: a statement failed, a
pre-check found rows, the directory does not match atlas.sum, the database is
not empty on a first apply, or its history does not fit the directory. Exit
2: the database cannot be reached, the lock was held past --lock-timeout, or
a usage error.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if lockTimeout < 0 {
				return usageError{fmt.Errorf("--lock-timeout %s: want 0 or more", lockTimeout)}
			}
			if baseline != "" && allowDirty {
				return usageError{errors.New("--baseline and --allow-dirty exclude each other")}
			}
			jobs, err := a.applyTargets(&target, allEnvs)
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			for i, job := range jobs {
				t, rawURL := job.target, job.url
				if !quiet {
					verb := "applying"
					if dryRun {
						verb = "dry run: nothing is changed; would apply"
					}
					fmt.Fprintf(a.Stdout, "env %s: %s %s to %s\n", t.Env.Name, verb, t.Env.Dir, redact.URL(rawURL))
				}
				opts := deploy.ApplyOptions{
					URL:         rawURL,
					LockTimeout: lockTimeout,
					Baseline:    baseline,
					AllowDirty:  allowDirty,
					Progress:    a.Stdout,
					Notices:     a.Stderr,
					DryRun:      dryRun,
				}
				if quiet {
					opts.Progress = nil
				}
				res, err := deploy.Apply(ctx, t, opts)
				if res != nil && !res.DryRun {
					// The files a database applied are history: an edit of
					// one is refused from now on (migration.CheckHistory).
					var names []string
					for _, f := range res.Files {
						names = append(names, f.Name)
					}
					scratch.DefaultCache().MarkApplied(t.Dialect, t.Env.Dir, names)
				}
				if res != nil && res.DryRun {
					report.DryRun(a.Stdout, t.Env.Name, res, quiet)
				} else if res != nil {
					report.Apply(a.Stdout, t.Env.Name, res, err)
				}
				if err != nil {
					if rest := len(jobs) - i - 1; rest > 0 {
						fmt.Fprintf(a.Stderr, "schemagen: env %s failed; not applied: %s\n", t.Env.Name, envNames(jobs[i+1:]))
					}
					return a.databaseError(err, rawURL)
				}
			}
			return nil
		},
	}
	target.registerMany(cmd, a)
	cmd.Flags().BoolVar(&allEnvs, "all", false, "apply every env of atlas.hcl")
	cmd.Flags().DurationVar(&lockTimeout, "lock-timeout", deploy.DefaultLockTimeout, "how long to wait for another apply to the database to finish")
	cmd.Flags().StringVar(&baseline, "baseline", "", "on a database with tables but no revisions: record the files up to this version as applied without running them")
	cmd.Flags().BoolVar(&allowDirty, "allow-dirty", false, "on a database with tables but no revisions: run every file")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "change nothing: print what would run and the pre-checks' findings")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print one line per env, and errors")
	return cmd
}

type applyJob struct {
	target migration.Target
	url    string
}

func envNames(jobs []applyJob) string {
	var names []string
	for _, j := range jobs {
		names = append(names, j.target.Env.Name)
	}
	return strings.Join(names, ", ")
}

func (f *targetFlags) registerMany(cmd *cobra.Command, a *App) {
	cmd.Flags().StringSliceVar(&a.migrate.envs, "env", nil, "env(s) of atlas.hcl to work on (repeat, or a comma-separated list)")
	cmd.Flags().StringVar(&f.url, "url", "", "the database URL, with one --env (default: the env's url in atlas.hcl)")
}

// applyTargets resolves --env (one or more) or --all, and each env's
// database URL, before anything runs.
func (a *App) applyTargets(f *targetFlags, all bool) ([]applyJob, error) {
	switch {
	case all && len(a.migrate.envs) > 0:
		return nil, usageError{errors.New("--all and --env exclude each other")}
	case !all && len(a.migrate.envs) == 0:
		return nil, usageError{errors.New("name the env(s) to apply with --env (repeatable), or --all")}
	}
	targets, err := a.targets()
	if err != nil {
		return nil, err
	}
	if f.url != "" && len(targets) != 1 {
		return nil, usageError{fmt.Errorf("--url names one database, but %d envs are to be applied; set each env's url in %s", len(targets), a.migrate.config)}
	}
	var jobs []applyJob
	for _, t := range targets {
		u := f.url
		if u == "" {
			u = t.Env.URL
		}
		if u == "" {
			return nil, usageError{fmt.Errorf("no database for env %q: pass --url, or set url in env %q of %s", t.Env.Name, t.Env.Name, a.migrate.config)}
		}
		jobs = append(jobs, applyJob{t, u})
	}
	return jobs, nil
}
