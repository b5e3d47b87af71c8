package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
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

// A database whose LC_CTYPE is C changes ASCII letters only in upper and
// lower, and one in LATIN1 cannot hold most of TiDB's strings: schemagen
// drift says so. The test databases (UTF8, C.UTF-8) draw no warning.
func TestCaseMappingWarning(t *testing.T) {
	db := dbtest.Postgres(t)
	if w, err := (postgres.Dialect{}).ServerWarnings(context.Background(), db.DB); err != nil || len(w) != 0 {
		t.Fatalf("the test database: %v, %v", w, err)
	}
	server, err := devdb.Open(db.ServerURL)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	for i, c := range []struct{ encoding, want string }{
		{"UTF8", `(LC_CTYPE C) differs from TiDB's: upper('é'), upper('ß'), lower('İ') give "é", "ß", "İ" here`},
		{"LATIN1", "this database's encoding is LATIN1, not UTF8"},
	} {
		name := fmt.Sprintf("%s_%d", db.Name, i)
		if _, err := server.Exec("CREATE DATABASE " + name + " TEMPLATE template0 ENCODING '" + c.encoding + "' LC_COLLATE 'C' LC_CTYPE 'C'"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _, _ = server.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
		url, err := devdb.WithDatabase(db.ServerURL, name)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := devdb.Open(url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		w, err := (postgres.Dialect{}).ServerWarnings(context.Background(), conn)
		if err != nil || len(w) != 1 || w[0].Kind != dialects.CaseMappingDiffers || !strings.Contains(w[0].Text, c.want) {
			t.Fatalf("%s, LC_CTYPE C: %v, %v", c.encoding, w, err)
		}
		t.Log(w[0].Text)
	}
}
