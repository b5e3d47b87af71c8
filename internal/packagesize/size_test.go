// Package packagesize holds only a test: no package of the module is over
// about 2,200 lines of non-test Go, so that each stays one a reader can
// enter.
package packagesize

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// limit is the most lines of non-test Go a package may have: 2,200, the
// figure of issue 23.
const limit = 2200

// over are the packages still over the limit, each with the most lines it
// may have: its size when listed and a twentieth more, room for the work
// of a day in parallel branches (lower a ceiling as its package shrinks). A
// package leaves the list once it is under the limit (the test fails until
// it is taken out). Split by concern, into sub-packages, as
// dialects/tidb/internal/readback and the dialects' internal/atlasdrv were.
var over = map[string]int{
	"internal/plantest": 3000,
}

// packageLines counts the lines of the non-test Go files of every package
// directory below root (tools/ is a module of its own, .cache not ours).
func packageLines(t *testing.T, root string) map[string]int {
	t.Helper()
	lines := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "tools" || rel == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines[filepath.ToSlash(filepath.Dir(rel))] += bytes.Count(b, []byte("\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestPackageSize fails on a package over the limit that is not in over,
// on one in over that grew, and on one in over that is under the limit now.
func TestPackageSize(t *testing.T) {
	lines := packageLines(t, "../..")
	if len(lines) < 20 {
		t.Fatalf("found only %d packages: is ../.. the module's root?", len(lines))
	}
	var pkgs []string
	for p := range lines {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		n := lines[p]
		max, listed := over[p]
		switch {
		case !listed && n > limit:
			t.Errorf("%s has %d lines of non-test Go, over %d: split it by concern", p, n, limit)
		case listed && n > max:
			t.Errorf("%s has %d lines of non-test Go, more than the %d it had: it may only shrink until it is under %d", p, n, max, limit)
		case listed && n <= limit:
			t.Errorf("%s has %d lines now, under %d: take it out of over", p, n, limit)
		}
	}
	for p := range over {
		if _, ok := lines[p]; !ok {
			t.Errorf("over lists %s, which has no non-test Go file", p)
		}
	}
}
