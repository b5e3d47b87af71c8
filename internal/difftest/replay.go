package difftest

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
)

// NewRunner returns a Runner on fresh databases of the test servers. Its
// PostgreSQL database uses the C.UTF-8 locale, under which schemagen's
// meaning holds (see docs/semantics.md: lower and upper change non-ASCII
// letters, and strings sort by code point, as on TiDB).
func NewRunner(t testing.TB) *Runner {
	t.Helper()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	name := pg.Name + "_u"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := pg.ExecContext(ctx, fmt.Sprintf(`CREATE DATABASE %q TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'`, name)); err != nil {
		t.Fatalf("difftest: creating a C.UTF-8 database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := pg.ExecContext(ctx, fmt.Sprintf(`DROP DATABASE IF EXISTS %q WITH (FORCE)`, name)); err != nil {
			t.Errorf("difftest: %v", err)
		}
	})
	u, err := url.Parse(pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	db, err := devdb.Open(u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// TiDB's databases are server-wide: the per-model names carry the
	// test database's random suffix.
	return &Runner{PG: db, TiDB: ti.DB, Prefix: "dt_" + ti.Name[len(ti.Name)-8:]}
}

// Replay runs one model (HCL) and its statements on both databases and fails
// t when they disagree: the form of the tester's printed regression tests.
func Replay(t *testing.T, src string, stmts []Stmt) {
	t.Helper()
	r := NewRunner(t)
	d, err := r.RunHCL(context.Background(), src, stmts)
	if err != nil {
		t.Fatal(err)
	}
	if d != nil {
		t.Fatalf("the databases disagree: %s", d.What)
	}
}
