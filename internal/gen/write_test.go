package gen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteRestoresOnFailure makes the second replacement fail: the first
// file, already replaced, is put back and no temporary file stays.
func TestWriteRestoresOnFailure(t *testing.T) {
	dir := t.TempDir()
	old := map[string][]byte{"a/schema.sql": []byte("old a\n"), "b/schema.sql": []byte("old b\n")}
	if err := Write(dir, old); err != nil {
		t.Fatal(err)
	}
	calls := 0
	renameFile = func(from, to string) error {
		calls++
		if calls == 2 {
			return errors.New("disk on fire")
		}
		return os.Rename(from, to)
	}
	defer func() { renameFile = os.Rename }()
	err := Write(dir, map[string][]byte{"a/schema.sql": []byte("new a\n"), "b/schema.sql": []byte("new b\n")})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("Write: %v, want the rename error", err)
	}
	for path, want := range old {
		got, err := os.ReadFile(filepath.Join(dir, path))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s after a failed Write: %q, %v; want %q", path, got, err, want)
		}
		entries, _ := os.ReadDir(filepath.Join(dir, filepath.Dir(path)))
		if len(entries) != 1 {
			t.Errorf("%s: leftovers %v", filepath.Dir(path), entries)
		}
	}
}
