package lint

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
)

// lintSelect marks the files to lint: those added or changed since
// opts.GitBase, else those of the latest opts.Latest migrations.
func lintSelect(ctx context.Context, dir string, files []migrate.File, opts Options) ([]bool, error) {
	selected := make([]bool, len(files))
	if opts.GitBase == "" {
		n := 0
		for i := len(files) - 1; i >= 0; i-- {
			if n == opts.Latest {
				break
			}
			selected[i] = true
			if !migration.OnlinePart(files, i) {
				n++
			}
		}
		return selected, nil
	}
	changed, err := gitChanged(ctx, dir, opts.GitBase)
	if err != nil {
		return nil, err
	}
	for i, f := range files {
		selected[i] = changed[f.Name()]
	}
	return selected, nil
}

// gitChanged returns the names of the files directly in dir that differ
// from ref in the working tree: changed or added (`git diff --name-only REF
// -- DIR`), or untracked and not ignored.
func gitChanged(ctx context.Context, dir, ref string) (map[string]bool, error) {
	git := func(args ...string) ([]string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
		}
		return strings.Split(strings.TrimSpace(string(out)), "\n"), nil
	}
	if _, err := git("rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--git-base %s: not a commit in the repository of %s", ref, dir)
	}
	diff, err := git("diff", "--name-only", "--relative", ref, "--", ".")
	if err != nil {
		return nil, err
	}
	untracked, err := git("ls-files", "--others", "--exclude-standard", "--", ".")
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, p := range append(diff, untracked...) {
		if p != "" && !strings.Contains(filepath.ToSlash(p), "/") {
			names[p] = true
		}
	}
	return names, nil
}
