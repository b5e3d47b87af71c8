package drift_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/scratch"
	"github.com/schemagen/schemagen/internal/synth"
	"github.com/schemagen/schemagen/internal/testproject"
)

// benchFixture is a 100-table database migrated to head, for one dialect.
type benchFixture struct {
	f     *fixture
	opts  drift.Options
	close func()
}

var (
	benchOnce     = map[string]*sync.Once{"postgres": {}, "tidb": {}}
	benchFixtures = map[string]*benchFixture{}
)

func setupBench(b *testing.B, dialect string) *benchFixture {
	benchOnce[dialect].Do(func() {
		p := testproject.New(b, string(synth.Model(100)))
		db := dbtest.New(b, dialect)
		p.Diff("init")
		p.Apply(dialect, db.URL)
		f := &fixture{p: p, dialect: dialect, head: db}
		opts := drift.Options{Target: p.Target(dialect), Dev: p.Dev, Model: p.Model(), Timeout: 5 * time.Minute, Parallel: 8, Cache: &scratch.Cache{Dir: b.TempDir()}}
		// Warm the cache: later runs build nothing on the dev database.
		if r := drift.Check(context.Background(), opts, []string{db.URL})[0]; r.Status != drift.NoDrift {
			b.Fatalf("the benchmark database drifts: %d %s", r.Status, r.Error)
		}
		benchFixtures[dialect] = &benchFixture{f: f, opts: opts}
	})
	bf := benchFixtures[dialect]
	if bf == nil {
		b.Skip("setup failed")
	}
	return bf
}

// BenchmarkDrift compares, per dialect, a bare Atlas inspection of a
// 100-table database with drift of it (expected states from the cache), and
// 20 such targets checked 8 at a time. scripts/bench-drift.sh prints the
// ratios against the goals.
func BenchmarkDrift(b *testing.B) {
	for _, d := range []string{"postgres", "tidb"} {
		// The fixture belongs to the parent: sub-benchmarks' cleanups would
		// drop its database after the first.
		bf := setupBench(b, d)
		b.Run(d+"/inspect", func(b *testing.B) {
			for b.Loop() {
				if err := bareInspect(d, bf.f.head.URL); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(d+"/drift-1", func(b *testing.B) {
			for b.Loop() {
				if r := drift.Check(context.Background(), bf.opts, []string{bf.f.head.URL})[0]; r.Status != drift.NoDrift {
					b.Fatal(r.Error)
				}
			}
		})
		b.Run(d+"/drift-20", func(b *testing.B) {
			urls := make([]string, 20)
			for i := range urls {
				urls[i] = bf.f.head.URL
			}
			for b.Loop() {
				for _, r := range drift.Check(context.Background(), bf.opts, urls) {
					if r.Status != drift.NoDrift {
						b.Fatal(r.Error)
					}
				}
			}
		})
	}
}

// bareInspect is what the Atlas CLI does to read a database: connect, open
// its driver and inspect the connected schema.
func bareInspect(dialect, url string) error {
	db, err := devdb.Open(url)
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		return err
	}
	defer conn.Close()
	var drv migrate.Driver
	if dialect == "postgres" {
		drv, err = postgres.Open(conn)
	} else {
		drv, err = mysql.Open(conn)
	}
	if err != nil {
		return err
	}
	_, err = drv.InspectSchema(context.Background(), "", &schema.InspectOptions{})
	return err
}
