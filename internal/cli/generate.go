package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
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

// outputs are the files generate writes and check compares, by path: every
// dialect's DDL under out, and the diagram document when the project keeps
// one (the file exists).
func outputs(r *gen.Result, out, erdPath string) (map[string][]byte, error) {
	files := map[string][]byte{}
	for p, content := range r.Files() {
		files[filepath.Join(out, p)] = content
	}
	info, err := os.Stat(erdPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	case info.Mode().IsRegular():
		files[erdPath] = erdDocument(r)
	}
	return files, nil
}

func (a *App) generateCmd() *cobra.Command {
	var out, erdPath string
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write generated/<dialect>/schema.sql for every dialect",
		Long: `Compile the schema and write generated/postgres/schema.sql and generated/tidb/schema.sql,
and the schema diagram docs/erd.md when the project keeps one (see erd).

On any error nothing is written: every file is written in full beside its
target first, then the targets are replaced; if a replacement fails, the
files already replaced are restored.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := errors.Join(nonEmpty("--out", out), nonEmpty("--erd", erdPath)); err != nil {
				return usageError{err}
			}
			r, _, err := a.compile(true)
			if err != nil {
				return err
			}
			files, err := outputs(r, out, erdPath)
			if err != nil {
				return err
			}
			if err := gen.Write("", files); err != nil {
				return err
			}
			if a.quiet {
				return nil
			}
			for _, p := range sortedKeys(files) {
				fmt.Fprintf(a.Stdout, "wrote %s\n", p)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "output directory")
	cmd.Flags().StringVar(&erdPath, "erd", "docs/erd.md", "the schema diagram document, rewritten when it exists")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print errors only: no warnings, no list of files written")
	return cmd
}

func (a *App) checkCmd() *cobra.Command {
	var out, erdPath string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Fail when the schema is invalid or generated/ is stale (the CI gate)",
		Long: `Compile the schema and compare the result with the files in generated/, and
with the schema diagram docs/erd.md when the project keeps one. Prints a
minimal unified diff for each stale file and exits 1; also exits 1 on any
validation error. Prints the model's warnings, as generate does (--quiet
hides them). Writes nothing.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := errors.Join(nonEmpty("--out", out), nonEmpty("--erd", erdPath)); err != nil {
				return usageError{err}
			}
			r, paths, err := a.compile(true)
			if err != nil {
				return err
			}
			files, err := outputs(r, out, erdPath)
			if err != nil {
				return err
			}
			var stale []string
			for _, p := range sortedKeys(files) {
				got, err := os.ReadFile(p)
				if err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
				if bytes.Equal(got, files[p]) {
					continue
				}
				stale = append(stale, p)
				if got == nil {
					fmt.Fprintf(a.Stdout, "%s is missing\n", p)
					continue
				}
				fmt.Fprint(a.Stdout, udiff.Unified(p+" (on disk)", p+" (from "+strings.Join(paths, ", ")+")", string(got), string(files[p]), 3))
			}
			if len(stale) == 0 {
				if !a.quiet {
					fmt.Fprintf(a.Stdout, "up to date with %s: %s\n", strings.Join(paths, ", "), strings.Join(sortedKeys(files), ", "))
				}
				return nil
			}
			return findings{fmt.Sprintf("%d generated file(s) are stale; run `schemagen generate` and commit the result.", len(stale))}
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "directory of the generated files")
	cmd.Flags().StringVar(&erdPath, "erd", "docs/erd.md", "the schema diagram document, compared when it exists")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print errors only: no warnings, nothing when up to date")
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
