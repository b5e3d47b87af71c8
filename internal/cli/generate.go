package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/gen"
)

// compile runs the pipeline and prints its errors, and its warnings when
// asked; it fails with findings when the model has errors.
func (a *App) compile(warnings bool) (*gen.Result, error) {
	r := gen.Compile(a.schema...)
	if warnings || r.Failed() {
		a.printDiags(r.Schema.Files, r.Diags)
	}
	if r.Failed() {
		return nil, findings{fmt.Sprintf("%s in %s; nothing was written.", errorCount(r.Diags), strings.Join(a.schema, ", "))}
	}
	return r, nil
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
			r, err := a.compile(true)
			if err != nil {
				return err
			}
			files := r.Files()
			if err := gen.Write(out, files); err != nil {
				return err
			}
			for _, p := range sortedKeys(files) {
				fmt.Fprintf(a.Stdout, "wrote %s\n", filepath.Join(out, p))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "output directory")
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
			r, err := a.compile(false)
			if err != nil {
				return err
			}
			stale, err := r.Stale(out)
			if err != nil {
				return err
			}
			if len(stale) == 0 {
				fmt.Fprintf(a.Stdout, "%s is up to date with %s\n", out, strings.Join(a.schema, ", "))
				return nil
			}
			files := r.Files()
			for _, p := range sortedKeys(stale) {
				path := filepath.Join(out, p)
				diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
					A:        difflib.SplitLines(string(stale[p])),
					B:        difflib.SplitLines(string(files[p])),
					FromFile: path + " (on disk)",
					ToFile:   path + " (from " + strings.Join(a.schema, ", ") + ")",
					Context:  3,
				})
				if stale[p] == nil {
					diff = fmt.Sprintf("%s is missing\n", path)
				}
				fmt.Fprint(a.Stdout, diff)
			}
			return findings{fmt.Sprintf("%d generated file(s) are stale; run `schemagen generate` and commit the result.", len(stale))}
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "directory of the generated files")
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
