package portable

import (
	"context"
	"errors"
	"fmt"
	"github.com/schemagen/schemagen/internal/migration"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/datamig"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Dir is the directory of portable data migrations: "portable"
// beside the envs' migration directories, which must share one parent.
func Dir(targets []migration.Target) (string, error) {
	if len(targets) == 0 {
		return "", errors.New("no env to render portable data migrations for")
	}
	parent := filepath.Dir(filepath.Clean(targets[0].Env.Dir))
	for _, t := range targets[1:] {
		if p := filepath.Dir(filepath.Clean(t.Env.Dir)); p != parent {
			return "", fmt.Errorf("portable data migrations live beside the envs' migration directories, which must then share one parent: env %s has %s, env %s has %s", targets[0].Env.Name, targets[0].Env.Dir, t.Env.Name, t.Env.Dir)
		}
	}
	return filepath.Join(parent, "portable"), nil
}

// Rendered is what Render found: the files to write (rendered data
// migrations and the atlas.sum files that change with them), by path, and
// the portable sources, by path, for diagnostics.
type Rendered struct {
	Files   map[string][]byte
	Sources map[string][]byte
	// Kept counts rendered files that were current.
	Kept int
}

// Render renders every portable data migration for each target,
// at the portable file's version in the target's directory: files that are
// current (datamig.Current) are kept as they are, as a migration once
// written is; others are checked against the model at their version
// (ModelAt, replayed on dev databases only then) and rendered. Errors in a
// portable file are diagnostics; nothing is written by it.
func Render(ctx context.Context, dev *scratch.Dev, targets []migration.Target) (*Rendered, hcl.Diagnostics, error) {
	out := &Rendered{Files: map[string][]byte{}, Sources: map[string][]byte{}}
	pdir, err := Dir(targets)
	if err != nil {
		return nil, nil, err
	}
	portable, err := portableFiles(pdir)
	if err != nil {
		return nil, nil, err
	}
	models := map[string]*gen.Result{}
	modelAt := func(version string) (*gen.Result, error) {
		if m, ok := models[version]; ok {
			return m, nil
		}
		m, err := ModelAt(ctx, dev, targets, version)
		models[version] = m
		return m, err
	}
	var diags hcl.Diagnostics
	for _, t := range targets {
		dr, ok := t.Dialect.(dialects.DataRenderer)
		if !ok && len(portable) > 0 {
			return nil, nil, fmt.Errorf("env %s: the %s dialect cannot render data migrations", t.Env.Name, t.Dialect.Name())
		}
		local, err := dirFiles(t.Env.Dir)
		if err != nil {
			return nil, nil, err
		}
		changed := map[string][]byte{}
		for _, p := range portable {
			name := filepath.Base(p)
			path := filepath.Join(t.Env.Dir, name)
			src, err := os.ReadFile(p)
			if err != nil {
				return nil, nil, err
			}
			out.Sources[p] = src
			if err := versionFree(t, name, local); err != nil {
				return nil, nil, err
			}
			if old, ok := local[name]; ok && datamig.Current(old, src) {
				out.Kept++
				continue
			}
			version := portableVersion(name)
			m, err := modelAt(version)
			if err != nil {
				return nil, nil, err
			}
			stmts, ds := compiled(p, src, version, m.Schema, diags)
			if ds != nil {
				diags = append(diags, ds...)
				continue
			}
			if stmts == nil {
				continue // its errors are reported once
			}
			var x *dialects.Exprs
			if o := m.Outputs[t.Dialect.Name()]; o != nil {
				x = o.Exprs
			} else if o, _ := t.Dialect.Generate(m.Schema); o != nil {
				x = o.Exprs
			}
			b := datamig.Render(dr, p, src, stmts, datamig.Catalog(m.Schema), x)
			if !slices.Equal(local[name], b) {
				changed[name] = b
				out.Files[path] = b
			}
		}
		// A rendered file whose source is gone would stay applied with no
		// text to keep it current.
		for name, b := range local {
			if src := datamig.Source(b); src != "" && !slices.Contains(portable, filepath.Join(pdir, name)) {
				return nil, nil, fmt.Errorf("%s was rendered from %s, which no longer exists: restore it, or remove the rendered files and run `schemagen migrate hash`", filepath.Join(t.Env.Dir, name), src)
			}
		}
		if len(changed) > 0 {
			sum, err := rehash(t.Env.Dir, local, changed)
			if err != nil {
				return nil, nil, err
			}
			out.Files[filepath.Join(t.Env.Dir, migrate.HashFileName)] = sum
		}
	}
	if diags.HasErrors() {
		return nil, diags, nil
	}
	return out, diags, nil
}

// portableVersion is the version of a migration file's name.
func portableVersion(name string) string {
	v, _, _ := strings.Cut(strings.TrimSuffix(name, ".sql"), "_")
	return v
}

// compiled checks a portable file of version once for all targets against
// the model s at its version: it returns nil statements and no
// diagnostics when earlier diagnostics are its own.
func compiled(path string, src []byte, version string, s *compiler.Schema, earlier hcl.Diagnostics) ([]expr.Stmt, hcl.Diagnostics) {
	for _, d := range earlier {
		if d.Subject != nil && d.Subject.Filename == path {
			return nil, nil
		}
	}
	stmts, ds := datamig.Compile(path, src, s)
	if ds.HasErrors() {
		for _, d := range ds {
			d.Detail += fmt.Sprintf(" (Checked against the schema the migration files before version %s create.)", version)
		}
		return nil, ds
	}
	return stmts, nil
}

// versionFree refuses a portable file whose version another file of the
// target's directory has.
func versionFree(t migration.Target, name string, local map[string][]byte) error {
	version, _, _ := strings.Cut(name, "_")
	version = strings.TrimSuffix(version, ".sql")
	for other, b := range local {
		v, _, _ := strings.Cut(other, "_")
		if strings.TrimSuffix(v, ".sql") == version && other != name && datamig.Source(b) == "" {
			return fmt.Errorf("version %s of the portable data migration %s is taken in %s by %s; give it a version of its own (schemagen migrate new NAME --data)", version, name, t.Env.Dir, other)
		}
	}
	return nil
}

// portableFiles lists the portable data migrations, sorted.
func portableFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".sql") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

