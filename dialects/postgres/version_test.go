package postgres_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/internal/dbtest"
)

// A server of a version outside the supported range is refused at connect,
// naming its version and the supported ones; the test servers' version is
// supported. (The range is narrowed to exclude the real server this runs on.)
func TestUnsupportedVersionRefused(t *testing.T) {
	db := dbtest.Postgres(t)
	if _, err := (postgres.Dialect{}).OpenAtlas(db.DB); err != nil {
		t.Fatalf("the test server is refused: %v", err)
	}
	var num int
	if err := db.QueryRow("SELECT current_setting('server_version_num')::int").Scan(&num); err != nil {
		t.Fatal(err)
	}
	major := num / 10000
	first, last := postgres.SupportedVersions()
	if major < first || major > last {
		t.Fatalf("the test server is PostgreSQL %d, outside %d to %d", major, first, last)
	}
	for _, r := range [][2]int{{major + 1, major + 3}, {major - 3, major - 1}} {
		restore := postgres.SetSupportedVersions(r[0], r[1])
		_, err := (postgres.Dialect{}).OpenAtlas(db.DB)
		restore()
		var ue *postgres.UnsupportedVersionError
		if !errors.As(err, &ue) || ue.Major != major || !strings.Contains(err.Error(), "is not supported: schemagen supports, and is tested on, PostgreSQL") {
			t.Errorf("range %v: %v", r, err)
		}
		t.Log(err)
	}
}
