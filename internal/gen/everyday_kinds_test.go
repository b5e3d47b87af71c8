package gen_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/dialects/all"
	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/gen"
)

// everyday compiles testdata/everyday.hcl.
func everyday(t *testing.T) *gen.Result {
	t.Helper()
	r := gen.CompileSource("everyday.hcl", mustRead(t, "testdata/everyday.hcl"))
	if r.Failed() {
		t.Fatal(describe(r.Diags))
	}
	return r
}

// texts runs query (written with PostgreSQL's quotes, "x") on db and returns
// its rows as text, spelled alike on both: fractional seconds without
// trailing zeros, bools as true/false.
// Columns listed in floats are read as 4-byte floats.
func texts(t *testing.T, db *dbtest.DB, query string, floats ...int) [][]string {
	t.Helper()
	if db.Dialect == tidb.Name {
		query = strings.ReplaceAll(query, `"`, "`")
	}
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %s: %v", db.Dialect, query, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]*string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if v == nil {
				row[i] = "NULL"
				continue
			}
			row[i] = spelled(*v)
			if slices.Contains(floats, i) {
				f, err := strconv.ParseFloat(*v, 32)
				if err != nil {
					t.Fatal(err)
				}
				row[i] = strconv.FormatFloat(f, 'g', -1, 32)
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var fraction = regexp.MustCompile(`(\d\d:\d\d:\d\d)\.(\d*?)0*$`)

func spelled(s string) string {
	switch s {
	case "t", "1", "true":
		return "true"
	case "f", "0", "false":
		return "false"
	}
	if len(s) > 19 && s[10] == 'T' && strings.HasSuffix(s, "Z") {
		s = strings.Replace(strings.TrimSuffix(s, "Z"), "T", " ", 1)
	}
	if m := fraction.FindStringSubmatch(s); m != nil {
		s = strings.TrimSuffix(s[:len(s)-len(m[0])]+m[1]+"."+m[2], ".")
	}
	return s
}

var uuidForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// TestEverydayKinds applies the everyday model on fresh databases of both
// dialects and runs the same INSERTs and UPDATEs there: generated values,
// uuid() values, time and float ranges, and on_update times agree.
func TestEverydayKinds(t *testing.T) {
	r := everyday(t)
	results := map[string][][][]string{}
	for _, d := range all.Names() {
		db := dbtest.New(t, d)
		apply(t, db, r.Outputs[d].SQL)
		ph := func(s string) string {
			if d == tidb.Name {
				return regexp.MustCompile(`\$\d`).ReplaceAllString(strings.ReplaceAll(s, `"`, "`"), "?")
			}
			return s
		}
		exec := func(q string, args ...any) error {
			_, err := db.Exec(ph(q), args...)
			return err
		}
		must := func(q string, args ...any) {
			t.Helper()
			if err := exec(q, args...); err != nil {
				t.Fatalf("%s: %s: %v", d, q, err)
			}
		}
		refused := func(why, q string, args ...any) {
			t.Helper()
			if err := exec(q, args...); err == nil {
				t.Errorf("%s: %s was accepted: %s", d, why, q)
			}
		}
		p1 := "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
		must(`INSERT INTO "products" ("id", "sku", "price", "weight", "closes", "launched") VALUES ($1, 'SKU-1', 2.50, 0.1, '24:00:00', '2026-03-04 05:06:07.123456')`, p1)
		must(`INSERT INTO "products" ("sku", "price", "weight", "closes") VALUES ('SKU-2', 1, 16777217, '23:59:59')`)
		refused("a time before 00:00:00", `INSERT INTO "products" ("sku", "price", "closes") VALUES ('SKU-3', 1, '-01:00:00')`)
		refused("a time after 24:00:00", `INSERT INTO "products" ("sku", "price", "opens") VALUES ('SKU-3', 1, '24:00:00.000001')`)
		refused("a time of 25 hours", `INSERT INTO "products" ("sku", "price", "opens") VALUES ('SKU-3', 1, '25:00:00')`)
		refused("a float beyond its range", `INSERT INTO "products" ("sku", "price", "weight") VALUES ('SKU-3', 1, 3.5e38)`)
		must(`INSERT INTO "order_lines" ("product_id", "sku", "price", "qty") VALUES ($1, 'AB-9', 2.50, 3)`, p1)
		must(`INSERT INTO "order_lines" ("product_id", "sku", "price", "qty") VALUES ($1, 'Bulk', 1.25, 12)`, p1)
		refused("a value written to a generated column", `INSERT INTO "order_lines" ("product_id", "sku", "price", "qty", "total") VALUES ($1, 'X', 1, 1, 1)`, p1)
		refused("a generated value the CHECK refuses", `INSERT INTO "order_lines" ("product_id", "sku", "price", "qty") VALUES ($1, 'X', 99999999.99, 100)`, p1)
		refused("an UPDATE of a generated column", `UPDATE "order_lines" SET "total" = 0`)
		must(`UPDATE "order_lines" SET "qty" = 20 WHERE "sku" = 'AB-9'`)
		refused("a value the enum lacks", `UPDATE "order_lines" SET "status" = 'lost' WHERE "sku" = 'AB-9'`)
		refused("an enum value in another case", `INSERT INTO "order_lines" ("product_id", "sku", "price", "qty", "status") VALUES ($1, 'X', 1, 1, 'Paid')`, p1)
		must(`UPDATE "order_lines" SET "status" = 'shipped' WHERE "sku" = 'Bulk'`)

		var got [][][]string
		got = append(got, texts(t, db, `SELECT "sku", "total", "label", "bulk", "qty" FROM "order_lines" ORDER BY "sku"`))
		got = append(got, texts(t, db, `SELECT "sku", "weight", "opens", "closes", "launched" FROM "products" ORDER BY "sku"`, 1))
		got = append(got, texts(t, db, `SELECT "sku" FROM "order_lines" WHERE "bulk" ORDER BY "sku"`))
		got = append(got, texts(t, db, `SELECT "sku" FROM "products" WHERE "weight" = 16777216`))
		got = append(got, texts(t, db, `SELECT "sku", "status" FROM "order_lines" ORDER BY "status" DESC, "sku"`))
		results[d] = got
		for _, row := range texts(t, db, `SELECT "id" FROM "order_lines" UNION ALL SELECT "id" FROM "products"`) {
			if !uuidForm.MatchString(row[0]) {
				t.Errorf("%s: uuid() made %q, not a UUID in its text form", d, row[0])
			}
		}

		// on_update: a statement that changes nothing leaves the time, one
		// that changes the row moves it, one that sets it keeps its value.
		when := func(table, sku string) time.Time {
			t.Helper()
			col := map[string]string{"products": "updated_at", "order_lines": "changed_at"}[table]
			var s string
			if err := db.QueryRow(ph(`SELECT "`+col+`" FROM "`+table+`" WHERE "sku" = $1`), sku).Scan(&s); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			v, err := time.Parse("2006-01-02 15:04:05.999999", strings.TrimSuffix(strings.TrimSuffix(strings.Replace(s, "T", " ", 1), "Z"), "+00"))
			if err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			return v
		}
		for _, tc := range []struct{ table, col, sku string }{{"products", "updated_at", "SKU-1"}, {"order_lines", "changed_at", "AB-9"}} {
			before := when(tc.table, tc.sku)
			time.Sleep(20 * time.Millisecond)
			must(`UPDATE "` + tc.table + `" SET "price" = "price" WHERE "sku" = '` + tc.sku + `'`)
			if after := when(tc.table, tc.sku); !after.Equal(before) {
				t.Errorf("%s: %s.%s moved from %v to %v on an UPDATE that changed nothing", d, tc.table, tc.col, before, after)
			}
			must(`UPDATE "` + tc.table + `" SET "price" = "price" + 1 WHERE "sku" = '` + tc.sku + `'`)
			moved := when(tc.table, tc.sku)
			if !moved.After(before) {
				t.Errorf("%s: %s.%s stayed %v on an UPDATE that changed the row", d, tc.table, tc.col, moved)
			}
			must(`UPDATE "`+tc.table+`" SET "price" = "price" + 1, "`+tc.col+`" = $1 WHERE "sku" = '`+tc.sku+`'`, "2001-02-03 04:05:06")
			if set := when(tc.table, tc.sku); set.Format("2006-01-02 15:04:05") != "2001-02-03 04:05:06" {
				t.Errorf("%s: %s.%s is %v after an UPDATE that set it to 2001-02-03 04:05:06", d, tc.table, tc.col, set)
			}
		}
	}
	pg, ti := results[postgres.Name], results[tidb.Name]
	for i := range pg {
		if strings.Join(flat(pg[i]), "|") != strings.Join(flat(ti[i]), "|") {
			t.Errorf("query %d differs:\npostgres %v\ntidb     %v", i, pg[i], ti[i])
		}
	}
	if len(pg) < 5 || strings.Join(flat(pg[4]), "|") != "Bulk,shipped|AB-9,pending" {
		t.Errorf("enum values by declared order: %v", pg)
	}
	if len(pg) == 0 || len(pg[0]) != 2 || pg[0][0][1] != "50.00" || pg[0][0][2] != "ab-9-line" {
		t.Errorf("generated values: %v", pg)
	}
}

func flat(rows [][]string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join(r, ","))
	}
	return out
}
