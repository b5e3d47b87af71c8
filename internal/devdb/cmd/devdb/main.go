// Command devdb starts one embedded PostgreSQL and one embedded TiDB and hands
// their URLs to tests through SCHEMAGEN_TEST_POSTGRES_URL and
// SCHEMAGEN_TEST_TIDB_URL, so that test packages running in parallel share
// them instead of each starting its own (TiDB takes 2.5 GB).
//
// Usage:
//
//	devdb [-postgres=false] [-tidb=false] -- command [args...]
//	devdb [-postgres=false] [-tidb=false]
//
// With a command, devdb starts the servers, runs the command with the two
// variables set, stops the servers and exits with the command's status. A
// variable already set in the environment is kept, and that server is not
// started. Without a command, devdb prints the variables as export lines and
// keeps the servers until interrupted (Ctrl-C).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/redact"
)

// The variables internal/dbtest reads.
var envNames = map[string]string{
	devdb.Postgres: "SCHEMAGEN_TEST_POSTGRES_URL",
	devdb.TiDB:     "SCHEMAGEN_TEST_TIDB_URL",
}

func main() {
	withPostgres := flag.Bool("postgres", true, "start a PostgreSQL")
	withTiDB := flag.Bool("tidb", true, "start a TiDB")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: devdb [flags] [-- command [args...]]\n\n"+
			"Starts an embedded PostgreSQL and TiDB and runs command with\n"+
			"SCHEMAGEN_TEST_POSTGRES_URL and SCHEMAGEN_TEST_TIDB_URL set to them;\n"+
			"without a command, prints the variables and waits for Ctrl-C.\n\nflags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	os.Exit(run(*withPostgres, *withTiDB, flag.Args()))
}

func run(withPostgres, withTiDB bool, command []string) int {
	var dialects []string
	if withPostgres {
		dialects = append(dialects, devdb.Postgres)
	}
	if withTiDB {
		dialects = append(dialects, devdb.TiDB)
	}
	urls, err := start(dialects)
	defer func() {
		if err := devdb.StopAll(); err != nil {
			fmt.Fprintf(os.Stderr, "devdb: %v\n", err)
		}
	}()
	if err != nil {
		fmt.Fprintf(os.Stderr, "devdb: %v\n", err)
		return 1
	}
	if len(command) == 0 {
		for _, d := range dialects {
			fmt.Printf("export %s=%s\n", envNames[d], urls[d])
		}
		fmt.Fprintln(os.Stderr, "devdb: servers running; press Ctrl-C to stop them")
		wait := make(chan os.Signal, 1)
		signal.Notify(wait, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		<-wait
		return 0
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = os.Environ()
	for _, d := range dialects {
		cmd.Env = append(cmd.Env, envNames[d]+"="+urls[d])
	}
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	default:
		fmt.Fprintf(os.Stderr, "devdb: %s: %v\n", command[0], err)
		return 1
	}
}

// start starts the servers in parallel, keeping those whose variable is
// already set, and returns their URLs by dialect.
func start(dialects []string) (map[string]string, error) {
	type result struct {
		dialect, url string
		err          error
	}
	ctx := context.Background()
	results := make(chan result, len(dialects))
	for _, d := range dialects {
		if v := os.Getenv(envNames[d]); v != "" {
			fmt.Fprintf(os.Stderr, "devdb: using %s=%s from the environment\n", envNames[d], redact.URL(v))
			results <- result{dialect: d, url: v}
			continue
		}
		go func() {
			s, err := devdb.Start(ctx, d, devdb.Options{Progress: os.Stderr})
			if err != nil {
				results <- result{dialect: d, err: err}
				return
			}
			version, err := s.Version(ctx)
			if err == nil {
				fmt.Fprintf(os.Stderr, "devdb: %s=%s\ndevdb:   %s\n", envNames[d], s.URL(), version)
			}
			results <- result{dialect: d, url: s.URL(), err: err}
		}()
	}
	urls := map[string]string{}
	var errs []error
	for range dialects {
		r := <-results
		urls[r.dialect] = r.url
		errs = append(errs, r.err)
	}
	return urls, errors.Join(errs...)
}
