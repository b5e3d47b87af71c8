package migration

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"ariga.io/atlas/sql/migrate"
)

// OpenDir opens a migration directory, creating it when create is set.
func OpenDir(path string, create bool) (*migrate.LocalDir, error) {
	if create {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, err
		}
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("migration directory %s: %w", path, err)
	}
	return migrate.NewLocalDir(path)
}

// SumError tells which files do not match atlas.sum.
type SumError struct {
	Dir                    string
	Edited, Added, Removed []string
	Missing                bool // no atlas.sum at all while there are files
}

func (e *SumError) Error() string {
	var parts []string
	if e.Missing {
		parts = append(parts, "atlas.sum is missing")
	}
	for _, f := range e.Edited {
		parts = append(parts, filepath.Join(e.Dir, f)+" was edited")
	}
	for _, f := range e.Added {
		parts = append(parts, filepath.Join(e.Dir, f)+" was added")
	}
	for _, f := range e.Removed {
		parts = append(parts, filepath.Join(e.Dir, f)+" was removed")
	}
	return fmt.Sprintf("%s does not match %s: %s; review the change, then run `schemagen migrate hash`",
		filepath.Join(e.Dir, migrate.HashFileName), e.Dir, strings.Join(parts, ", "))
}

// CheckSum compares the directory with its atlas.sum, naming every file that
// differs, as the Atlas CLI refuses to work on such a directory.
func CheckSum(dir *migrate.LocalDir) error {
	files, err := dir.Files()
	if err != nil {
		return err
	}
	want, err := dir.Checksum()
	if err != nil {
		return err
	}
	raw, err := fs.ReadFile(dir, migrate.HashFileName)
	if errors.Is(err, fs.ErrNotExist) {
		if len(files) == 0 {
			return nil
		}
		return &SumError{Dir: dir.Path(), Missing: true}
	}
	if err != nil {
		return err
	}
	var got migrate.HashFile
	if err := got.UnmarshalText(raw); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir.Path(), migrate.HashFileName), err)
	}
	e := &SumError{Dir: dir.Path()}
	// Each file's sum chains on the files before it, so that once one file
	// is edited, added or removed, every later sum differs too: only the
	// first difference names an edited file.
	firstRemoved := len(got)
	for i, name := range sumNames(got) {
		if !slices.ContainsFunc(files, func(f migrate.File) bool { return f.Name() == name }) {
			e.Removed = append(e.Removed, name)
			firstRemoved = min(firstRemoved, i)
		}
	}
	chained := false
	for _, f := range files {
		h, err := got.SumByName(f.Name())
		switch {
		case err != nil:
			e.Added = append(e.Added, f.Name())
			chained = true
		case h != mustSum(want, f.Name()):
			if !chained && slices.Index(sumNames(got), f.Name()) < firstRemoved {
				e.Edited = append(e.Edited, f.Name())
			}
			chained = true
		}
	}
	if len(e.Edited)+len(e.Added)+len(e.Removed) == 0 {
		if got.Sum() != want.Sum() {
			return &SumError{Dir: dir.Path(), Edited: []string{migrate.HashFileName}}
		}
		return nil
	}
	return e
}

func mustSum(h migrate.HashFile, name string) string {
	s, _ := h.SumByName(name)
	return s
}

func sumNames(h migrate.HashFile) []string {
	var names []string
	for _, line := range h {
		names = append(names, line.N)
	}
	return names
}

// Hash rewrites atlas.sum from the directory's files.
func Hash(dir *migrate.LocalDir) error {
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	return migrate.WriteSumFile(dir, sum)
}

// VersionLayout is the Atlas CLI's version format.
const VersionLayout = "20060102150405"

// NextVersion returns a version for a new migration in every dir: now, or
// one second after the newest existing file, whichever is later.
func NextVersion(now time.Time, dirs ...*migrate.LocalDir) (string, error) {
	v := now.UTC().Truncate(time.Second)
	for _, d := range dirs {
		files, err := d.Files()
		if err != nil {
			return "", err
		}
		if len(files) == 0 {
			continue
		}
		last, err := time.Parse(VersionLayout, files[len(files)-1].Version())
		if err != nil {
			continue
		}
		if !last.Before(v) {
			v = last.Add(time.Second)
		}
	}
	return v.Format(VersionLayout), nil
}

// FileName is a migration file's name.
func FileName(version, name string) string {
	if name == "" {
		return version + ".sql"
	}
	return version + "_" + name + ".sql"
}

// ValidName checks a migration name given on the command line.
func ValidName(name string) error {
	if name == "" {
		return errors.New("a migration needs a name, such as add_sources_priority")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Errorf("migration name %q: use letters, digits, '_' and '-'", name)
		}
	}
	return nil
}
