package cli

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/export"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/migration/portable"
	"github.com/schemagen/schemagen/internal/scratch"
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
// dialect's DDL under out, the diagram document when the project keeps
// one (the file exists), the exports the model declares, and the portable data migrations rendered for
// each env (see portableOutputs).
func (a *App) outputs(r *gen.Result, out, erdPath string) (map[string][]byte, error) {
	files, err := outputs(r, out, erdPath)
	if err != nil {
		return nil, err
	}
	rendered, err := a.portableOutputs(r)
	if err != nil {
		return nil, err
	}
	for p, b := range rendered {
		files[p] = b
	}
	return files, nil
}

// portableOutputs renders the portable data migrations of the project
// (migrations/portable beside the envs' directories of atlas.hcl), with
// the atlas.sum files they change. A project without atlas.hcl, or without
// portable files, has none.
func (a *App) portableOutputs(r *gen.Result) (map[string][]byte, error) {
	if _, err := os.Stat(a.migrate.config); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	targets, err := a.targets()
	if err != nil {
		return nil, err
	}
	pdir, err := portable.Dir(targets)
	if err != nil {
		return nil, usageError{err}
	}
	if _, err := os.Stat(pdir); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	// Only a file to render again replays the directories, on the envs'
	// dev databases (embedded servers when none is configured).
	ctx, stop := interruptible()
	defer stop()
	dev := &scratch.Dev{Progress: a.Stderr}
	defer dev.Close()
	rendered, diags, err := portable.Render(ctx, dev, targets)
	if err != nil {
		return nil, a.migrationError(err)
	}
	if diags.HasErrors() {
		files := map[string]*hcl.File{}
		for _, d := range diags {
			if d.Subject != nil {
				if b, err := os.ReadFile(d.Subject.Filename); err == nil {
					files[d.Subject.Filename] = &hcl.File{Bytes: b}
				}
			}
		}
		a.printDiags(files, diags)
		return nil, findings{fmt.Sprintf("%s in the data migrations of %s; nothing was written.", errorCount(diags), pdir)}
	}
	return rendered.Files, nil
}

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
	taken := map[string]string{}
	for p := range files {
		abs, _ := filepath.Abs(p)
		taken[abs] = p
	}
	for p, b := range export.Files(r) {
		abs, _ := filepath.Abs(p)
		if other, ok := taken[abs]; ok {
			return nil, usageError{fmt.Errorf("the export %s is also the generated file %s; give it another path", p, other)}
		}
		files[p] = b
	}
	return files, nil
}

func (a *App) generateCmd() *cobra.Command {
	var out, erdPath string
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write generated/<dialect>/schema.sql for every dialect",
		Long: `Compile the schema and write generated/postgres/schema.sql and generated/tidb/schema.sql,
the schema diagram docs/erd.md when the project keeps one (see erd), and
the exports the schema declares (export "typescript" { path = "..." }; see
export).

Portable data migrations (migrations/portable/VERSION_NAME.sql, from
` + "`schemagen migrate new NAME --data`" + `) are checked against the schema the
env's migration files of earlier versions create (replayed on the dev
databases, only for a file that is new or changed) and rendered into every env's migration directory of atlas.hcl at the same
version, and the directories' atlas.sum files are rehashed. A rendered file
that holds its source's rendering is kept as it is, whatever the model
became since. See docs/data-migrations.md.

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
			files, err := a.outputs(r, out, erdPath)
			if err != nil {
				return err
			}
			if err := gen.Write("", files); err != nil {
				return err
			}
			if a.quiet {
				return nil
			}
			for _, p := range slices.Sorted(maps.Keys(files)) {
				fmt.Fprintf(a.Stdout, "wrote %s\n", p)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "output directory")
	cmd.Flags().StringVar(&erdPath, "erd", "docs/erd.md", "the schema diagram document, rewritten when it exists")
	cmd.Flags().StringVar(&a.migrate.config, "config", atlasconf.DefaultFile, "the project configuration, whose envs' directories get the portable data migrations rendered")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print errors only: no warnings, no list of files written")
	return cmd
}

func (a *App) checkCmd() *cobra.Command {
	var out, erdPath string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Fail when the schema is invalid or generated/ is stale (the CI gate)",
		Long: `Compile the schema and compare the result with the files in generated/, with
the schema diagram docs/erd.md when the project keeps one, with the exports
the schema declares, and with the
rendered portable data migrations and their atlas.sum files. Prints a
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
			files, err := a.outputs(r, out, erdPath)
			if err != nil {
				return err
			}
			var stale []string
			for _, p := range slices.Sorted(maps.Keys(files)) {
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
					fmt.Fprintf(a.Stdout, "up to date with %s: %s\n", strings.Join(paths, ", "), strings.Join(slices.Sorted(maps.Keys(files)), ", "))
				}
				return nil
			}
			return findings{fmt.Sprintf("%d generated file(s) are stale; run `schemagen generate` and commit the result.", len(stale))}
		},
	}
	cmd.Flags().StringVar(&out, "out", "generated", "directory of the generated files")
	cmd.Flags().StringVar(&erdPath, "erd", "docs/erd.md", "the schema diagram document, compared when it exists")
	cmd.Flags().StringVar(&a.migrate.config, "config", atlasconf.DefaultFile, "the project configuration, whose envs' directories hold the rendered data migrations")
	cmd.Flags().BoolVarP(&a.quiet, "quiet", "q", false, "print errors only: no warnings, nothing when up to date")
	return cmd
}
