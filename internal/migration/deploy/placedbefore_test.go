package deploy

import (
	"os"
	"path/filepath"
	"testing"

	"ariga.io/atlas/sql/migrate"
)

// TestPlacedBefore: only files between the last complete revision and a
// failed or partial last one are run before it (migrate new --data
// --before a failed version); a file missing below the last complete
// revision, or any missing file when the last revision is complete, stays
// Atlas's out-of-order error.
func TestPlacedBefore(t *testing.T) {
	t.Parallel()
	path := t.TempDir()
	for _, n := range []string{"1_a.sql", "2_fix.sql", "3_c.sql"} {
		if err := os.WriteFile(filepath.Join(path, n), []byte("SELECT 1;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := migrate.NewLocalDir(path)
	if err != nil {
		t.Fatal(err)
	}
	rev := func(v string, applied, total int, e string) *migrate.Revision {
		return &migrate.Revision{Version: v, Applied: applied, Total: total, Error: e}
	}
	for _, c := range []struct {
		name string
		revs []*migrate.Revision
		want bool
	}{
		{"before a failed file (rolled back)", []*migrate.Revision{rev("1", 1, 1, ""), rev("3", 0, 1, "boom")}, true},
		{"before a partial file", []*migrate.Revision{rev("1", 1, 1, ""), rev("3", 1, 2, "boom")}, true},
		{"last file complete", []*migrate.Revision{rev("1", 1, 1, ""), rev("3", 1, 1, "")}, false},
		{"missing below the last complete revision", []*migrate.Revision{rev("2", 1, 1, ""), rev("3", 0, 1, "boom")}, false},
		{"nothing missing", []*migrate.Revision{rev("1", 1, 1, ""), rev("2", 1, 1, ""), rev("3", 0, 1, "boom")}, false},
		{"no revisions", nil, false},
	} {
		if got := placedBefore(dir, c.revs); got != c.want {
			t.Errorf("%s: placedBefore = %v, want %v", c.name, got, c.want)
		}
	}
}
