package migration_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/migration"
)

// Every file's sum in atlas.sum chains on the ones before it: one edited
// file is named alone, not with every file after it.
func TestSumErrorNamesOnlyTheEditedFile(t *testing.T) {
	dir := t.TempDir()
	names := []string{"1_a.sql", "2_b.sql", "3_c.sql", "4_d.sql"}
	for _, n := range names {
		os.WriteFile(filepath.Join(dir, n), []byte("SELECT 1;\n"), 0o644)
	}
	d, err := migration.OpenDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := migration.Hash(d); err != nil {
		t.Fatal(err)
	}
	check := func(wantEdited, wantAdded, wantRemoved string) {
		t.Helper()
		err := migration.CheckSum(d)
		var se *migration.SumError
		if !errors.As(err, &se) {
			t.Fatalf("CheckSum = %v", err)
		}
		if got := strings.Join(se.Edited, ","); got != wantEdited {
			t.Errorf("edited %q, want %q (%v)", got, wantEdited, err)
		}
		if got := strings.Join(se.Added, ","); got != wantAdded {
			t.Errorf("added %q, want %q", got, wantAdded)
		}
		if got := strings.Join(se.Removed, ","); got != wantRemoved {
			t.Errorf("removed %q, want %q", got, wantRemoved)
		}
		if strings.Count(err.Error(), " was ") != len(se.Edited)+len(se.Added)+len(se.Removed) {
			t.Errorf("message: %v", err)
		}
	}
	os.WriteFile(filepath.Join(dir, "2_b.sql"), []byte("SELECT 2;\n"), 0o644)
	check("2_b.sql", "", "")
	migration.Hash(d)
	os.WriteFile(filepath.Join(dir, "25_x.sql"), []byte("SELECT 3;\n"), 0o644)
	check("", "25_x.sql", "")
	migration.Hash(d)
	os.Remove(filepath.Join(dir, "1_a.sql"))
	check("", "", "1_a.sql")
	migration.Hash(d)
	if err := migration.CheckSum(d); err != nil {
		t.Fatal(err)
	}
}
