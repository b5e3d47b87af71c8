package compiler_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load"
)

// TestNameScopes: Validate reports two objects of the same name exactly
// when compiler.NameScopes puts their kinds in one scope (per table: in the
// same table), once, with the scope's rule; the data is what validation
// reads, so the two cannot disagree.
func TestNameScopes(t *testing.T) {
	kinds := []compiler.ObjectKind{compiler.KindTable, compiler.KindColumn, compiler.KindIndex, compiler.KindUnique, compiler.KindCheck, compiler.KindForeignKey}
	// block declares an object of kind k named n in a table.
	block := func(k compiler.ObjectKind, n string) string {
		switch k {
		case compiler.KindColumn:
			return fmt.Sprintf("  column %q {\n    type = int\n  }\n", n)
		case compiler.KindIndex:
			return fmt.Sprintf("  index %q {\n    columns = [\"b\"]\n  }\n", n)
		case compiler.KindUnique:
			return fmt.Sprintf("  unique %q {\n    columns = [\"b\"]\n  }\n", n)
		case compiler.KindCheck:
			return fmt.Sprintf("  check %q {\n    expr = \"b > 0\"\n  }\n", n)
		case compiler.KindForeignKey:
			return fmt.Sprintf("  foreign_key %q {\n    columns     = [\"b\"]\n    ref_table   = \"r\"\n    ref_columns = [\"id\"]\n  }\n", n)
		}
		return ""
	}
	table := func(name, body string) string {
		return fmt.Sprintf("table %q {\n  column \"id\" {\n    type = int\n  }\n  column \"b\" {\n    type = int\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n%s}\n", name, body)
	}
	const r = "table \"r\" {\n  column \"id\" {\n    type = int\n  }\n  primary_key {\n    columns = [\"id\"]\n  }\n}\n"
	shared := func(a, b compiler.ObjectKind, sameTable bool) string {
		for _, ns := range compiler.NameScopes {
			if ns.Has(a) && ns.Has(b) && (sameTable || !ns.PerTable) {
				return ns.Why
			}
		}
		return ""
	}
	checked := 0
	for i, a := range kinds {
		for _, b := range kinds[i:] {
			for _, sameTable := range []bool{true, false} {
				if (a == compiler.KindTable || b == compiler.KindTable) && sameTable {
					continue // a table and its own objects: the other case
				}
				var src string
				switch {
				case a == compiler.KindTable && b == compiler.KindTable:
					src = table("x", "") + table("x", "")
				case a == compiler.KindTable:
					src = table("x", "") + table("t", block(b, "x"))
				case sameTable:
					src = table("t", block(a, "x")+block(b, "x"))
				default:
					src = table("t", block(a, "x")) + table("u", block(b, "x"))
				}
				_, diags := load.Source(load.Options{}, "s.hcl", []byte(r+src))
				var dups []string
				for _, d := range diags {
					if strings.HasPrefix(d.Summary, "Duplicate") {
						dups = append(dups, d.Detail)
					}
				}
				why := shared(a, b, sameTable)
				switch {
				case why == "" && len(dups) > 0:
					t.Errorf("%s and %s (same table %v): reported, but no scope holds both: %q", a, b, sameTable, dups)
				case why != "" && len(dups) != 1:
					t.Errorf("%s and %s (same table %v): %d reports, want one (%s): %q", a, b, sameTable, len(dups), why, dups)
				case why != "" && a != compiler.KindColumn && !strings.HasSuffix(dups[0], "; "+why+"."):
					t.Errorf("%s and %s: %q does not give the scope's rule %q", a, b, dups[0], why)
				}
				checked++
			}
		}
	}
	if checked < 30 {
		t.Fatalf("only %d pairs checked", checked)
	}
}
