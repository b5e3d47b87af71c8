package cli_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The README's Variables table names every SCHEMAGEN_* variable that the
// code, tests and scripts read, and atlas.hcl's.
func TestREADMEListsEveryVariable(t *testing.T) {
	readme := read(t, "../../README.md")
	_, table, ok := strings.Cut(readme, "\n## Variables\n")
	if !ok {
		t.Fatal("README.md has no Variables section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	name := regexp.MustCompile(`\bSCHEMAGEN_[A-Z0-9_]*[A-Z0-9]\b`)
	missing := map[string][]string{}
	root := "../.."
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == ".cache" || n == "tmp" {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(p)
		if ext != ".go" && ext != ".sh" && ext != ".hcl" && filepath.Base(filepath.Dir(p)) != ".ci" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, v := range name.FindAllString(string(b), -1) {
			if !strings.Contains(table, "`"+v+"`") {
				rel, _ := filepath.Rel(root, p)
				missing[v] = append(missing[v], rel)
			}
		}
		return nil
	})
	var names []string
	for v := range missing {
		names = append(names, v)
	}
	sort.Strings(names)
	for _, v := range names {
		t.Errorf("README.md's Variables table lacks %s (read in %s)", v, strings.Join(missing[v], ", "))
	}
}
