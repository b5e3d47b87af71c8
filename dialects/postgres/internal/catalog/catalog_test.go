package catalog_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	pgdialect "github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/postgres/internal/catalog"
	"github.com/schemagen/schemagen/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func mustExec(t *testing.T, db *dbtest.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func serverVersion(t *testing.T, db *dbtest.DB) int {
	t.Helper()
	var v int
	if err := db.QueryRow(`SELECT current_setting('server_version_num')::int / 10000`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestIndexes reads what Atlas does not of each index: a part's collation
// other than its column's, storage parameters, a unique constraint's
// DEFERRABLE, an INVALID index; with the statement PostgreSQL prints,
// without the schema's name.
func TestIndexes(t *testing.T) {
	db := dbtest.Postgres(t)
	mustExec(t, db,
		`CREATE TABLE docs (id int PRIMARY KEY, slug text, title text, code text)`,
		`CREATE INDEX docs_title_idx ON docs (title)`,
		`CREATE INDEX docs_title_c_idx ON docs (title COLLATE "C") WITH (fillfactor = 70)`,
		`ALTER TABLE docs ADD CONSTRAINT docs_slug_key UNIQUE (slug) WITH (fillfactor = 80) DEFERRABLE INITIALLY DEFERRED`,
		`INSERT INTO docs VALUES (1, 'a', 't', 'x'), (2, 'b', 't', 'x')`,
	)
	// A concurrent build that fails leaves its index INVALID.
	if _, err := db.Exec(`CREATE UNIQUE INDEX CONCURRENTLY docs_code_idx ON docs (code)`); err == nil {
		t.Fatal("the unique build over duplicates succeeded")
	}
	got, err := catalog.Indexes(context.Background(), db.DB)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]string]dialects.IndexCatalog{
		{"docs", "docs_pkey"}:      {Statement: `ALTER TABLE docs ADD CONSTRAINT docs_pkey PRIMARY KEY (id)`},
		{"docs", "docs_title_idx"}: {Statement: `CREATE INDEX docs_title_idx ON docs USING btree (title)`},
		{"docs", "docs_title_c_idx"}: {Statement: `CREATE INDEX docs_title_c_idx ON docs USING btree (title COLLATE "C") WITH (fillfactor='70')`,
			// An index's storage parameters are the model's storage, read
			// from Atlas's inspection; a constraint's stay its own.
			Own: []string{`title COLLATE "C"`}},
		{"docs", "docs_slug_key"}: {Statement: `ALTER TABLE docs ADD CONSTRAINT docs_slug_key UNIQUE (slug) WITH (fillfactor=80) DEFERRABLE INITIALLY DEFERRED`,
			Own: []string{"WITH (fillfactor=80)", "DEFERRABLE INITIALLY DEFERRED"}},
		{"docs", "docs_code_idx"}: {Statement: `CREATE UNIQUE INDEX docs_code_idx ON docs USING btree (code)`},
	}
	if len(got) != len(want) {
		t.Errorf("read %d indexes, want %d: %v", len(got), len(want), got)
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("index %s.%s not read", k[0], k[1])
			continue
		}
		if g.Statement != w.Statement || !slices.Equal(g.Own, w.Own) {
			t.Errorf("index %s.%s: read %q, own %q\nwant %q, own %q", k[0], k[1], g.Statement, g.Own, w.Statement, w.Own)
		}
		if invalid := g.Invalid != ""; invalid != (k[1] == "docs_code_idx") {
			t.Errorf("index %s.%s: invalid %q", k[0], k[1], g.Invalid)
		}
	}
	// Each statement builds the index again, as the model keeps it.
	fresh := dbtest.Postgres(t)
	mustExec(t, fresh, `CREATE TABLE docs (id int, slug text, title text, code text)`)
	for k, w := range want {
		if _, err := fresh.Exec(w.Statement); err != nil {
			t.Errorf("index %s.%s: its statement fails on a fresh database: %v", k[0], k[1], err)
		}
	}
}

