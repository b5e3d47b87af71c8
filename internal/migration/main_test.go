package migration_test

import (
	"os"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
