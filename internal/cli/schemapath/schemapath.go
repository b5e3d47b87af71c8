// Package schemapath resolves the --schema flag of every command: the
// schema files it names, in order. Every error it returns is the user's (a
// usage error, exit 2, in the command tree).
package schemapath

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Resolve returns given's files: files as given, directories to the *.hcl
// files in them, sorted. A path that cannot be read is an error, as is a
// file named twice or an empty path.
func Resolve(given []string) ([]string, error) {
	var out []string
	seen := map[string]string{}
	add := func(given, path string) error {
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		if prev, dup := seen[abs]; dup {
			return fmt.Errorf("--schema names %s twice (as %s and %s)", path, prev, given)
		}
		seen[abs] = given
		f, err := os.Open(path)
		if err != nil {
			return ReadError(path, err)
		}
		f.Close()
		out = append(out, path)
		return nil
	}
	for _, s := range given {
		if strings.TrimSpace(s) == "" {
			return nil, errors.New("--schema is empty; give a path")
		}
		info, err := os.Stat(s)
		if err != nil {
			return nil, ReadError(s, err)
		}
		if !info.IsDir() {
			if err := add(s, s); err != nil {
				return nil, err
			}
			continue
		}
		matches, err := filepath.Glob(filepath.Join(s, "*.hcl"))
		if err != nil {
			return nil, err
		}
		slices.Sort(matches)
		var n int
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.IsDir() {
				continue
			}
			if err := add(s, m); err != nil {
				return nil, err
			}
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("the directory %s holds no *.hcl files", s)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("--schema is empty; give a schema file or a directory of *.hcl files")
	}
	return out, nil
}

// ReadError says why path cannot be read, telling where to run schemagen
// when it does not exist.
func ReadError(path string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s does not exist. Run schemagen in the directory that holds schema.hcl, or pass --schema", path)
	}
	return err
}
