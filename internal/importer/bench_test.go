package importer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/gen"
	"github.com/schemagen/schemagen/internal/importer"
	"github.com/schemagen/schemagen/internal/synth"
	"github.com/schemagen/schemagen/internal/testproject"
)

var (
	benchOnce sync.Once
	benchURLs []string
)

// unnamed drops the names of TiDB's foreign keys and checks, as hand-written
// DDL leaves them out: TiDB then names them itself (fk_1, t5_chk_1), and
// the import pairs them with PostgreSQL's by what they are.
var unnamed = regexp.MustCompile("CONSTRAINT `[^`]+` (CHECK|FOREIGN KEY)")

// benchPair is one PostgreSQL and one TiDB database holding the synthetic
// model of SCHEMAGEN_BENCH_TABLES tables (default 1,000); with
// SCHEMAGEN_BENCH_DIALECTS=postgres (or tidb), one database only.
func benchPair(b *testing.B) []string {
	benchOnce.Do(func() {
		n := 1000
		if v, err := strconv.Atoi(os.Getenv("SCHEMAGEN_BENCH_TABLES")); err == nil && v > 0 {
			n = v
		}
		out := gen.CompileSource("synth.hcl", synth.Model(n))
		if out.Failed() {
			b.Fatal(out.Diags)
		}
		ds := []string{"postgres", "tidb"}
		if v := os.Getenv("SCHEMAGEN_BENCH_DIALECTS"); v != "" {
			ds = strings.Split(v, ",")
		}
		for _, d := range ds {
			db := dbtest.New(b, d)
			sql := out.Outputs[d].SQL
			if d == "tidb" {
				sql = unnamed.ReplaceAll(sql, []byte("$1"))
			}
			testproject.RunSQL(b, db, sql)
			benchURLs = append(benchURLs, db.URL)
		}
	})
	if benchURLs == nil {
		b.Skip("setup failed")
	}
	return benchURLs
}

// BenchmarkImport compares a bare Atlas inspection of both databases with
// an import of both (read, merge, settle, write), alternately: each of
// SCHEMAGEN_BENCH_ROUNDS rounds (default 5) measures once each of
//
//	inspect  both databases one after the other;
//	inspect2 both databases side by side, as the import reads them;
//	import   the import of both,
//
// in an order that rotates from round to round, so that a change in the
// machine's load reaches all three alike. Run with -benchtime 1x:
// scripts/bench-import.sh prints every measurement and the median ratios.
func BenchmarkImport(b *testing.B) {
	urls := benchPair(b)
	ctx := context.Background()
	inspect := func(u string) error {
		name, err := devdb.DialectOf(u)
		if err != nil {
			return err
		}
		db, err := devdb.Open(u)
		if err != nil {
			return err
		}
		defer db.Close()
		conn, err := db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		drv, err := all.Get(name).OpenAtlas(conn)
		if err != nil {
			return err
		}
		_, err = drv.InspectSchema(ctx, "", &schema.InspectOptions{Exclude: []string{"atlas_schema_revisions"}})
		return err
	}
	kinds := []struct {
		name string
		run  func(b *testing.B)
	}{
		{"inspect", func(b *testing.B) {
			for _, u := range urls {
				if err := inspect(u); err != nil {
					b.Fatal(err)
				}
			}
		}},
		{"inspect2", func(b *testing.B) {
			errs := make([]error, len(urls))
			var wg sync.WaitGroup
			for i, u := range urls {
				wg.Go(func() { errs[i] = inspect(u) })
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				b.Fatal(err)
			}
		}},
		{"import", func(b *testing.B) {
			r, err := importer.Import(ctx, urls, nil)
			if err != nil {
				b.Fatal(err)
			}
			// As the command does: the file written and its compilation.
			if _, check := r.Written(); check.Failed() {
				b.Fatal("the imported model does not compile")
			}
		}},
	}
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("SCHEMAGEN_BENCH_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	for r := range rounds {
		for k := range kinds {
			kind := kinds[(k+r)%len(kinds)]
			b.Run(fmt.Sprintf("round%d-%s", r+1, kind.name), func(b *testing.B) {
				for range b.N {
					kind.run(b)
				}
			})
		}
	}
}
