package migration_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/internal/atlasconf"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/migration/deploy"
	"github.com/schemagen/schemagen/internal/testproject"
)

// The online benchmark (scripts/bench-online.sh) is not part of CI: it
// loads a million rows. It runs only when SCHEMAGEN_BENCH_ONLINE is set.

var benchSchemas = map[string]struct{ init, model, insert, fill string }{
	"postgres": {
		init: `CREATE TABLE "spaces" ("id" bigint NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "items" ("id" bigint NOT NULL, "space_id" bigint NOT NULL, "title" character varying(200) NULL, "slug" character varying(64) NOT NULL, "n" integer NOT NULL, PRIMARY KEY ("id"));
`,
		model: `CREATE TABLE "spaces" ("id" bigint NOT NULL, PRIMARY KEY ("id"));
CREATE TABLE "items" ("id" bigint NOT NULL, "space_id" bigint NOT NULL, "title" character varying(200) NOT NULL, "slug" character varying(64) NOT NULL, "n" integer NOT NULL, PRIMARY KEY ("id"),
  CONSTRAINT "items_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id"),
  CONSTRAINT "items_n_ck" CHECK (n > 0));
CREATE INDEX "items_title_idx" ON "items" ("title");
`,
		insert: `INSERT INTO items (id, space_id, title, slug, n) VALUES ($1::bigint, 1 + mod($1::bigint, 100), 'title', 's' || $1::bigint, 1)`,
		fill: `INSERT INTO spaces SELECT g FROM generate_series(1, 100) g;
INSERT INTO items SELECT g, 1 + mod(g, 100), 'title ' || g, 's' || g, 1 + mod(g, 1000) FROM generate_series(1, %d) g;
ANALYZE items;`,
	},
	"tidb": {
		init: "CREATE TABLE `items` (`id` bigint NOT NULL, `space_id` bigint NOT NULL, `title` varchar(200) NULL, `slug` varchar(64) NOT NULL, `n` int NOT NULL, PRIMARY KEY (`id`));\n",
		model: "CREATE TABLE `items` (`id` bigint NOT NULL, `space_id` bigint NOT NULL, `title` varchar(200) NULL, `slug` varchar(64) NOT NULL, `n` int NOT NULL, PRIMARY KEY (`id`),\n" +
			"  INDEX `items_title_idx` (`title`), UNIQUE INDEX `items_slug_key` (`slug`), CONSTRAINT `items_n_ck` CHECK (`n` > 0));\n",
		insert: "INSERT INTO items (id, space_id, title, slug, n) VALUES (?, 1, 'title', CONCAT('s', ?), 1)",
	},
}

type benchResult struct {
	total, stall, baseline time.Duration
	writes                 int64
	files                  []string
}

func TestBenchOnline(t *testing.T) {
	if os.Getenv("SCHEMAGEN_BENCH_ONLINE") == "" {
		t.Skip("set SCHEMAGEN_BENCH_ONLINE=1 (scripts/bench-online.sh) to run the online benchmark")
	}
	dialect := os.Getenv("SCHEMAGEN_BENCH_DIALECT")
	if dialect == "" {
		dialect = "postgres"
	}
	rows, _ := strconv.Atoi(os.Getenv("SCHEMAGEN_BENCH_ROWS"))
	if rows <= 0 {
		rows = 1_000_000
	}
	plain := benchRun(t, dialect, rows, true)
	online := benchRun(t, dialect, rows, false)
	fmt.Printf("\n%s, %d rows, a writer inserting continuously on its own session\n", dialect, rows)
	fmt.Printf("%-34s %14s %14s\n", "", "plain", "online")
	fmt.Printf("%-34s %14s %14s\n", "longest write stall", plain.stall.Round(time.Millisecond), online.stall.Round(time.Millisecond))
	fmt.Printf("%-34s %14s %14s\n", "total migration time", plain.total.Round(time.Millisecond), online.total.Round(time.Millisecond))
	fmt.Printf("%-34s %14d %14d\n", "writes during the migration", plain.writes, online.writes)
	fmt.Printf("%-34s %14s %14s\n", "longest write before (baseline)", plain.baseline.Round(time.Millisecond), online.baseline.Round(time.Millisecond))
	fmt.Printf("online stall goal: < 100ms: %v\n", online.stall < 100*time.Millisecond)
	for _, f := range online.files {
		fmt.Printf("\n--- online plan: %s\n%s", filepath.Base(f), mustRead(f))
	}
}

