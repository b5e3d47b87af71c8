package all_test

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// concerns are the non-test files of every dialect package, each with the
// one concern it holds: a reader who knows where a thing is in one dialect
// finds it in the other under the same name. Sub-packages of a dialect are
// not compared. Both have internal/atlasdrv, their Atlas driver decorator;
// internal/online, the migration planner, sessions, resume and hazards,
// which online.go and hazards.go hand the Online part to; internal/lexical,
// quoting; internal/lower, the generation (settings, the table of types,
// limits, the lowering), which dialect.go, types.go and rules.go hand
// Generate, Type and Rules to; and internal/catalog, the catalog queries
// of import beyond Atlas's inspection. TiDB has internal/readback too, its
// SQL reader on TiDB's parser, and internal/datafunc, which datafunc.go
// hands the rendering to; PostgreSQL internal/builtin, the snapshot
// of its catalog that raw texts are checked against (it has no parser
// here).
var concerns = map[string]string{
	"atlas.go":       "the Atlas part: OpenAtlas (its driver is the sub-package internal/atlasdrv), the state file, the statement scanner, server warnings",
	"data.go":        "data migrations rendered as SQL",
	"datafunc.go":    "the functions, intervals and casts of data migrations, each with one meaning",
	"database.go":    "URLs, the database/sql driver, the dev server",
	"dialect.go":     "the Dialect value, Generate, quoting and the expression syntax (Generate and the syntax are internal/lower's)",
	"hazards.go":     "hazard codes, and the hazards of a change in the form the planner chose (internal/online computes them)",
	"import.go":      "an inspected column read into the model: default, identity, clauses",
	"importindex.go": "an inspected index read into the model",
	"inspect.go":     "what import reads from a live database, or infers from it, beyond Atlas's inspection (its catalog queries are internal/catalog)",
	"lint.go":        "the Lint part: statement rules, codes, errors",
	"objects.go":     "views, triggers and extensions",
	"online.go":      "the Online and Sessions parts: the migration planner, online sessions and resume (internal/online)",
	"parse.go":       "ParseExpr: expression text as the database prints it, read into the model",
	"revisions.go":   "the revision table",
	"rules.go":       "the dialect's limits and rules (internal/lower's)",
	"types.go":       "one table of types, from which Type and NeutralType derive (the table is internal/lower's)",
}

// dialectPackages are the packages compared: the two real dialects.
// internal/thirddialect is not held to the layout: it is a toy dialect,
// declared in its tests to show that the core names no dialect, and has no
// non-test file; TestSameFiles fails if it gets one, so that it is then
// either given the layout or left out here on purpose.
var dialectPackages = []string{"../postgres", "../tidb"}

func nonTestGoFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// TestSameFiles: both dialect packages have the same set of non-test file
// names, each one of concerns.
func TestSameFiles(t *testing.T) {
	first := nonTestGoFiles(t, dialectPackages[0])
	for _, dir := range dialectPackages {
		names := nonTestGoFiles(t, dir)
		for _, n := range names {
			if _, ok := concerns[n]; !ok {
				t.Errorf("%s: %s is no concern of a dialect's; put its code in the file of its concern, or add the concern to concerns (and the file to every dialect)", filepath.Base(dir), n)
			}
		}
		if !slices.Equal(names, first) {
			t.Errorf("%s has the files %v, %s has %v: every dialect has the same files", filepath.Base(dir), names, filepath.Base(dialectPackages[0]), first)
		}
	}
	if third := nonTestGoFiles(t, "../../internal/thirddialect"); len(third) > 0 {
		t.Errorf("internal/thirddialect has non-test files %v: hold it to the layout (dialectPackages) or say here why not", third)
	}
}
