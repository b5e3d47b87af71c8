package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/schemagen/schemagen/internal/migration"
)

// replays counts the migration files of dir's directories that commands
// replay on scratch databases (migration.ReplayHook), by dialect.
type replays struct {
	mu    sync.Mutex
	files map[string][]string
}

func countReplays(t *testing.T, dir string) *replays {
	r := &replays{files: map[string][]string{}}
	migration.ReplayHook = func(dirPath, file string) {
		rel, err := filepath.Rel(filepath.Join(dir, "migrations"), dirPath)
		if err != nil || strings.HasPrefix(rel, "..") {
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.files[rel] = append(r.files[rel], file)
	}
	t.Cleanup(func() { migration.ReplayHook = nil })
	return r
}

// take returns the files replayed since the last take, by dialect.
func (r *replays) take() map[string][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.files
	r.files = map[string][]string{}
	return out
}

// TestKeptStatesReplayOnlyNewFiles: migrate lint and migrate diff --check
// replayed every file of the directory on every run (issue 30, item 8:
// lint 15-30 s by the 12th release). They now start from the longest
// prefix of the files whose state is kept (proven by a migrate diff, or
// reached by one that found the directory in step), so a directory with
// one new file replays that file, and lint, which lints it, none; with a
// fresh cache the first run replays everything once and keeps its state.
// Failed before: diff --check replayed every file, lint every file before
// the one linted.
func TestKeptStatesReplayOnlyNewFiles(t *testing.T) {
	dir := migrateProject(t)
	count := countReplays(t, dir)
	ok := func(args ...string) {
		t.Helper()
		if r := migrate(t, dir, args...); r.code != 0 {
			t.Fatalf("migrate %v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	ok("diff", "init")
	src := model
	for _, col := range []string{"note", "label"} {
		src = strings.Replace(src, "  primary_key {", fmt.Sprintf("  column %q {\n    type = text\n    null = true\n  }\n  primary_key {", col), 1)
		if err := os.WriteFile(filepath.Join(dir, "schema.hcl"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := schemagen(t, dir, "generate", "--out", "OUT"); r.code != 0 {
			t.Fatal(r.stderr)
		}
		ok("diff", "add_"+col)
	}
	// A data migration written by hand: a file no migrate diff proved.
	backfill := func(name string) {
		t.Helper()
		ok("new", name)
		for _, d := range []string{"postgres", "tidb"} {
			files, _ := filepath.Glob(filepath.Join(dir, "migrations", d, "*_"+name+".sql"))
			if len(files) != 1 {
				t.Fatalf("%s: %v", d, files)
			}
			if err := os.WriteFile(files[0], []byte("UPDATE items SET note = 'none' WHERE note IS NULL;\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ok("hash")
	}
	all := func(d string) []string {
		var names []string
		files, _ := filepath.Glob(filepath.Join(dir, "migrations", d, "*.sql"))
		for _, f := range files {
			names = append(names, filepath.Base(f))
		}
		return names
	}
	want := func(what string, got map[string][]string, each func(d string) []string) {
		t.Helper()
		for _, d := range []string{"postgres", "tidb"} {
			w := each(d)
			if !slices.Equal(got[d], w) {
				t.Errorf("%s: %s replayed %v, want %v", what, d, got[d], w)
			}
		}
	}
	newest := func(name string) func(string) []string {
		return func(d string) []string {
			files, _ := filepath.Glob(filepath.Join(dir, "migrations", d, "*_"+name+".sql"))
			return []string{filepath.Base(files[0])}
		}
	}
	none := func(string) []string { return nil }

	backfill("fill_note")
	count.take()
	ok("diff", "--check")
	want("diff --check after a new file", count.take(), newest("fill_note"))
	ok("lint")
	want("lint of the new file", count.take(), none)
	ok("lint", "--latest", "2")
	want("lint of the two latest migrations", count.take(), none)

	// Another machine's cache (CI): the first run replays every file once
	// and keeps the state it reaches.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ok("diff", "--check")
	want("diff --check on a fresh cache", count.take(), all)
	backfill("fill_again")
	count.take()
	ok("lint")
	want("lint on the kept state", count.take(), none)
	ok("diff", "--check")
	want("diff --check on the kept state", count.take(), newest("fill_again"))
	ok("lint", "--no-cache")
	if got := count.take(); len(got["postgres"]) != len(all("postgres"))-1 {
		t.Errorf("lint --no-cache replayed %v, want every file but the one linted", got)
	}
}
