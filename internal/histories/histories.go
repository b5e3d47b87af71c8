// Package histories reads the public two-dialect migration histories of
// ../shared/corpora/histories (Authelia's and Kratos's, written by hand by
// other teams) in version order, their files by script family
// (corpora.Families: which database runs a family is the replay's to
// say), with what a team adopting schemagen reads in them (renames,
// backfills), and its test replays them through
// schemagen as a team adopting it mid-history would: after a version, the
// project's own files applied to an original PostgreSQL and TiDB database
// are imported into a model, generated, planned with `migrate diff` and
// applied with `migrate apply` to a second pair of databases that only ever
// saw schemagen's migrations; that pair, and the originals, are compared
// with fresh databases built from generated/, and the rows inserted into
// the pair are kept (see replay_test.go and the README).
package histories

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/corpora"
)

// isFamily reports whether a word the public histories tag their files by
// (a folder in Authelia, a file name's tag in Kratos) is a script family of
// ours (corpora.Families): others (sqlite3, cockroach) are not.
func isFamily(tag string) bool { return slices.Contains(corpora.Families, tag) }

// History is one migration history, its versions in order.
type History struct {
	Name     string
	Versions []Version
}

// Version is one step of a history: its files by script family
// (corpora.FamilyPostgres, corpora.FamilyMySQL). A family without a file
// has nothing to run at this version.
type Version struct {
	// N is the version's place in the history, from 1.
	N     int
	Name  string
	Files map[string]string
}

// Read reads the history name ("authelia" or "kratos") of the folder
// histories (corpora/histories).
func Read(histories, name string) (*History, error) {
	dir := filepath.Join(histories, name)
	switch name {
	case "authelia":
		return readAuthelia(dir)
	case "kratos":
		return readKratos(dir)
	}
	return nil, fmt.Errorf("histories: no history %q (authelia, kratos)", name)
}

// Names are the histories Read knows.
var Names = []string{"authelia", "kratos"}

var autheliaFile = regexp.MustCompile(`^(V\d{4})\..*\.up\.sql$`)

// readAuthelia reads postgres/V00NN.Name.up.sql and mysql/..., in version
// order.
func readAuthelia(dir string) (*History, error) {
	byName := map[string]map[string]string{}
	for _, sub := range corpora.Families {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			m := autheliaFile.FindStringSubmatch(e.Name())
			if m == nil {
				continue
			}
			if byName[m[1]] == nil {
				byName[m[1]] = map[string]string{}
			}
			byName[m[1]][sub] = filepath.Join(dir, sub, e.Name())
		}
	}
	return ordered("authelia", byName, func(a, b string) int { return strings.Compare(a, b) }), nil
}

var kratosFile = regexp.MustCompile(`^(\d+)_[^.]*((?:\.[a-z0-9]+)*)\.up\.sql$`)

// readKratos reads sql/VERSION_name[.FAMILY][.autocommit].up.sql: for
// each family the file tagged with it wins over the one with no tag; other
// tags' files (sqlite3, cockroach) are not ours.
func readKratos(dir string) (*History, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "sql"))
	if err != nil {
		return nil, err
	}
	type pick struct {
		path  string
		exact bool
	}
	picks := map[string]map[string]pick{}
	for _, e := range entries {
		m := kratosFile.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		version, tags := m[1], strings.Split(strings.TrimPrefix(m[2], "."), ".")
		tags = slices.DeleteFunc(tags, func(s string) bool { return s == "" || s == "autocommit" })
		var for_ []string
		switch {
		case len(tags) == 0:
			for_ = corpora.Families
		case len(tags) == 1 && isFamily(tags[0]):
			for_ = tags
		default:
			continue
		}
		if picks[version] == nil {
			picks[version] = map[string]pick{}
		}
		for _, d := range for_ {
			if old, ok := picks[version][d]; ok && old.exact {
				continue
			}
			picks[version][d] = pick{path: filepath.Join(dir, "sql", e.Name()), exact: len(tags) == 1}
		}
	}
	byName := map[string]map[string]string{}
	for v, ps := range picks {
		byName[v] = map[string]string{}
		for d, p := range ps {
			byName[v][d] = p.path
		}
	}
	// Versions are numbers of equal width but for the first ones.
	return ordered("kratos", byName, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	}), nil
}

func ordered(name string, byName map[string]map[string]string, cmp func(a, b string) int) *History {
	h := &History{Name: name}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.SortFunc(names, cmp)
	for i, n := range names {
		h.Versions = append(h.Versions, Version{N: i + 1, Name: n, Files: byName[n]})
	}
	return h
}

// Statements are the statements of v's file of script family f, as the
// family's client sends them (none when v has no file of f).
func (v Version) Statements(f string) ([]string, error) {
	path, ok := v.Files[f]
	if !ok {
		return nil, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return corpora.Split(f, src)
}
