// Package gen runs the pipeline from schema files to generated DDL:
// load, validate, lower and render for every dialect.
package gen

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/all"
)

// Result is a compiled schema and its rendering in every dialect.
type Result struct {
	Schema  *compiler.Schema
	Outputs map[string]*dialects.Output // by dialect name
	Diags   hcl.Diagnostics             // warnings, or errors when Failed
}

// Failed reports whether any error was found.
func (r *Result) Failed() bool { return r.Diags.HasErrors() }

// Options returns the compiler options for the known dialects.
func Options() load.Options { return load.Options{Dialects: all.Names()} }

// Compile loads the schema files and renders them for every dialect. All
// errors of every stage are reported together; Outputs is empty on error.
func Compile(paths ...string) *Result {
	s, diags := load.Files(Options(), paths...)
	return Lower(s, diags)
}

// CompileSource is Compile for a schema held in memory.
func CompileSource(filename string, src []byte) *Result {
	s, diags := load.Source(Options(), filename, src)
	return Lower(s, diags)
}

// Lower renders a loaded schema for every dialect.
func Lower(s *compiler.Schema, diags hcl.Diagnostics) *Result {
	r := &Result{Schema: s, Outputs: map[string]*dialects.Output{}, Diags: diags}
	if diags.HasErrors() {
		return r
	}
	// Dialects only read the model, so they lower it concurrently.
	ds := all.Dialects()
	outs := make([]*dialects.Output, len(ds))
	perDialect := make([]hcl.Diagnostics, len(ds))
	var wg sync.WaitGroup
	for i, d := range ds {
		wg.Go(func() { outs[i], perDialect[i] = d.Generate(s) })
	}
	wg.Wait()
	return Lowered(s, diags, outs, perDialect)
}

// Lowered is Lower's result for a schema loaded without errors that each
// dialect of all.Dialects() has generated already, in that order: for a
// caller that needed each dialect's diagnostics apart.
func Lowered(s *compiler.Schema, diags hcl.Diagnostics, outs []*dialects.Output, perDialect []hcl.Diagnostics) *Result {
	r := &Result{Schema: s, Outputs: map[string]*dialects.Output{}, Diags: diags}
	for i, d := range all.Dialects() {
		r.Diags = append(r.Diags, perDialect[i]...)
		if outs[i] != nil {
			r.Outputs[d.Name()] = outs[i]
		}
	}
	if r.Diags.HasErrors() {
		r.Outputs = map[string]*dialects.Output{}
	}
	return r
}

// Path is where a dialect's schema is written, relative to the output directory.
func Path(dialect string) string { return filepath.Join(dialect, "schema.sql") }

// Files returns the generated files by path relative to the output directory.
func (r *Result) Files() map[string][]byte {
	files := map[string][]byte{}
	for name, out := range r.Outputs {
		files[Path(name)] = out.SQL
	}
	return files
}

// Stale returns the files whose content on disk under dir differs from the
// generated one, with the content found (nil when missing).
func (r *Result) Stale(dir string) (map[string][]byte, error) {
	stale := map[string][]byte{}
	for path, want := range r.Files() {
		got, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if !bytes.Equal(got, want) {
			stale[path] = got
		}
	}
	return stale, nil
}

// Write writes files under dir, all or nothing. Every file is first written
// in full next to its target; then each target is moved aside and replaced.
// When a replacement fails, the targets already replaced are restored, so an
// error leaves the previous files as they were.
func Write(dir string, files map[string][]byte) error {
	type pending struct{ tmp, dst, old string }
	var temps []*pending
	cleanup := func() {
		for _, p := range temps {
			if p.tmp != "" {
				os.Remove(p.tmp)
			}
		}
	}
	for _, path := range sortedPaths(files) {
		dst := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			cleanup()
			return err
		}
		if info, err := os.Lstat(dst); err == nil && !info.Mode().IsRegular() {
			cleanup()
			return fmt.Errorf("cannot replace %s: it is not a regular file (%s); nothing was written", dst, info.Mode().Type())
		}
		tmp, err := writeTemp(dst, files[path], 0o644)
		if err != nil {
			cleanup()
			return err
		}
		temps = append(temps, &pending{tmp: tmp, dst: dst})
	}
	// rollback undoes the replacements done so far, newest first.
	rollback := func(done []*pending) {
		for i := len(done) - 1; i >= 0; i-- {
			p := done[i]
			if p.old != "" {
				os.Rename(p.old, p.dst)
			} else {
				os.Remove(p.dst)
			}
		}
	}
	for i, p := range temps {
		if _, err := os.Lstat(p.dst); err == nil {
			p.old = p.tmp + ".old"
			if err := os.Rename(p.dst, p.old); err != nil {
				p.old = ""
				rollback(temps[:i])
				cleanup()
				return fmt.Errorf("replacing %s: %w; nothing was written", p.dst, err)
			}
		}
		if err := renameFile(p.tmp, p.dst); err != nil {
			rollback(temps[:i+1])
			cleanup()
			return fmt.Errorf("replacing %s: %w; nothing was written", p.dst, err)
		}
		p.tmp = ""
	}
	for _, p := range temps {
		if p.old != "" {
			os.Remove(p.old)
		}
	}
	return nil
}

// renameFile is os.Rename; a variable so that tests can make it fail.
var renameFile = os.Rename

// WriteFile replaces one file atomically, with mode perm.
func WriteFile(path string, content []byte, perm os.FileMode) error {
	tmp, err := writeTemp(path, content, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// writeTemp writes content to a new hidden file beside path and returns its name.
func writeTemp(path string, content []byte, perm os.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Name(), nil
}

func sortedPaths(files map[string][]byte) []string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}