// dirFiles reads a migration directory's .sql files by name (none when it
// does not exist).
func dirFiles(dir string) (map[string][]byte, error) {
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = b
	}
	return out, nil
}

// rehash returns the atlas.sum of dir with the changed files written. The
// directory's other files must match its atlas.sum, as for every command
// that adds a migration.
func rehash(dir string, local, changed map[string][]byte) ([]byte, error) {
	before := &migrate.MemDir{}
	after := &migrate.MemDir{}
	for name, b := range local {
		if err := before.WriteFile(name, b); err != nil {
			return nil, err
		}
		if _, ok := changed[name]; !ok {
			if err := after.WriteFile(name, b); err != nil {
				return nil, err
			}
		}
	}
	for name, b := range changed {
		if err := after.WriteFile(name, b); err != nil {
			return nil, err
		}
	}
	if len(local) > 0 {
		raw, err := os.ReadFile(filepath.Join(dir, migrate.HashFileName))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		var got migrate.HashFile
		if raw != nil {
			if err := got.UnmarshalText(raw); err != nil {
				return nil, fmt.Errorf("%s: %w", filepath.Join(dir, migrate.HashFileName), err)
			}
		}
		want, err := before.Checksum()
		if err != nil {
			return nil, err
		}
		e := &migration.SumError{Dir: dir, Missing: raw == nil}
		for name := range local {
			if _, ok := changed[name]; ok {
				continue
			}
			h, err := got.SumByName(name)
			switch {
			case err != nil && raw != nil:
				e.Added = append(e.Added, name)
			case err == nil && h != sumOf(want, name):
				e.Edited = append(e.Edited, name)
			}
		}
		if e.Missing || len(e.Added)+len(e.Edited) > 0 {
			slices.Sort(e.Added)
			slices.Sort(e.Edited)
			return nil, e
		}
	}
	sum, err := after.Checksum()
	if err != nil {
		return nil, err
	}
	return sum.MarshalText()
}

// NewFile writes an empty portable data migration with a version
// newer than every env's files, and returns its path.
func NewFile(targets []migration.Target, name string, now time.Time) (string, error) {
	return newPortable(targets, name, func(dirs []*migrate.LocalDir) (string, error) { return migration.NextVersion(now, dirs...) })
}

// NewFileBefore writes an empty portable data migration that runs
// just before the migration of version before (one second earlier), which
// every env's directory must hold, and returns its path. Whether a
// database applied that migration already is the caller's to check.
func NewFileBefore(targets []migration.Target, name, before string) (string, error) {
	return newPortable(targets, name, func(dirs []*migrate.LocalDir) (string, error) {
		at, err := time.Parse(migration.VersionLayout, before)
		if err != nil {
			return "", fmt.Errorf("--before %s: not a version of a migration file (%s)", before, migration.VersionLayout)
		}
		prev := ""
		for i, d := range dirs {
			files, err := d.Files()
			if err != nil {
				return "", err
			}
			found := false
			for _, f := range files {
				if f.Version() == before {
					found = true
				} else if f.Version() < before && f.Version() > prev {
					prev = f.Version()
				}
			}
			if !found && i < len(dirs)-1 {
				return "", fmt.Errorf("--before %s: %s has no migration file of that version", before, d.Path())
			}
		}
		v := at.Add(-time.Second).Format(migration.VersionLayout)
		if v <= prev {
			return "", fmt.Errorf("--before %s: no version is free between %s and %s; the data migration cannot run between them", before, prev, before)
		}
		return v, nil
	})
}

// newPortable writes an empty portable data migration of the version that
// version picks among the envs' directories and the portable one (last).
func newPortable(targets []migration.Target, name string, version func([]*migrate.LocalDir) (string, error)) (string, error) {
	pdir, err := Dir(targets)
	if err != nil {
		return "", err
	}
	var dirs []*migrate.LocalDir
	for _, t := range targets {
		dir, err := migration.OpenDir(t.Env.Dir, true)
		if err != nil {
			return "", err
		}
		if err := migration.CheckSum(dir); err != nil {
			return "", err
		}
		dirs = append(dirs, dir)
	}
	pd, err := migration.OpenDir(pdir, true)
	if err != nil {
		return "", err
	}
	v, err := version(append(dirs, pd))
	if err != nil {
		return "", err
	}
	path := filepath.Join(pdir, migration.FileName(v, name))
	body := `-- A portable data migration: written once, rendered for every dialect by
-- ` + "`schemagen generate`" + ` at this version, checked against the schema the
-- migration files of earlier versions create (not schema.hcl as it is now).
-- Statements (see docs/data-migrations.md):
--   INSERT INTO t (a, b) SELECT x.a, x.b FROM s x JOIN u ON u.id = x.u_id WHERE ... [ON CONFLICT DO NOTHING];
--   UPDATE t SET a = ..., b = ... [FROM u JOIN v ON ...] WHERE ... [BATCH = 10000];
--   DELETE FROM t WHERE ...;
--   ASSERT NOT EXISTS (SELECT 1 FROM t WHERE ...) MESSAGE 'what is wrong';
`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// sumOf is name's hash in h, "" when h has none.
func sumOf(h migrate.HashFile, name string) string {
	s, _ := h.SumByName(name)
	return s
}
