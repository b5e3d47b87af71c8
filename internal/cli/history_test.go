package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// TestEditedHistoryRefusedEverywhere: after an applied file is edited and
// rehashed, migrate status said UP TO DATE (exit 0) while apply refused it,
// and drift replayed the edited file; an edit without migrate hash went
// unnoticed by drift (issue 30, item 4). Apply, status and drift now refuse
// both on each database, naming the file (exit 1), and lint and diff refuse
// the unhashed edit. Lint and diff (and --check) accepted the rehashed edit
// (they have no database: failed before); they now refuse it too, from the
// hashes of the files their kept states were reached through (and apply
// marks the files it ran as history: only a file the latest migrate diff
// wrote and no apply ran may still be edited).
func TestEditedHistoryRefusedEverywhere(t *testing.T) {
	dir := migrateProject(t)
	if r := migrate(t, dir, "diff", "init"); r.code != 0 {
		t.Fatalf("migrate diff init: exit %d\n%s", r.code, r.stderr)
	}
	urls := map[string]string{"postgres": dbtest.Postgres(t).URL, "tidb": dbtest.TiDB(t).URL}
	for d, url := range urls {
		if r := applyCLI(t, dir, "apply", "--env", d, "--url", url); r.code != 0 {
			t.Fatalf("%s: apply: exit %d", d, r.code)
		}
	}
	edit := func() {
		for d := range urls {
			files, _ := filepath.Glob(filepath.Join(dir, "migrations", d, "*_init.sql"))
			b, err := os.ReadFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(files[0], append(b, "-- edited\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	drift := func(d string) run {
		return schemagen(t, dir, "drift", "--config", filepath.Join(dir, "atlas.hcl"), "--env", d, "--url", urls[d], "--no-cache")
	}
	for _, hashed := range []bool{false, true} {
		edit()
		if hashed {
			if r := applyCLI(t, dir, "hash"); r.code != 0 {
				t.Fatal(r.stderr)
			}
			// atlas.sum agrees: lint and diff know the file from the
			// state they kept when it was replayed (and applied).
			for _, args := range [][]string{{"lint"}, {"diff", "next"}, {"diff", "--check"}} {
				r := migrate(t, dir, args...)
				if r.code != 1 {
					t.Errorf("hashed edit: migrate %v: exit %d, want 1\n%s%s", args, r.code, r.stdout, r.stderr)
				}
				wantIn(t, "hashed edit: migrate "+strings.Join(args, " "), r.stdout+r.stderr, "_init.sql", "changed after")
			}
		} else {
			for _, args := range [][]string{{"lint"}, {"diff", "next"}} {
				r := migrate(t, dir, args...)
				if r.code != 1 {
					t.Errorf("unhashed edit: migrate %v: exit %d, want 1\n%s%s", args, r.code, r.stdout, r.stderr)
				}
				wantIn(t, "unhashed edit: migrate "+args[0], r.stdout+r.stderr, "_init.sql")
			}
		}
		for d, url := range urls {
			for _, args := range [][]string{{"status", "--env", d, "--url", url}, {"apply", "--env", d, "--url", url}} {
				r := applyCLI(t, dir, args...)
				if r.code != 1 {
					t.Errorf("hashed %v: %s: migrate %s: exit %d, want 1", hashed, d, args[0], r.code)
				}
				wantIn(t, d+" "+args[0], r.stdout+r.stderr, "_init.sql")
			}
			r := drift(d)
			if r.code != 1 {
				t.Errorf("hashed %v: %s: drift: exit %d, want 1\n%s%s", hashed, d, r.code, r.stdout, r.stderr)
			}
			wantIn(t, d+" drift", r.stdout+r.stderr, "_init.sql")
		}
	}
}
