package plantest

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
	"github.com/schemagen/schemagen/internal/gen"
)

// TestRowsKeepToSettings: the rows the oracle inserts after a step leave
// out the values a setting the model turns off lets the databases store
// or compare otherwise, and draw them where the settings are on
// (evolution 99494298641: under exact_strings = false a key 'a ' was
// drawn, and a data migration's WHERE id0 = 'a' found it on TiDB alone).
func TestRowsKeepToSettings(t *testing.T) {
	const tables = `
table "t0" {
  column "id0" {
    type = varchar(10)
  }
  column "u0" {
    type = uuid
    null = true
  }
  column "f0" {
    type = double
    null = true
  }
  primary_key {
    columns = ["id0"]
  }
}
`
	for _, tc := range []struct {
		settings string
		off      bool
	}{
		{"", false},
		{"dialect \"postgres\" {\n  value_domains = false\n}\n\ndialect \"tidb\" {\n  uuid_check    = false\n  exact_strings = false\n  value_domains = false\n}\n", true},
	} {
		res := gen.CompileSource("schema.hcl", []byte(tc.settings+tables))
		if res.Failed() {
			t.Fatal(res.Diags)
		}
		shape := stepShape(res)
		differs := (&difftest.Model{UUIDCheck: "false", ExactStrings: "false", ValueDomains: "false"}).Differs
		drawn := 0
		for seed := range uint64(40) {
			for _, s := range draw.NewGen(seed).Stmts(shape, 36) {
				if s.Kind != "insert" {
					continue
				}
				for i, v := range s.Vals {
					c := shape.Table(s.Table).Col(s.Cols[i])
					if differs(c.Type, v) {
						if tc.off {
							t.Fatalf("settings off: drawn %s = %q, which the databases store or compare otherwise", c.Name, v.S)
						}
						drawn++
					}
				}
			}
		}
		if !tc.off && drawn == 0 {
			t.Errorf("settings on (%q): no value the settings keep alike was drawn; the test shows nothing", strings.TrimSpace(tc.settings))
		}
	}
}
