package lifecycle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

// RebaseOptions configure Rebase.
type RebaseOptions struct {
	// Base is the git ref of the branch merged in (main): the versions the
	// directories have and Base's lack are this branch's, and move after
	// Base's. Ignored when Versions is set.
	Base string
	// Versions are the versions to move, named by hand.
	Versions []string
	// Now is the earliest version the moved files may get.
	Now time.Time
}

// Moved is one version moved by Rebase, with its files.
type Moved struct {
	From, To string
	Files    []string // the new paths
}

// RebaseError is a moved file that does not run on the merged history.
type RebaseError struct {
	Env, File, Was string
	Err            error
}

func (e *RebaseError) Error() string {
	return fmt.Sprintf("env %s: %s (this branch's %s, moved after the merged history) does not run there, so nothing is moved:\n%v\nResolve the conflict in %s: change it (or remove it and run `schemagen migrate diff` again on the merged model), run `schemagen migrate hash`, then rebase again.",
		e.Env, e.File, e.Was, e.Err, e.Was)
}

func (e *RebaseError) Unwrap() error { return e.Err }

// Rebase moves this branch's versions after the others, in every target's
// directory, after a merge: each moved version gets a new one later than
// every version it does not move (the same new version in every dialect,
// in their order, an online file still one second after its migration).
// The whole merged directory is replayed on a scratch dev database before
// anything is renamed; a file that fails is a *RebaseError naming the file
// and the statement. Then the files are renamed and every atlas.sum is
// rewritten (a merge conflict in it is thereby resolved). Versions already
// after every other version are left where they are.
func Rebase(ctx context.Context, dev *scratch.Dev, targets []migration.Target, opts RebaseOptions) ([]Moved, error) {
	dirs := make([]*migrate.LocalDir, len(targets))
	all := make([][]migrate.File, len(targets))
	mine := map[string]bool{}
	for i, t := range targets {
		d, err := migration.OpenDir(t.Env.Dir, false)
		if err != nil {
			return nil, err
		}
		if all[i], err = d.Files(); err != nil {
			return nil, err
		}
		dirs[i] = d
		if len(opts.Versions) > 0 {
			continue
		}
		base, err := gitVersions(ctx, d.Path(), opts.Base)
		if err != nil {
			return nil, err
		}
		for _, f := range all[i] {
			if !base[f.Version()] {
				mine[f.Version()] = true
			}
		}
	}
	for _, v := range opts.Versions {
		found := false
		for _, fs := range all {
			found = found || slices.ContainsFunc(fs, func(f migrate.File) bool { return f.Version() == v })
		}
		if !found {
			return nil, fmt.Errorf("no migration directory has version %s", v)
		}
		mine[v] = true
	}
	// Versions already after every version not moved stay.
	last := ""
	for _, fs := range all {
		for _, f := range fs {
			if !mine[f.Version()] {
				last = max(last, f.Version())
			}
		}
	}
	var moving []string
	for v := range mine {
		if v < last {
			moving = append(moving, v)
		}
	}
	if len(moving) == 0 {
		for _, d := range dirs {
			if err := migration.Hash(d); err != nil {
				return nil, err
			}
		}
		return nil, nil
	}
	slices.Sort(moving)
	// Kept in their order after everything else, from the first moved one.
	for v := range mine {
		if v > moving[0] && !slices.Contains(moving, v) {
			moving = append(moving, v)
		}
	}
	slices.Sort(moving)
	start := opts.Now.UTC().Truncate(time.Second)
	if l, err := time.Parse(VersionLayout, last); err == nil && !l.Before(start) {
		start = l.Add(time.Second)
	}
	newVersion := map[string]string{}
	for i, v := range moving {
		newVersion[v] = start.Add(time.Duration(i) * time.Second).Format(VersionLayout)
	}
	// The merged directories, in memory, replayed before anything moves.
	renamed := make([][]migrate.File, len(targets))
	for i, fs := range all {
		for _, f := range fs {
			if nv, ok := newVersion[f.Version()]; ok {
				f = migrate.NewLocalFile(nv+strings.TrimPrefix(f.Name(), f.Version()), f.Bytes())
			}
			renamed[i] = append(renamed[i], f)
		}
		slices.SortFunc(renamed[i], func(a, b migrate.File) int { return strings.Compare(a.Version(), b.Version()) })
	}
	errs := make([]error, len(targets))
	for i, t := range targets {
		st, err := migration.DirState(ctx, dev, t, dirs[i].Path(), migration.FromCheckpoint(renamed[i]))
		st.Close()
		var re *migration.ReplayError
		if errors.As(err, &re) {
			file, was := filepath.Base(re.Source), ""
			for old, nv := range newVersion {
				if strings.HasPrefix(file, nv) {
					was = old + strings.TrimPrefix(file, nv)
				}
			}
			if was == "" {
				was = "version, in the merged order"
			}
			err = &RebaseError{Env: t.Env.Name, File: re.Source, Was: was, Err: re.ExecError}
		}
		errs[i] = err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var out []Moved
	for _, v := range moving {
		m := Moved{From: v, To: newVersion[v]}
		for i, fs := range all {
			for _, f := range fs {
				if f.Version() != v {
					continue
				}
				to := filepath.Join(dirs[i].Path(), newVersion[v]+strings.TrimPrefix(f.Name(), f.Version()))
				if err := os.Rename(filepath.Join(dirs[i].Path(), f.Name()), to); err != nil {
					return out, err
				}
				m.Files = append(m.Files, to)
			}
		}
		out = append(out, m)
	}
	for _, d := range dirs {
		if err := migration.Hash(d); err != nil {
			return out, err
		}
	}
	return out, nil
}

// gitVersions are the versions of the migration files in dir at ref.
func gitVersions(ctx context.Context, dir, ref string) (map[string]bool, error) {
	if ref == "" {
		return nil, errors.New("rebase: name the base branch (--base) or the versions to move")
	}
	git := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
		}
		return string(out), nil
	}
	if _, err := git("rev-parse", "--verify", "--quiet", ref+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--base %s: not a commit in the repository of %s", ref, dir)
	}
	out, err := git("ls-tree", "--name-only", ref, "--", ".")
	if err != nil {
		return nil, err
	}
	versions := map[string]bool{}
	for _, name := range strings.Split(strings.TrimSpace(out), "\n") {
		if name = filepath.Base(name); strings.HasSuffix(name, ".sql") {
			versions[migrate.NewLocalFile(name, nil).Version()] = true
		}
	}
	return versions, nil
}

// VersionLayout is the Atlas CLI's version format.
const VersionLayout = "20060102150405"
