package cli

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// The files `schemagen init` writes. The workflow is docs/ci.md's (a test
// keeps the two equal).
var (
	//go:embed initfiles/atlas.hcl
	initAtlasHCL string
	//go:embed initfiles/schema.hcl
	initSchemaHCL string
	//go:embed initfiles/schema.yml
	initWorkflow string
)

// initGitignore are the lines init makes sure .gitignore has.
var initGitignore = []string{
	"# schemagen: database URLs with passwords (SCHEMAGEN_DEV_*_URL, DATABASE_URL_*) stay out of the repository",
	".env",
}

// initDirs are the directories of the layout, each dialect's generated DDL
// and migration directory.
var initDirs = []string{"generated/postgres", "generated/tidb", "migrations/postgres", "migrations/tidb"}

var ciValues = []string{"", "github"}

func (a *App) initCmd() *cobra.Command {
	var dir, ci string
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Start a project: atlas.hcl, schema.hcl, generated/, migrations/",
		Long: `Write what a schemagen project needs into --dir (default: the current
directory), which may be empty or hold a project already:

  atlas.hcl            both envs (postgres, tidb), commented; dev and target
                       URLs from SCHEMAGEN_DEV_POSTGRES_URL, SCHEMAGEN_DEV_TIDB_URL,
                       DATABASE_URL_POSTGRES and DATABASE_URL_TIDB
  schema.hcl           a small model to start from
  generated/, migrations/   one directory per dialect
  .gitignore           the lines schemagen suggests (added when missing)
  .github/workflows/schema.yml   with --ci github: the workflow of docs/ci.md

A file that exists is never overwritten: init says so and keeps it, so running
init again changes nothing. Then run ` + "`schemagen generate`" + ` and
` + "`schemagen migrate diff init`" + `.

` + exitCodes,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := nonEmpty("--dir", dir); err != nil {
				return err
			}
			if err := oneOf("--ci", ci, ciValues); err != nil {
				return err
			}
			if info, err := os.Stat(dir); err != nil || !info.IsDir() {
				return usageError{fmt.Errorf("--dir %s is not a directory", dir)}
			}
			files := []struct{ path, content string }{
				{"atlas.hcl", initAtlasHCL},
				{"schema.hcl", initSchemaHCL},
			}
			if ci == "github" {
				files = append(files, struct{ path, content string }{".github/workflows/schema.yml", initWorkflow})
			}
			changed := 0
			for _, f := range files {
				wrote, err := writeNew(filepath.Join(dir, f.path), f.content)
				if err != nil {
					return err
				}
				if wrote {
					changed++
					fmt.Fprintf(a.Stdout, "wrote %s\n", f.path)
				} else {
					fmt.Fprintf(a.Stdout, "kept %s: it exists (init never overwrites a file)\n", f.path)
				}
			}
			for _, d := range initDirs {
				p := filepath.Join(dir, d)
				if info, err := os.Stat(p); err == nil && info.IsDir() {
					fmt.Fprintf(a.Stdout, "kept %s/: it exists\n", d)
					continue
				}
				if err := os.MkdirAll(p, 0o755); err != nil {
					return err
				}
				changed++
				fmt.Fprintf(a.Stdout, "made %s/\n", d)
			}
			added, err := addLines(filepath.Join(dir, ".gitignore"), initGitignore)
			if err != nil {
				return err
			}
			if added > 0 {
				changed++
				fmt.Fprintf(a.Stdout, "added %d line%s to .gitignore\n", added, map[bool]string{true: "", false: "s"}[added == 1])
			} else {
				fmt.Fprintln(a.Stdout, "kept .gitignore: it has schemagen's lines")
			}
			if changed == 0 {
				fmt.Fprintln(a.Stdout, "Nothing changed: the project is already set up (init writes only files that do not exist).")
				return nil
			}
			fmt.Fprintln(a.Stdout, `Next:
  schemagen generate            # writes generated/<dialect>/schema.sql
  schemagen migrate diff init   # the first migration of each dialect
Dev databases: set SCHEMAGEN_DEV_POSTGRES_URL and SCHEMAGEN_DEV_TIDB_URL, or let
schemagen start embedded ones (TiDB's server: schemagen dev install tidb).`)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", ".", "the project directory")
	cmd.Flags().StringVar(&ci, "ci", "", "also write a CI workflow: github")
	return cmd
}

// writeNew writes content to path unless a file (or anything) is there; it
// reports whether it wrote. The parent directories are made as needed.
func writeNew(path, content string) (bool, error) {
	if _, err := os.Lstat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		os.Remove(path)
		return false, err
	}
	return true, f.Close()
}

// addLines appends to the file at path the lines it does not have yet,
// keeping what it holds; it returns how many it added.
func addLines(path string, lines []string) (int, error) {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return 0, err
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(old), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var missing []string
	for _, l := range lines {
		if !have[l] {
			missing = append(missing, l)
		}
	}
	// A comment alone is no rule.
	if len(missing) == 0 || len(missing) == 1 && strings.HasPrefix(missing[0], "#") {
		return 0, nil
	}
	var b strings.Builder
	if len(old) > 0 && !strings.HasSuffix(string(old), "\n") {
		b.WriteString("\n")
	}
	for _, l := range missing {
		b.WriteString(l + "\n")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return 0, err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return 0, err
	}
	return len(missing), f.Close()
}
