// Package cli is schemagen's command tree.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/schemagen/schemagen/internal/cli/diagprint"
	"github.com/schemagen/schemagen/internal/cli/schemapath"
)

// Exit codes, documented in every command's help.
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitError    = 2
)

const exitCodes = `Exit codes:
  0  success
  1  findings: validation errors, stale files, drift, lint errors
  2  usage or internal error: a wrong flag or value, a schema file that
     cannot be read, output that cannot be written`

// findings is an error whose details were already printed; it maps to exit 1.
type findings struct{ msg string }

func (f findings) Error() string { return f.msg }

type usageError struct{ error }

// exitError exits with code after its details were printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// App holds what commands share.
type App struct {
	Stdout, Stderr io.Writer
	schema         []string
	color          string
	quiet          bool
	migrate        migrateFlags
}

// Run executes schemagen with args and returns its exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	app := &App{Stdout: stdout, Stderr: stderr}
	root := app.Root()
	root.SetArgs(longFlags(root, args))
	err := root.Execute()
	var f findings
	var u usageError
	var x exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &x):
		return x.code
	case errors.As(err, &f):
		if f.msg != "" {
			fmt.Fprintln(stderr, f.msg)
		}
		return ExitFindings
	case errors.As(err, &u):
		fmt.Fprintln(stderr, "Error:", err)
		fmt.Fprintln(stderr, "Run 'schemagen --help' for usage.")
		return ExitError
	default:
		fmt.Fprintln(stderr, "Error:", err)
		return ExitError
	}
}

// longFlags accepts Go-style single-dash long flags (`fmt -check`), which
// pflag would read as a row of one-letter flags.
func longFlags(root *cobra.Command, args []string) []string {
	known := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { known[f.Name] = true })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { known[f.Name] = true })
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	out := make([]string, len(args))
	for i, a := range args {
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if a == "--" {
			copy(out[i:], args[i:])
			break
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(name) > 1 && known[name] {
			a = "-" + a
		}
		out[i] = a
	}
	return out
}

// Root builds the command tree.
func (a *App) Root() *cobra.Command {
	root := &cobra.Command{
		Use:   "schemagen",
		Short: "One schema model, compiled to PostgreSQL and TiDB DDL",
		Long: `schemagen compiles one declarative schema (schema.hcl) to PostgreSQL and TiDB DDL
that means the same on both, and keeps the generated files in step with it.
From that DDL it writes reviewed migration files for both dialects in Atlas's
format (migrate), checks production databases for drift (drift), and reads
existing databases back into schema.hcl (import). See README.md and docs/.

` + exitCodes,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionString(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(a.Stdout)
	root.SetErr(a.Stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.PersistentFlags().StringSliceVar(&a.schema, "schema", []string{"schema.hcl"}, "schema files, or directories of *.hcl files (sorted), to compile")
	root.PersistentFlags().StringVar(&a.color, "color", "auto", "colour diagnostics: "+strings.Join(colorValues, ", "))
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		return oneOf("--color", a.color, colorValues)
	}
	root.AddCommand(a.generateCmd(), a.checkCmd(), a.fmtCmd(), a.explainCmd(), a.erdCmd(), a.exportCmd(), a.migrateCmd(), a.driftCmd(), a.importCmd(), a.initCmd(), a.versionCmd(), a.devCmd())
	var all []*cobra.Command
	for _, c := range root.Commands() {
		all = append(all, c)
		all = append(all, c.Commands()...)
	}
	for _, c := range all {
		if c.Args == nil {
			c.Args = cobra.NoArgs
		}
		args := c.Args
		c.Args = func(cmd *cobra.Command, s []string) error {
			if err := args(cmd, s); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	return root
}

func (a *App) useColor(w io.Writer) bool {
	switch a.color {
	case "always":
		return true
	case "never":
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd())) && os.Getenv("NO_COLOR") == ""
}

var colorValues = []string{"auto", "always", "never"}

// oneOf checks a flag's value against the valid ones; a wrong value is a
// usage error (exit 2) that lists them.
func oneOf(flag, value string, valid []string) error {
	if slices.Contains(valid, value) {
		return nil
	}
	return usageError{fmt.Errorf("invalid value %q for %s: valid values are %s", value, flag, strings.Join(valid, ", "))}
}

// nonEmpty rejects an empty path flag, which would mean the current directory
// or no file at all.
func nonEmpty(flag, value string) error {
	if strings.TrimSpace(value) == "" {
		return usageError{fmt.Errorf("%s is empty; give a path", flag)}
	}
	return nil
}

// printDiags writes diagnostics as file:line:col with source snippets;
// with --quiet, errors only.
func (a *App) printDiags(files map[string]*hcl.File, diags hcl.Diagnostics) {
	if a.quiet {
		var errs hcl.Diagnostics
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				errs = append(errs, d)
			}
		}
		diags = errs
	}
	if len(diags) == 0 {
		return
	}
	diagprint.Print(a.Stderr, files, diags, a.useColor(a.Stderr))
}

// schemaFiles resolves --schema (package schemapath). A path that cannot
// be read is a usage error (exit 2) in every command, as is a file named
// twice.
func (a *App) schemaFiles() ([]string, error) {
	files, err := schemapath.Resolve(a.schema)
	if err != nil {
		return nil, usageError{err}
	}
	return files, nil
}

func readError(path string, err error) error {
	return usageError{schemapath.ReadError(path, err)}
}

// errorCount describes diags for a closing line.
func errorCount(diags hcl.Diagnostics) string {
	n := len(diags.Errs())
	if n == 1 {
		return "1 error"
	}
	return fmt.Sprintf("%d errors", n)
}
