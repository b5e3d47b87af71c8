package migration_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// benchTable is each dialect's table of rows: the statements creating it
// (before a case's own), the statement a writer inserts with while a plan
// runs, and how it is filled.
var benchTable = map[string]struct {
	init   []string
	insert string
	fill   string
}{
	"postgres": {
		init: []string{
			`CREATE TABLE "spaces" ("id" bigint NOT NULL, PRIMARY KEY ("id"))`,
			`CREATE TABLE "items" ("id" bigint NOT NULL, "space_id" bigint NOT NULL, "title" character varying(200) NULL, "slug" character varying(64) NOT NULL, "n" integer NOT NULL, "price" numeric(12,2) NOT NULL DEFAULT 0, PRIMARY KEY ("id"))`,
		},
		insert: `INSERT INTO items (id, space_id, title, slug, n) VALUES ($1::bigint, 1 + mod($1::bigint, 100), 'title', 's' || $1::bigint, 2)`,
		fill: `INSERT INTO spaces SELECT g FROM generate_series(1, 100) g;
INSERT INTO items SELECT g, 1 + mod(g, 100), 'title ' || g, 's' || g, 2 + mod(g, 1000) FROM generate_series(1, %d) g;
ANALYZE items;`,
	},
	"tidb": {
		init: []string{
			"CREATE TABLE `spaces` (`id` bigint NOT NULL, PRIMARY KEY (`id`))",
			"CREATE TABLE `items` (`id` bigint NOT NULL, `space_id` bigint NOT NULL, `title` varchar(200) NULL, `slug` varchar(64) NOT NULL, `n` int NOT NULL, `price` decimal(12,2) NOT NULL DEFAULT 0, PRIMARY KEY (`id`))",
		},
		insert: "INSERT INTO items (id, space_id, title, slug, n) VALUES (?, 1, 'title', CONCAT('s', ?), 2)",
	},
}

// benchCase is one change of the items table: the statements that hold
// its state before (after benchTable's init) and the model after, written
// as the dev database reads them. Each case is one of the changes issue 30
// found locking more than its file said; rewrite marks a change that
// rewrites the table in any plan, where no stall goal applies.
type benchCase struct {
	name, what   string
	before, into map[string][]string
	rewrite      bool
}

var benchCases = []benchCase{
	{
		name: "add", what: "an index, a foreign key, a CHECK and a NOT NULL (TiDB: an index, a unique key and a CHECK)",
		into: map[string][]string{
			"postgres": {
				`ALTER TABLE "items" ALTER COLUMN "title" SET NOT NULL, ADD CONSTRAINT "items_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id"), ADD CONSTRAINT "items_n_ck" CHECK (n > 0)`,
				`CREATE INDEX "items_title_idx" ON "items" ("title")`,
			},
			"tidb": {
				"ALTER TABLE `items` ADD INDEX `items_title_idx` (`title`), ADD UNIQUE INDEX `items_slug_key` (`slug`)",
				"ALTER TABLE `items` ADD CONSTRAINT `items_n_ck` CHECK (`n` > 0)",
			},
		},
	},
	{
		name: "predicate", what: "a partial index's predicate changed",
		before: map[string][]string{"postgres": {`CREATE INDEX "items_n_idx" ON "items" ("n") WHERE (n > 0)`}},
		into:   map[string][]string{"postgres": {`CREATE INDEX "items_n_idx" ON "items" ("n") WHERE (n > 1)`}},
	},
	{
		name: "fk-action", what: "a foreign key's ON DELETE changed",
		before: map[string][]string{
			"postgres": {`ALTER TABLE "items" ADD CONSTRAINT "items_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id")`},
			"tidb":     {"ALTER TABLE `items` ADD CONSTRAINT `items_space_fk` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`)"},
		},
		into: map[string][]string{
			"postgres": {`ALTER TABLE "items" ADD CONSTRAINT "items_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") ON DELETE CASCADE`},
			"tidb":     {"ALTER TABLE `items` ADD CONSTRAINT `items_space_fk` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`) ON DELETE CASCADE"},
		},
	},
	{
		name: "unique-moved", what: "a unique key moved from (slug) to (space_id, slug)",
		before: map[string][]string{
			"postgres": {`CREATE UNIQUE INDEX "items_slug_key" ON "items" ("slug")`},
			"tidb":     {"ALTER TABLE `items` ADD UNIQUE INDEX `items_slug_key` (`slug`)"},
		},
		into: map[string][]string{
			"postgres": {`CREATE UNIQUE INDEX "items_space_slug_key" ON "items" ("space_id", "slug")`},
			"tidb":     {"ALTER TABLE `items` ADD UNIQUE INDEX `items_space_slug_key` (`space_id`, `slug`)"},
		},
	},
	{
		name: "widen", what: "numeric(12,2) to (14,2) and varchar(64) to (128)",
		into: map[string][]string{
			"postgres": {`ALTER TABLE "items" ALTER COLUMN "price" TYPE numeric(14,2), ALTER COLUMN "slug" TYPE character varying(128)`},
			"tidb":     {"ALTER TABLE `items` MODIFY COLUMN `price` decimal(14,2) NOT NULL DEFAULT 0", "ALTER TABLE `items` MODIFY COLUMN `slug` varchar(128) NOT NULL"},
		},
	},
	{
		name: "generated", what: "a stored generated column added (TiDB: a virtual one)", rewrite: true,
		into: map[string][]string{
			"postgres": {`ALTER TABLE "items" ADD COLUMN "n2" integer GENERATED ALWAYS AS (n * 2) STORED`},
			"tidb":     {"ALTER TABLE `items` ADD COLUMN `n2` int GENERATED ALWAYS AS (`n` * 2) VIRTUAL"},
		},
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
	only := map[string]bool{}
	for _, name := range strings.Split(os.Getenv("SCHEMAGEN_BENCH_CASES"), ",") {
		if name != "" {
			only[name] = true
		}
	}
	type row struct {
		c             benchCase
		plain, online benchResult
	}
	var rs []row
	for _, c := range benchCases {
		if c.into[dialect] == nil || len(only) > 0 && !only[c.name] {
			continue
		}
		plain := benchRun(t, dialect, rows, c, true)
		online := benchRun(t, dialect, rows, c, false)
		rs = append(rs, row{c, plain, online})
	}
	fmt.Printf("\n%s, %d rows, a writer inserting continuously on its own session (longest write stall / total migration time; stall goal for online plans < 100ms, or < twice the longest write before the migration (baseline)\n", dialect, rows)
	fmt.Printf("%-13s %11s %11s %11s %11s %8s %8s  %s\n", "case", "plain stall", "online", "plain time", "online", "writes", "baseline", "goal")
	for _, r := range rs {
		// TiDB's writer stalls for a few hundred ms now and then with no
		// DDL running (the baseline): a stall within twice that is noise.
		goal := fmt.Sprint(r.online.stall < max(100*time.Millisecond, 2*r.online.baseline))
		if r.c.rewrite {
			goal = "none (rewrites the table)"
		}
		fmt.Printf("%-13s %11s %11s %11s %11s %8d %8s  %s\n", r.c.name,
			r.plain.stall.Round(time.Millisecond), r.online.stall.Round(time.Millisecond),
			r.plain.total.Round(time.Millisecond), r.online.total.Round(time.Millisecond),
			r.online.writes, r.online.baseline.Round(time.Millisecond), goal)
	}
	for _, r := range rs {
		fmt.Printf("\n=== %s: %s\n", r.c.name, r.c.what)
		for _, f := range r.online.files {
			fmt.Printf("--- online plan: %s\n%s", filepath.Base(f), mustRead(f))
		}
	}
}

func mustRead(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func statements(ss []string) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s + ";\n")
	}
	return b.String()
}

