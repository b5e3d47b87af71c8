package cli

import (
	"errors"
	"fmt"
	"time"

	"ariga.io/atlas/sql/migrate"
	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/redact"
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
		apply     *migration.ApplyError
		notClean  *migration.NotCleanError
		history   *migration.HistoryError
		nonLinear *migrate.HistoryNonLinearError
		missing   *migrate.MissingMigrationError
		sum       *migration.SumError
		intr      *migration.InterruptedError
	)
	msg := redact.Secrets(err.Error(), redact.Password(rawURL))
	switch {
	case errors.As(err, &sum):
		return a.migrationError(err)
	case errors.As(err, &apply), errors.As(err, &notClean), errors.As(err, &history), errors.As(err, &intr),
		errors.As(err, &nonLinear), errors.As(err, &missing):
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
	)
	cmd := &cobra.Command{
		Use:   "apply",
		Short: "Apply the pending migration files to an env's database",
		Long: `Run the files of the env's migration directory that the database has not
applied yet, in order, and record each in atlas_schema_revisions, the table
(and columns) the Atlas CLI uses, so that either tool can continue from the
other's history: on PostgreSQL in the schema atlas_schema_revisions, on TiDB in
the database the URL names. The database is --url, else the env's url in
atlas.hcl.

A directory that does not match its atlas.sum is refused. The apply holds the
lock the Atlas CLI takes (atlas_migrate_execute): a second apply waits up to
--lock-timeout for it, then finds nothing pending.

PostgreSQL runs each file in one transaction: when a statement fails, the whole
file is rolled back and the failure recorded; the next apply runs the file
again. A file starting with "-- atlas:txmode none" runs without one (CREATE
INDEX CONCURRENTLY). TiDB commits DDL statement by statement: the revision
records every statement applied, and after a failure the next apply resumes at
the failed statement. Either way the file, line, statement and error are
printed; fix the cause (data, or a statement not yet applied, then
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

Exit 1 means: a statement failed, the directory does not match atlas.sum, the
database is not empty on a first apply, or its history does not fit the
directory. Exit 2: the database cannot be reached, the lock was held past
--lock-timeout, or a usage error.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if lockTimeout < 0 {
				return usageError{fmt.Errorf("--lock-timeout %s: want 0 or more", lockTimeout)}
			}
			if baseline != "" && allowDirty {
				return usageError{errors.New("--baseline and --allow-dirty exclude each other")}
			}
			t, rawURL, err := a.target(&target)
			if err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			fmt.Fprintf(a.Stdout, "env %s: applying %s to %s\n", t.Env.Name, t.Env.Dir, redact.URL(rawURL))
			res, err := migration.Apply(ctx, t, migration.ApplyOptions{
				URL:         rawURL,
				LockTimeout: lockTimeout,
				Baseline:    baseline,
				AllowDirty:  allowDirty,
				Progress:    a.Stdout,
				Notices:     a.Stderr,
			})
			if res != nil {
				stmts := 0
				for _, f := range res.Files {
					stmts += f.Stmts
				}
				switch {
				case err != nil && len(res.Files) > 0:
					fmt.Fprintf(a.Stdout, "env %s: %s (%s) applied before the failure; the database is at version %s\n",
						t.Env.Name, countFiles(len(res.Files)), countStatements(stmts), res.To)
				case err != nil:
				case len(res.Files) == 0:
					fmt.Fprintf(a.Stdout, "env %s: no pending files; %s\n", t.Env.Name, atVersion(res.To))
				default:
					fmt.Fprintf(a.Stdout, "env %s: applied %s (%s); the database is at version %s (was %s)\n",
						t.Env.Name, countFiles(len(res.Files)), countStatements(stmts), res.To, orNone(res.From))
				}
			}
			if err != nil {
				return a.databaseError(err, rawURL)
			}
			return nil
		},
	}
	target.register(cmd, a)
	cmd.Flags().DurationVar(&lockTimeout, "lock-timeout", migration.DefaultLockTimeout, "how long to wait for another apply to the database to finish")
	cmd.Flags().StringVar(&baseline, "baseline", "", "on a database with tables but no revisions: record the files up to this version as applied without running them")
	cmd.Flags().BoolVar(&allowDirty, "allow-dirty", false, "on a database with tables but no revisions: run every file")
	return cmd
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
