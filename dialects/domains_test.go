package dialects_test

import (
	"context"
	"fmt"
	"testing"

	"ariga.io/atlas/sql/migrate"

	"github.com/schemagen/schemagen/internal/dbtest"
)

// domainCase is one value class of one neutral type that one database
// stores and the other refuses: value is the literal as an application
// writes it (the same text on both), permissive the database that stores
// it without the value-domain CHECKs.
type domainCase struct {
	typ, value, permissive string
}

// domainCases: every value the type docs of either database name beyond
// the other's domain (PostgreSQL's numeric/float special values, date/time
// ranges and infinities; TiDB's TINYINT(1) and its year 0). A BC timestamp
// is not among them: TiDB's DATETIME input drops the era (and any trailing
// text), which no CHECK sees (docs/semantics.md, "Statements").
var domainCases = []domainCase{
	{"double", "'NaN'", "postgres"}, {"double", "'Infinity'", "postgres"}, {"double", "'-Infinity'", "postgres"},
	{"float", "'NaN'", "postgres"}, {"float", "'Infinity'", "postgres"}, {"float", "'-Infinity'", "postgres"},
	{"decimal(5, 2)", "'NaN'", "postgres"},
	{"timestamp", "'10000-01-01 00:00:00'", "postgres"}, {"timestamp", "'infinity'", "postgres"},
	{"timestamp", "'-infinity'", "postgres"},
	{"timestamp", "'0000-01-01 00:00:00'", "tidb"},
	{"datetime", "'10000-01-01 00:00:00'", "postgres"}, {"datetime", "'infinity'", "postgres"},
	{"datetime", "'-infinity'", "postgres"}, {"datetime", "'0000-06-15 12:00:00'", "tidb"},
	{"date", "'10000-01-01'", "postgres"}, {"date", "'infinity'", "postgres"}, {"date", "'-infinity'", "postgres"},
	{"date", "'0001-01-01 BC'", "postgres"}, {"date", "'0000-01-01'", "tidb"},
	{"bool", "'2'", "tidb"}, {"bool", "2", "tidb"}, {"bool", "-1", "tidb"},
}

// domainEdges are the values at each domain's edges that both store.
var domainEdges = map[string][]string{
	"double":        {"1e308", "-1e308", "0", "'-0'", "1e-300"},
	"float":         {"3.0e38", "-3.0e38", "0"},
	"decimal(5, 2)": {"999.99", "-999.99"},
	"timestamp":     {"'0001-01-01 00:00:00'", "'9999-12-31 23:59:59'"},
	"datetime":      {"'0001-01-01 00:00:00'", "'9999-12-31 23:59:59.999999'"},
	"date":          {"'0001-01-01'", "'9999-12-31'"},
	"bool":          {"TRUE", "FALSE", "'1'", "'0'"},
}

// TestValueDomains: each neutral type holds one value domain on both
// databases. Each value one database stores and the other refuses is
// refused by both (the dialects' value-domain CHECKs), the edges both
// take are stored by both, and with value_domains = false the permissive
// database stores the value again, so the CHECK is what refuses it.
func TestValueDomains(t *testing.T) {
	ctx := context.Background()
	for _, d := range []string{"postgres", "tidb"} {
		t.Run(d, func(t *testing.T) {
			db := dbtest.New(t, d)
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if d == "postgres" {
				if _, err := conn.ExecContext(ctx, "SET TIME ZONE 'UTC'"); err != nil {
					t.Fatal(err)
				}
			} else if _, err := conn.ExecContext(ctx, "SET time_zone = '+00:00'"); err != nil {
				t.Fatal(err)
			}
			types := []string{}
			for _, c := range domainCases {
				if len(types) == 0 || types[len(types)-1] != c.typ {
					types = append(types, c.typ)
				}
			}
			for i, typ := range types {
				for _, off := range []bool{false, true} {
					table := fmt.Sprintf("t%d", i)
					settings := ""
					if off {
						table += "_off"
						settings = "dialect \"postgres\" {\n  value_domains = false\n}\ndialect \"tidb\" {\n  value_domains = false\n}\n"
					}
					src := fmt.Sprintf("%stable %q {\n  column \"id\" {\n    type = int\n  }\n  column \"c\" {\n    type = %s\n    null = true\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n", settings, table, typ)
					ddl, diags := generate(t, d, src)
					if diags.HasErrors() {
						t.Fatalf("%s: %s", typ, diags)
					}
					stmts, err := migrate.Stmts(ddl)
					if err != nil {
						t.Fatal(err)
					}
					for _, st := range stmts {
						if _, err := conn.ExecContext(ctx, st.Text); err != nil {
							t.Fatalf("%s: %v\n%s", typ, err, ddl)
						}
					}
					id := 0
					insert := func(v string) error {
						id++
						_, err := conn.ExecContext(ctx, fmt.Sprintf("INSERT INTO %s (id, c) VALUES (%d, %s)", table, id, v))
						return err
					}
					for _, v := range domainEdges[typ] {
						if err := insert(v); err != nil {
							t.Errorf("%s %s: the edge %s is refused: %v", d, typ, v, err)
						}
					}
					for _, c := range domainCases {
						if c.typ != typ {
							continue
						}
						err := insert(c.value)
						switch {
						case !off && err == nil:
							t.Errorf("%s %s: %s is stored; PostgreSQL and TiDB must both refuse it", d, typ, c.value)
						case off && c.permissive == d && err != nil:
							t.Errorf("%s %s with value_domains = false: %s is refused (%v), so the test does not show the CHECK refuses it", d, typ, c.value, err)
						case off && c.permissive != d && err == nil:
							t.Errorf("%s %s: %s is stored by %s itself", d, typ, c.value, d)
						}
					}
				}
			}
		})
	}
}