// benchRun fills a fresh database, plans the model change (plain or
// online), then applies it while a writer inserts one row at a time and
// records the longest insert.
func benchRun(t *testing.T, dialect string, rows int, c benchCase, plain bool) benchResult {
	t.Helper()
	ctx := context.Background()
	s := benchTable[dialect]
	init := append(append([]string(nil), s.init...), c.before[dialect]...)
	root := t.TempDir()
	dir := filepath.Join(root, "migrations")
	os.MkdirAll(dir, 0o755)
	testproject.WriteMigrations(t, dir, testproject.File{Name: "20260101000001_init.sql", SQL: statements(init)})
	src := filepath.Join(root, "generated", dialect, "schema.sql")
	os.MkdirAll(filepath.Dir(src), 0o755)
	// The model is the table with the case's statements after: what the
	// state before held besides is dropped.
	model := append(append([]string(nil), s.init...), c.into[dialect]...)
	if err := os.WriteFile(src, []byte(statements(model)), 0o644); err != nil {
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
	for _, q := range init {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if dialect == "tidb" {
		fillTiDB(t, db.DB, rows)
	} else if _, err := db.Exec(fmt.Sprintf(s.fill, rows)); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%s %s (plain %v): %d rows loaded in %s\n", dialect, c.name, plain, rows, time.Since(start).Round(time.Millisecond))

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
		t.Fatalf("%s: apply (plain %v): %v", c.name, plain, err)
	}
	if wErr != nil {
		t.Fatalf("writer: %v", wErr)
	}
	return benchResult{total: total, stall: stall, baseline: baseline, writes: n, files: files}
}

// fillTiDB loads rows by doubling, TiDB having no generate_series.
func fillTiDB(t *testing.T, db *sql.DB, rows int) {
	t.Helper()
	for _, q := range []string{
		"INSERT INTO spaces VALUES (1)",
		"INSERT INTO items (id, space_id, title, slug, n) VALUES (1, 1, 'title 1', 's1', 2)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for n := 1; n < rows; n *= 2 {
		add := min(n, rows-n)
		q := fmt.Sprintf("INSERT INTO items (id, space_id, title, slug, n) SELECT id + %d, 1, CONCAT('title ', id + %d), CONCAT('s', id + %d), 2 + (id + %d) %% 1000 FROM items WHERE id <= %d", n, n, n, n, add)
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
