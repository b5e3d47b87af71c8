package importer_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/dialects/all"
	corporadir "github.com/schemagen/schemagen/internal/corpora"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/testproject"
)

// corpora returns the folder of the public two-dialect schemas (see
// corpora.Dir).
func corpora(t *testing.T) string {
	t.Helper()
	return corporadir.Dir(t)
}

// loadMySQL runs a MySQL-dialect script, as the mysql client would, on one
// connection of db, less the triggers and routines TiDB refuses (see
// corpora.MySQL); names qualified by the script's database (own) name the
// test's. It returns what it left out, as "kind name".
func loadMySQL(t *testing.T, db *dbtest.DB, file, own string) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	stmts, skipped := corporadir.MySQL(src, own, false)
	if err := corporadir.Run(context.Background(), db.DB, stmts); err != nil {
		t.Fatal(err)
	}
	return skipped
}

// loadPostgres runs a PostgreSQL script, as psql would, on one connection
// of db (see corpora.Postgres).
func loadPostgres(t *testing.T, db *dbtest.DB, file string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	stmts, err := corporadir.Postgres(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := corporadir.Run(context.Background(), db.DB, stmts); err != nil {
		t.Fatal(err)
	}
}

// TestImportChinook imports the public Chinook pair, with its data loaded
// (about 15,000 rows on each), from both databases at once: PostgreSQL's
// snake_case tables and TiDB's PascalCase ones are different tables to the
// merge, each said in the summary to exist on one dialect only. The model
// compiles; generated and applied to fresh databases, it gives back each
// original object for object (tables, columns with types, nullability and
// defaults, indexes, checks and foreign keys, by name and by definition),
// and Atlas finds no difference.
func TestImportChinook(t *testing.T) {
	t.Parallel()
	dir := corpora(t)
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	loadPostgres(t, pg, filepath.Join(dir, "chinook", "Chinook_PostgreSql_AutoIncrementPKs.sql"))
	if skipped := loadMySQL(t, ti, filepath.Join(dir, "chinook", "Chinook_MySql_AutoIncrementPKs.sql"), ""); len(skipped) > 0 {
		t.Fatalf("the Chinook script has routines TiDB refuses, which this test does not expect: %v", skipped)
	}
	for db, table := range map[*dbtest.DB]string{pg: "track", ti: "Track"} {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil || n < 3000 {
			t.Fatalf("%s has %d rows (%v): the data is not loaded", table, n, err)
		}
	}
	r, _, out := importAndCompile(t, pg.URL, ti.URL)
	for _, line := range r.Summary {
		if strings.Contains(line, "has no neutral type") {
			t.Errorf("summary: %s", line)
		}
	}
	for _, d := range []string{"postgres", "tidb"} {
		orig := map[string]*dbtest.DB{"postgres": pg, "tidb": ti}[d]
		rebuilt := dbtest.New(t, d)
		testproject.RunSQL(t, rebuilt, out.Outputs[d].SQL)
		if objs := compareDatabases(t, all.Get(d), orig, rebuilt, nil); countTables(objs) != 11 {
			t.Errorf("%s: %d tables, want Chinook's 11", d, countTables(objs))
		}
	}
}

// TestImportSakila imports the public Sakila pair (MySQL's script, less
// the triggers and routines TiDB refuses, and PostgreSQL's dump) from both
// databases at once, and rebuilds each from the model: each is its
// original again but for what the summary names. The model compiles with
// no edit, and the summary
// names no id, unsigned integer or timestamp as having no neutral type:
// PostgreSQL's sequences that are serials in all but their ownership and
// TiDB's unsigned AUTO_INCREMENT columns are identities, unsigned integers
// and TIMESTAMP keep their types as TiDB's own, with the neutral type that
// means them elsewhere.
func TestImportSakila(t *testing.T) {
	t.Parallel()
	dir := corpora(t)
	pg, ti := dbtest.Postgres(t), dbtest.TiDB(t)
	loadPostgres(t, pg, filepath.Join(dir, "sakila", "postgres-sakila-schema.sql"))
	skipped := loadMySQL(t, ti, filepath.Join(dir, "sakila", "mysql-sakila-schema.sql"), "sakila")
	if len(skipped) != 9 {
		t.Errorf("left out of TiDB's Sakila: %v, want its 3 triggers and 6 routines", skipped)
	}
	r, model, out := importAndCompile(t, pg.URL, ti.URL)
	noNeutral := regexp.MustCompile(`column (\w+_id|last_update|\w+_date): .* has no neutral type|unsigned.* has no neutral type|timestamp.* has no neutral type`)
	for _, line := range r.Summary {
		if noNeutral.MatchString(line) {
			t.Errorf("summary: %s", line)
		}
	}
	ids := 0
	for _, tb := range r.Schema.Tables {
		for _, c := range tb.Columns {
			if c.Identity != nil {
				ids++
			}
		}
	}
	// Every table's own id, but payment's, whose sequence PostgreSQL's
	// partitions share, and the link tables', which have none.
	if ids != 12 {
		t.Errorf("%d identity columns, want 12:\n%s", ids, model)
	}

	// TiDB's side rebuilt is the original, object for object, but what
	// the summary says was left out: Sakila's payment.rental_id is NOT
	// NULL on PostgreSQL with ON DELETE SET NULL, which the model refuses.
	leftOut := leftOutOf(r.Summary, "tidb")
	if want := []string{"payment fk fk_payment_rental"}; !slices.Equal(leftOut, want) {
		t.Errorf("left out of tidb: %q, want %q", leftOut, want)
	}
	// The columns whose nullability or default differ between Sakila's
	// two scripts (customer.active, payment.rental_id) keep each
	// database's own: none is said to be kept from one dialect only.
	differ := keptOther(r.Summary)
	if len(differ) > 0 {
		t.Errorf("columns that differ between the dialects, one's kept: %q, want none", differ)
	}
	leftOut = append(leftOut, differ...)
	rebuilt := dbtest.TiDB(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["tidb"].SQL)
	compareDatabases(t, all.Get("tidb"), ti, rebuilt, leftOut)

	// PostgreSQL's side rebuilt is the original too, object for object
	// and in the whole catalog (the enum mpaa_rating, the domain year and
	// its CHECK, the tsvector column, functions, the aggregate
	// group_concat and the views that call it, triggers, rules, the
	// partitions' inheritance), but what the summary names: the foreign
	// key the model refuses, and the serials' sequences no column owned,
	// which the identities make owned and of the column's type.
	inventory := pgInventory(t, pg)
	for _, o := range inventory {
		if !accounted(r, string(model), o) {
			t.Errorf("%s (%s) is not accounted for: not in the model, nor a raw block, nor named in the summary and a comment", o.name, o.kind)
		}
	}
	leftOut = leftOutOf(r.Summary, "postgres")
	if want := []string{"payment fk payment_rental_id_fkey"}; !slices.Equal(leftOut, want) {
		t.Errorf("left out of postgres: %q, want %q", leftOut, want)
	}
	pgRebuilt := dbtest.Postgres(t)
	testproject.RunSQL(t, pgRebuilt, out.Outputs["postgres"].SQL)
	compareDatabases(t, all.Get("postgres"), pg, pgRebuilt, append(leftOut, notNullRenames(r.Summary)...))
	adopted := 0
	for i, o := range inventory {
		if table, column, ok := adoptedSequence(r.Summary, o.name); ok && o.kind == "sequence" {
			inventory[i].def = asSerialMakesIt(t, o.def, r.Summary, table, column)
			adopted++
		}
		if to, ok := notNullRenamed(r.Summary, o); ok {
			inventory[i].name = to
		}
	}
	if adopted != 12 {
		t.Errorf("%d sequences read as identities, want the 12 identities'", adopted)
	}
	got := pgInventory(t, pgRebuilt)
	for _, o := range inventory {
		if !slices.Contains(got, o) && !(o.kind == "constraint f" && o.name == "payment_rental_id_fkey") {
			t.Errorf("the original's %s %s is not in the rebuilt database as it was: %s", o.kind, o.name, o.def)
		}
	}
	for _, o := range got {
		if !slices.Contains(inventory, o) {
			t.Errorf("the rebuilt database has %s %s, the original not: %s", o.kind, o.name, o.def)
		}
	}
}

// asSerialMakesIt is the catalog definition of a sequence no column owned,
// as the summary says the identity makes it: of the column's integer type,
// up to its largest value, owned by the column; the rest as it was.
func asSerialMakesIt(t *testing.T, def string, summary []string, table, column string) string {
	t.Helper()
	var typ string
	for _, line := range summary {
		if m := adoptedLine.FindStringSubmatch(line); m != nil && m[1] == table && m[2] == column {
			typ = m[5]
		}
	}
	f := strings.Fields(def)
	largest := map[string]string{"smallint": "32767", "integer": "2147483647", "bigint": "9223372036854775807"}[typ]
	if len(f) != 7 || largest == "" {
		t.Fatalf("sequence of %s.%s: %q (type %q) is not a sequence's definition", table, column, def, typ)
	}
	f[0], f[3] = typ, largest
	return strings.Join(f, " ") + " owned by " + table + "." + column
}

// leftOutOf lists the checks and foreign keys the summary says were left
// out of dialect d, or of the model, as "table kind name" with d's own
// name for them.
func leftOutOf(summary []string, d string) []string {
	var out []string
	for _, line := range summary {
		table, rest, _ := strings.Cut(line, ": ")
		for _, kind := range []string{"check", "foreign key"} {
			name, ok := strings.CutPrefix(rest, kind+" ")
			if !ok || !strings.Contains(rest, ": left out of "+d) && !strings.Contains(rest, ": left out of the model") {
				continue
			}
			name, _, _ = strings.Cut(name, ":")
			name, _, _ = strings.Cut(name, " (")
			if _, own, ok := strings.Cut(rest, "left out of "+d+" ("); ok {
				name, _, _ = strings.Cut(own, " there)")
			} else if m := regexp.MustCompile(`\((?:[^)]*, )?(\S+) on ` + d + `[,)]`).FindStringSubmatch(rest); m != nil {
				name = m[1]
			}
			out = append(out, table+" "+map[string]string{"check": "check", "foreign key": "fk"}[kind]+" "+name)
		}
	}
	slices.Sort(out)
	return out
}

var keptOtherLine = regexp.MustCompile(`^column (\w+)\.(\w+) (is nullable on one dialect only|has different defaults on .*'s is kept$)`)

// keptOther lists the columns, as "table column name", whose nullability
// or default the summary says differ between the dialects, one's kept.
func keptOther(summary []string) []string {
	var out []string
	for _, line := range summary {
		if m := keptOtherLine.FindStringSubmatch(line); m != nil && !slices.Contains(out, m[1]+" column "+m[2]) {
			out = append(out, m[1]+" column "+m[2])
		}
	}
	slices.Sort(out)
	return out
}
