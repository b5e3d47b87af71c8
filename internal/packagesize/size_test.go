// Package packagesize holds only a test: no package of the module is over
// about 2,200 lines of non-test Go, so that each stays one a reader can
// enter.
package packagesize

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
// None is over now: a package that grows past the limit fails the test
// (TestPackageSizeCheck shows it does).
var over = map[string]int{}

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
	for _, msg := range problems(lines, over) {
		t.Error(msg)
	}
}

// problems are what TestPackageSize reports of packages of these sizes,
// with these listed over the limit.
func problems(lines, over map[string]int) []string {
	var pkgs []string
	for p := range lines {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var out []string
	for _, p := range pkgs {
		n := lines[p]
		max, listed := over[p]
		switch {
		case !listed && n > limit:
			out = append(out, fmt.Sprintf("%s has %d lines of non-test Go, over %d: split it by concern", p, n, limit))
		case listed && n > max:
			out = append(out, fmt.Sprintf("%s has %d lines of non-test Go, more than the %d it had: it may only shrink until it is under %d", p, n, max, limit))
		case listed && n <= limit:
			out = append(out, fmt.Sprintf("%s has %d lines now, under %d: take it out of over", p, n, limit))
		}
	}
	var listed []string
	for p := range over {
		if _, ok := lines[p]; !ok {
			listed = append(listed, fmt.Sprintf("over lists %s, which has no non-test Go file", p))
		}
	}
	sort.Strings(listed)
	return append(out, listed...)
}

// TestPackageSizeCheck: the check fails on each kind of package it
// should, whether or not over lists any (it will list none once every
// package is split), and on nothing else.
func TestPackageSizeCheck(t *testing.T) {
	lines := map[string]int{"a": limit, "b": limit + 1, "c": 3000, "d": 2500, "e": 1000}
	for _, tc := range []struct {
		over map[string]int
		want []string
	}{
		{nil, []string{
			"b has 2201 lines of non-test Go, over 2200: split it by concern",
			"c has 3000 lines of non-test Go, over 2200: split it by concern",
			"d has 2500 lines of non-test Go, over 2200: split it by concern",
		}},
		{map[string]int{"b": 2300, "c": 2900, "d": 2600, "e": 1100, "gone": 2500}, []string{
			"c has 3000 lines of non-test Go, more than the 2900 it had: it may only shrink until it is under 2200",
			"e has 1000 lines now, under 2200: take it out of over",
			"over lists gone, which has no non-test Go file",
		}},
	} {
		if got := problems(lines, tc.over); !slices.Equal(got, tc.want) {
			t.Errorf("over %v: got\n%s\nwant\n%s", tc.over, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}
