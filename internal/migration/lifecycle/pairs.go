package lifecycle

import (
	"os"
	"path/filepath"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/migration"
)

// Unpaired is a version that one env's migration directory has and
// another's lacks. Every migration is written at one version in every
// dialect, so such a version is a file added by hand to one directory, a
// change that one dialect had nothing to do for, or a merge whose versions
// moved in one directory only (migrate rebase moves them in all).
type Unpaired struct {
	Version string `json:"version"`
	// File is the file of the version, in the directory of Has.
	File  string `json:"file"`
	Has   string `json:"has"`   // the env whose directory has it
	Lacks string `json:"lacks"` // the env whose directory lacks it
}

// UnpairedVersions compares t's directory with those of the other targets
// (envs of another dialect with a directory of their own): the versions t
// has and one of them lacks, and the versions one of them has and t lacks.
// The online file of a migration (NAME_online, PostgreSQL's second file) is
// part of its migration and never unpaired.
func UnpairedVersions(t migration.Target, others []migration.Target) ([]Unpaired, error) {
	mine, err := versionFiles(t)
	if err != nil {
		return nil, err
	}
	var out []Unpaired
	for _, o := range others {
		if o.Env.Name == t.Env.Name || o.Dialect.Name() == t.Dialect.Name() || filepath.Clean(o.Env.Dir) == filepath.Clean(t.Env.Dir) {
			continue
		}
		if _, err := os.Stat(o.Env.Dir); err != nil {
			continue // no directory yet: nothing to compare
		}
		theirs, err := versionFiles(o)
		if err != nil {
			return nil, err
		}
		for _, f := range mine.order {
			if _, ok := theirs.files[f.Version()]; !ok {
				out = append(out, Unpaired{Version: f.Version(), File: f.Name(), Has: t.Env.Name, Lacks: o.Env.Name})
			}
		}
		for _, f := range theirs.order {
			if _, ok := mine.files[f.Version()]; !ok {
				out = append(out, Unpaired{Version: f.Version(), File: f.Name(), Has: o.Env.Name, Lacks: t.Env.Name})
			}
		}
	}
	return out, nil
}

type versioned struct {
	order []migrate.File
	files map[string]migrate.File
}

// versionFiles are a target's files by version, without online files.
func versionFiles(t migration.Target) (*versioned, error) {
	v := &versioned{files: map[string]migrate.File{}}
	if t.Env.Dir == "" {
		return v, nil
	}
	d, err := migration.OpenDir(t.Env.Dir, false)
	if err != nil {
		return nil, err
	}
	files, err := d.Files()
	if err != nil {
		return nil, err
	}
	for i, f := range files {
		if migration.OnlinePart(files, i) {
			continue
		}
		v.order = append(v.order, f)
		v.files[f.Version()] = f
	}
	return v, nil
}
