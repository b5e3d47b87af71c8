package difftest

import (
	"context"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// NewRunner returns a Runner on fresh databases of the test servers.
func NewRunner(t testing.TB) *Runner {
	t.Helper()
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	// TiDB's databases are server-wide: the per-model names carry the
	// test database's random suffix.
	return &Runner{PG: pg.DB, TiDB: ti.DB, Prefix: "dt_" + ti.Name[len(ti.Name)-8:]}
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
