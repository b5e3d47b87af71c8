package builtin_test

import (
	"context"
	"database/sql"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/postgres/internal/builtin"
	"github.com/schemagen/schemagen/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

var update = flag.Bool("update", false, "rewrite builtin.txt from the test server's catalog")

// TestSnapshot reads the test server's catalog: with -update it rewrites
// builtin.txt; otherwise a name the server has and the snapshot lacks
// fails, on a server of the snapshot's major version (another version has
// other names, and raw texts are checked against the snapshot's).
func TestSnapshot(t *testing.T) {
	db := dbtest.Postgres(t)
	ctx := context.Background()
	live := read(t, ctx, db.DB)
	if *update {
		if err := os.WriteFile("builtin.txt", []byte(live.Format()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	snap := builtin.Get()
	major := func(v string) string { m, _, _ := strings.Cut(v, "."); return m }
	if major(live.Version) != major(snap.Version) {
		t.Skipf("the server is PostgreSQL %s, the snapshot %s", live.Version, snap.Version)
	}
	missing := func(what string, got, have map[string]bool) {
		for n := range got {
			if !have[n] {
				t.Errorf("%s %s is on the server and not in builtin.txt (rewrite it with -update)", what, n)
			}
		}
	}
	missing("function", live.Functions, snap.Functions)
	missing("type", live.Types, snap.Types)
	missing("keyword", live.Keywords, snap.Keywords)
	for n, e := range live.Extensions {
		s := snap.Extensions[n]
		if s == nil {
			t.Errorf("extension %s is on the server and not in builtin.txt (rewrite it with -update)", n)
			continue
		}
		missing("extension "+n+" function", e.Functions, s.Functions)
		missing("extension "+n+" type", e.Types, s.Types)
	}
	if len(snap.Functions) < 1000 || !snap.Functions["nextval"] || !snap.Keywords["coalesce"] || snap.Keywords["nextval"] {
		t.Errorf("the snapshot lacks what every server has: %d functions", len(snap.Functions))
	}
}

// read reads the server's catalog; each extension it can create is
// created in a transaction rolled back after its objects are read.
func read(t *testing.T, ctx context.Context, db *sql.DB) *builtin.Catalog {
	c := &builtin.Catalog{Functions: map[string]bool{}, Types: map[string]bool{}, Keywords: map[string]bool{}, Extensions: map[string]*builtin.Extension{}}
	if err := db.QueryRowContext(ctx, "SHOW server_version").Scan(&c.Version); err != nil {
		t.Fatal(err)
	}
	c.Version, _, _ = strings.Cut(c.Version, " ")
	names := func(q *sql.Tx, query string, into map[string]bool, args ...any) error {
		var rows *sql.Rows
		var err error
		if q != nil {
			rows, err = q.QueryContext(ctx, query, args...)
		} else {
			rows, err = db.QueryContext(ctx, query, args...)
		}
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				return err
			}
			into[n] = true
		}
		return rows.Err()
	}
	for q, into := range map[string]map[string]bool{
		`SELECT proname FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace`:                            c.Functions,
		`SELECT typname FROM pg_type WHERE typnamespace = 'pg_catalog'::regnamespace AND typname NOT LIKE '\_%'`: c.Types,
		`SELECT word FROM pg_get_keywords() WHERE catcode <> 'U'`:                                                c.Keywords,
	} {
		if err := names(nil, q, into); err != nil {
			t.Fatal(err)
		}
	}
	var exts []string
	rows, err := db.QueryContext(ctx, `SELECT name FROM pg_available_extensions WHERE installed_version IS NULL ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		exts = append(exts, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for _, n := range exts {
		e := &builtin.Extension{Functions: map[string]bool{}, Types: map[string]bool{}}
		err := func() error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, `CREATE EXTENSION "`+n+`" CASCADE`); err != nil {
				return err
			}
			const of = ` JOIN pg_depend d ON d.objid = o.oid AND d.deptype = 'e' JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = $1`
			if err := names(tx, `SELECT o.proname FROM pg_proc o`+of+` AND d.classid = 'pg_proc'::regclass`, e.Functions, n); err != nil {
				return err
			}
			return names(tx, `SELECT o.typname FROM pg_type o`+of+` AND d.classid = 'pg_type'::regclass WHERE o.typname NOT LIKE '\_%'`, e.Types, n)
		}()
		if err != nil {
			t.Logf("extension %s left out: %v", n, err)
			continue
		}
		c.Extensions[n] = e
	}
	return c
}
