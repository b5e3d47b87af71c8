package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/udiff"
)

// compile runs the pipeline and prints its errors, and its warnings when
// asked; it fails with findings when the model has errors.
func (a *App) compile(warnings bool) (*gen.Result, []string, error) {
	paths, err := a.schemaFiles()
	if err != nil {
		return nil, nil, err
	}
	r := gen.Compile(paths...)
	if warnings || r.Failed() {
		a.printDiags(r.Schema.Files, r.Diags)
	}
	if r.Failed() {
		return nil, nil, findings{fmt.Sprintf("%s in %s; nothing was written.", errorCount(r.Diags), strings.Join(paths, ", "))}
	}
	return r, paths, nil
}

func (a *App) generateCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write generated/<dialect>/schema.sql for every dialect",
		Long: `Compile the schema and write generated/postgres/schema.sql and generated/tidb/schema.sql.

On any error nothing is written: every file is written in full beside its
target first, then the targets are replaced.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := nonEmpty("--out", out); err != nil {
				return err
			}
			r, _, err := a.compile(true)
			if err != nil {
				return err
			}
			files := r.Files()
			if err := gen.Write(out, files); err != nil {
				return err
			}
			if a.quiet {
				return nil
			}
			for _, p := range sortedKeys(files) {
				fmt.Fprintf(a.Stdout, "wrote %s\n", filepath.Join(out, p))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "output directory")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print errors only: no warnings, no list of files written")
	return cmd
}

func (a *App) checkCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Fail when the schema is invalid or generated/ is stale (the CI gate)",
		Long: `Compile the schema and compare the result with the files in generated/.
Prints a unified diff for each stale file and exits 1; also exits 1 on any
validation error. Writes nothing.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := nonEmpty("--out", out); err != nil {
				return err
			}
			r, paths, err := a.compile(false)
			if err != nil {
				return err
			}
			stale, err := r.Stale(out)
			if err != nil {
				return err
			}
			if len(stale) == 0 {
				if !a.quiet {
					fmt.Fprintf(a.Stdout, "%s is up to date with %s\n", out, strings.Join(paths, ", "))
				}
				return nil
			}
			files := r.Files()
			for _, p := range sortedKeys(stale) {
				path := filepath.Join(out, p)
				diff := udiff.Unified(path+" (on disk)", path+" (from "+strings.Join(paths, ", ")+")", string(stale[p]), string(files[p]), 3)
				if stale[p] == nil {
					diff = fmt.Sprintf("%s is missing\n", path)
				}
				fmt.Fprint(a.Stdout, diff)
			}
			return findings{fmt.Sprintf("%d generated file(s) are stale; run `schemagen generate` and commit the result.", len(stale))}
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "directory of the generated files")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print nothing when up to date")
	return cmd
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