// inspected is Atlas's inspection of db through the dialect's driver.
func inspected(t *testing.T, db *dbtest.DB) *schema.Schema {
	t.Helper()
	drv, err := pgdialect.Dialect{}.OpenAtlas(db.DB)
	if err != nil {
		t.Fatal(err)
	}
	s, err := drv.InspectSchema(context.Background(), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFixSerials: of the columns Atlas reads as serials (a default of
// nextval('<table>_<column>_seq')), one that owns its sequence stays one; one
// whose sequence is a serial's in all but the ownership stays one, with a
// note; another (a sequence starting at 1000) becomes its integer with its
// nextval default.
func TestFixSerials(t *testing.T) {
	db := dbtest.Postgres(t)
	mustExec(t, db,
		`CREATE TABLE owned (id serial PRIMARY KEY)`,
		`CREATE SEQUENCE adopted_id_seq`,
		`CREATE TABLE adopted (id integer NOT NULL DEFAULT nextval('adopted_id_seq') PRIMARY KEY)`,
		`CREATE SEQUENCE started_id_seq START 1000`,
		`CREATE TABLE started (id bigint NOT NULL DEFAULT nextval('started_id_seq') PRIMARY KEY)`,
	)
	s := inspected(t, db)
	for _, name := range []string{"owned", "adopted", "started"} {
		tb, _ := s.Table(name)
		c, _ := tb.Column("id")
		if _, ok := c.Type.Type.(*postgres.SerialType); !ok {
			t.Fatalf("Atlas reads %s.id as %T, not a serial: the test sets up nothing", name, c.Type.Type)
		}
	}
	notes, err := catalog.FixSerials(context.Background(), db.DB, s.Tables)
	if err != nil {
		t.Fatal(err)
	}
	typeOf := func(table string) (schema.Type, schema.Expr) {
		tb, _ := s.Table(table)
		c, _ := tb.Column("id")
		return c.Type.Type, c.Default
	}
	if typ, _ := typeOf("owned"); !isSerial(typ) {
		t.Errorf("owned.id: %T, want the serial it is", typ)
	}
	if typ, _ := typeOf("adopted"); !isSerial(typ) {
		t.Errorf("adopted.id: %T, want a serial (its sequence is a serial's but for the ownership)", typ)
	}
	typ, def := typeOf("started")
	if it, ok := typ.(*schema.IntegerType); !ok || it.T != "bigint" {
		t.Errorf("started.id: %T %v, want bigint", typ, typ)
	}
	if x, ok := def.(*schema.RawExpr); !ok || x.X != "nextval('started_id_seq'::regclass)" {
		t.Errorf("started.id's default: %#v, want its nextval", def)
	}
	if len(notes) != 1 || len(notes["adopted"]) != 1 || !strings.Contains(notes["adopted"][0], "sequence adopted_id_seq, which no column owns (bigint), is read as the column's identity") {
		t.Errorf("notes %q, want one on adopted.id", notes)
	}
}

func isSerial(t schema.Type) bool { _, ok := t.(*postgres.SerialType); return ok }

// TestReadRawObjects reads what the model has no construct for as raw
// objects, each with the statement that creates it and where it goes, and
// describes what it cannot create; schemagen's own on_update trigger and
// function are not read.
func TestReadRawObjects(t *testing.T) {
	db := dbtest.Postgres(t)
	mustExec(t, db,
		`CREATE DOMAIN pos AS integer DEFAULT 1 NOT NULL CONSTRAINT pos_ck CHECK (VALUE > 0)`,
		`CREATE SEQUENCE tickets START 5 INCREMENT 2`,
		`CREATE TABLE items (id int PRIMARY KEY, n pos, updated_at timestamptz)`,
		`CREATE TABLE archive (id int PRIMARY KEY)`,
		`CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$`,
		`CREATE TRIGGER items_touch BEFORE UPDATE ON items FOR EACH ROW EXECUTE FUNCTION touch()`,
		`CREATE FUNCTION items_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$`,
		`CREATE TRIGGER items_updated_at BEFORE UPDATE ON items FOR EACH ROW EXECUTE FUNCTION items_updated_at()`,
		`CREATE FUNCTION item_count() RETURNS bigint LANGUAGE sql AS $$ SELECT count(*) FROM items $$`,
		`CREATE AGGREGATE total(integer) (SFUNC = int4pl, STYPE = integer, INITCOND = '0')`,
		`CREATE RULE archive_no_delete AS ON DELETE TO archive DO INSTEAD NOTHING`,
		`CREATE TYPE pair AS (a int, b int)`,
		`CREATE TABLE events (id int, at date) PARTITION BY RANGE (at)`,
		`CREATE TABLE events_2026 PARTITION OF events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')`,
	)
	tables := []*compiler.Table{{Name: "items", Columns: []*compiler.Column{{Name: "updated_at", OnUpdate: true}}}}
	onUpdate := func(table string) string { return table + "_updated_at" }
	objs, left, err := catalog.ReadRawObjects(context.Background(), db.DB, tables, onUpdate)
	if err != nil {
		t.Fatal(err)
	}
	type obj struct {
		kind, name          string
		before, late        bool
		tables, sqlContains string
	}
	var got []obj
	for _, o := range objs {
		got = append(got, obj{o.Kind, o.Name, o.Before, o.Late, strings.Join(o.Tables, ","), o.SQL})
	}
	want := []obj{
		{"domain", "pos", true, false, "", `CREATE DOMAIN "pos" AS integer DEFAULT 1 NOT NULL CONSTRAINT pos_ck CHECK ((VALUE > 0))`},
		{"sequence", "tickets", true, false, "", `CREATE SEQUENCE "tickets" AS bigint INCREMENT BY 2 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 5 CACHE 1`},
		{"trigger", "items.items_touch", false, true, "items", "CREATE TRIGGER items_touch BEFORE UPDATE ON public.items FOR EACH ROW EXECUTE FUNCTION touch()"},
		{"function", "item_count()", false, false, "", "CREATE OR REPLACE FUNCTION public.item_count()"},
		{"function", "touch()", true, false, "items", "CREATE OR REPLACE FUNCTION public.touch()"},
		{"aggregate", "total(integer)", false, false, "", "CREATE AGGREGATE total(integer) (SFUNC = int4pl, STYPE = integer, INITCOND = '0')"},
		{"rule", "archive.archive_no_delete", false, true, "archive", "CREATE RULE archive_no_delete AS\n    ON DELETE TO public.archive DO INSTEAD NOTHING"},
	}
	if len(got) != len(want) {
		t.Errorf("read %d objects, want %d:\n%v", len(got), len(want), got)
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.kind != w.kind || g.name != w.name || g.before != w.before || g.late != w.late || g.tables != w.tables || !strings.HasPrefix(g.sqlContains, w.sqlContains) {
			t.Errorf("object %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	// Each statement makes its object on a fresh database, in this order
	// around the tables.
	fresh := dbtest.Postgres(t)
	for _, o := range objs {
		if !o.Before {
			continue
		}
		mustExec(t, fresh, o.SQL)
	}
	mustExec(t, fresh, `CREATE TABLE items (id int PRIMARY KEY, n pos, updated_at timestamptz)`, `CREATE TABLE archive (id int PRIMARY KEY)`)
	for _, o := range objs {
		if !o.Before {
			mustExec(t, fresh, o.SQL)
		}
	}
	wantLeft := []string{
		"composite type pair: left out",
		"table events: PARTITION BY RANGE (at) has no construct in the model",
		"table events_2026 left out: it is a partition of events (FOR VALUES FROM ('2026-01-01') TO ('2027-01-01'))",
	}
	if len(left) != len(wantLeft) {
		t.Errorf("left out %q, want %d", left, len(wantLeft))
	}
	for i := range min(len(left), len(wantLeft)) {
		if !strings.HasPrefix(left[i], wantLeft[i]) {
			t.Errorf("left out %d: %q, want it to start %q", i, left[i], wantLeft[i])
		}
	}
}

// TestReadNotNulls: on PostgreSQL 18 a NOT NULL constraint with its own
// name, or NOT VALID, is described (the model's null = false makes the
// default one); before 18 there are none to read.
func TestReadNotNulls(t *testing.T) {
	db := dbtest.Postgres(t)
	v := serverVersion(t, db)
	mustExec(t, db, `CREATE TABLE items (id int PRIMARY KEY, a int NOT NULL, b int)`)
	if v >= 18 {
		mustExec(t, db, `ALTER TABLE items ADD CONSTRAINT items_b_named NOT NULL b`)
	}
	mustExec(t, db, `CREATE TABLE other (x int CONSTRAINT other_x_nn NOT NULL)`)
	tables := []*compiler.Table{{Name: "items"}}
	notes, err := catalog.ReadNotNulls(context.Background(), db.DB, tables)
	if err != nil {
		t.Fatal(err)
	}
	if v < 18 {
		if len(notes) != 0 {
			t.Errorf("PostgreSQL %d keeps no NOT NULL constraints, but read %q", v, notes)
		}
		return
	}
	want := "column b: NOT NULL constraint items_b_named: left out; the column's null = false stands for it, without its name (it makes items_b_not_null)"
	if len(notes) != 1 || !slices.Equal(notes["items"], []string{want}) {
		t.Errorf("notes %q, want only %q (other is not imported)", notes, want)
	}
}