func mustRead(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// benchRun fills a fresh database, plans the model change (plain or
// online), then applies it while a writer inserts one row at a time and
// records the longest insert.
func benchRun(t *testing.T, dialect string, rows int, plain bool) benchResult {
	t.Helper()
	ctx := context.Background()
	s := benchSchemas[dialect]
	root := t.TempDir()
	dir := filepath.Join(root, "migrations")
	os.MkdirAll(dir, 0o755)
	testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000001_init.sql", SQL: s.init})
	src := filepath.Join(root, "generated", dialect, "schema.sql")
	os.MkdirAll(filepath.Dir(src), 0o755)
	if err := os.WriteFile(src, []byte(s.model), 0o644); err != nil {
		t.Fatal(err)
	}
	tg := migration.Target{Env: &atlasconf.Env{Name: dialect, Dir: dir, Src: src, Dev: dbtest.ServerURL(t, dialect)}, Dialect: all.Get(dialect)}
	p := planOnce(t, tg, migration.Plain(plain))
	files, err := migration.Write([]*migration.Planned{p}, "change", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	db := dbtest.New(t, dialect)
	start := time.Now()
	if _, err := db.Exec(s.init); err != nil && dialect == "postgres" {
		t.Fatal(err)
	}
	if dialect == "tidb" {
		fillTiDB(t, db.DB, s.init, rows)
	} else if _, err := db.Exec(fmt.Sprintf(s.fill, rows)); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s: %d rows loaded in %s\n", dialect, rows, time.Since(start).Round(time.Millisecond))

	var (
		stop   atomic.Bool
		maxLat atomic.Int64
		writes atomic.Int64
		wg     sync.WaitGroup
		wErr   error
	)
	next := int64(rows + 1)
	wg.Go(func() {
		conn, err := db.Conn(ctx)
		if err != nil {
			wErr = err
			return
		}
		defer conn.Close()
		for !stop.Load() {
			id := next
			next++
			t0 := time.Now()
			var err error
			if dialect == "tidb" {
				_, err = conn.ExecContext(ctx, s.insert, id, id)
			} else {
				_, err = conn.ExecContext(ctx, s.insert, id)
			}
			lat := time.Since(t0)
			if err != nil {
				// TiDB may refuse a write whose schema changed under it; that is
				// a failed write, counted as a stall of its duration.
				if dialect != "tidb" {
					wErr = err
					return
				}
			}
			writes.Add(1)
			for {
				m := maxLat.Load()
				if int64(lat) <= m || maxLat.CompareAndSwap(m, int64(lat)) {
					break
				}
			}
		}
	})
	time.Sleep(time.Second)
	baseline := time.Duration(maxLat.Swap(0))
	writes.Store(0)
	t0 := time.Now()
	_, err = deploy.Apply(ctx, tg, deploy.ApplyOptions{URL: db.URL, Baseline: "20260101000001"})
	total := time.Since(t0)
	stall, n := time.Duration(maxLat.Load()), writes.Load()
	stop.Store(true)
	wg.Wait()
	if err != nil {
		t.Fatalf("apply (plain %v): %v", plain, err)
	}
	if wErr != nil {
		t.Fatalf("writer: %v", wErr)
	}
	return benchResult{total: total, stall: stall, baseline: baseline, writes: n, files: files}
}

// fillTiDB loads rows by doubling, TiDB having no generate_series.
func fillTiDB(t *testing.T, db *sql.DB, init string, rows int) {
	t.Helper()
	if _, err := db.Exec("INSERT INTO items VALUES (1, 1, 'title 1', 's1', 1)"); err != nil {
		t.Fatal(err)
	}
	for n := 1; n < rows; n *= 2 {
		add := min(n, rows-n)
		q := fmt.Sprintf("INSERT INTO items SELECT id + %d, 1, CONCAT('title ', id + %d), CONCAT('s', id + %d), 1 + (id + %d) %% 1000 FROM items WHERE id <= %d", n, n, n, n, add)
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
