package drift

import (
	"fmt"
	"path"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// findings describes the changes that would turn the live state (from) into
// the expected one (to): an added object is missing from the database, a
// dropped one is extra. The dialect prints the objects.
func findings(d dialects.Describer, changes []schema.Change, live *schema.Schema) []Finding {
	out := []Finding{}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.AddTable:
			out = append(out, Finding{Change: "missing", Kind: "table", Table: c.T.Name, Expected: d.Describe(c.T)})
		case *schema.DropTable:
			out = append(out, Finding{Change: "extra", Kind: "table", Table: c.T.Name, Found: d.Describe(c.T)})
		case *schema.ModifyTable:
			var from *schema.Table
			if live != nil {
				from, _ = live.Table(c.T.Name)
			}
			for _, tc := range c.Changes {
				f := tableFinding(d, c.T.Name, tc)
				if mc, ok := tc.(*schema.ModifyColumn); ok && mc.Change.Is(schema.ChangeCollate) {
					// Name the collations, or the two may read the same.
					f.Expected += columnCollation(mc.To, c.T)
					f.Found += columnCollation(mc.From, from)
				}
				out = append(out, f)
			}
		case *schema.AddObject:
			if e, ok := c.O.(*schema.EnumType); ok {
				out = append(out, Finding{Change: "missing", Kind: "enum", Name: e.T, Expected: enumValues(e)})
				continue
			}
			out = append(out, Finding{Change: "changed", Kind: "schema", Expected: fmt.Sprintf("%T", c)})
		case *schema.DropObject:
			if e, ok := c.O.(*schema.EnumType); ok {
				out = append(out, Finding{Change: "extra", Kind: "enum", Name: e.T, Found: enumValues(e)})
				continue
			}
			out = append(out, Finding{Change: "changed", Kind: "schema", Expected: fmt.Sprintf("%T", c)})
		case *schema.ModifyObject:
			from, ok1 := c.From.(*schema.EnumType)
			to, ok2 := c.To.(*schema.EnumType)
			if ok1 && ok2 {
				out = append(out, Finding{Change: "changed", Kind: "enum", Name: to.T, Expected: enumValues(to), Found: enumValues(from)})
				continue
			}
			out = append(out, Finding{Change: "changed", Kind: "schema", Expected: fmt.Sprintf("%T", c)})
		default:
			out = append(out, Finding{Change: "changed", Kind: "schema", Expected: fmt.Sprintf("%T", c)})
		}
	}
	return out
}

func tableFinding(d dialects.Describer, table string, c schema.Change) Finding {
	f := Finding{Table: table}
	// added, dropped and modified set what the change adds, drops or
	// turns one object into another.
	added := func(kind, name string, obj any) {
		f.Change, f.Kind, f.Name, f.Expected = "missing", kind, name, d.Describe(obj)
	}
	dropped := func(kind, name string, obj any) {
		f.Change, f.Kind, f.Name, f.Found = "extra", kind, name, d.Describe(obj)
	}
	modified := func(kind, name string, from, to any) {
		f.Change, f.Kind, f.Name, f.Expected, f.Found = "changed", kind, name, d.Describe(to), d.Describe(from)
	}
	switch c := c.(type) {
	case *schema.AddColumn:
		added("column", c.C.Name, c.C)
	case *schema.DropColumn:
		dropped("column", c.C.Name, c.C)
	case *schema.ModifyColumn:
		modified("column", c.To.Name, c.From, c.To)
	case *schema.AddIndex:
		added("index", c.I.Name, c.I)
	case *schema.DropIndex:
		dropped("index", c.I.Name, c.I)
	case *schema.ModifyIndex:
		modified("index", c.To.Name, c.From, c.To)
	case *schema.AddForeignKey:
		added("foreign_key", c.F.Symbol, c.F)
	case *schema.DropForeignKey:
		dropped("foreign_key", c.F.Symbol, c.F)
	case *schema.ModifyForeignKey:
		modified("foreign_key", c.To.Symbol, c.From, c.To)
	case *schema.AddCheck:
		added("check", c.C.Name, c.C)
	case *schema.DropCheck:
		dropped("check", c.C.Name, c.C)
	case *schema.ModifyCheck:
		modified("check", c.To.Name, c.From, c.To)
	case *schema.AddPrimaryKey:
		added("primary_key", "", c.P)
	case *schema.DropPrimaryKey:
		dropped("primary_key", "", c.P)
	case *schema.ModifyPrimaryKey:
		modified("primary_key", "", c.From, c.To)
	case dialects.IndexChange:
		// An index option Atlas does not diff (a dialect's own change).
		from, to := c.IndexChange()
		modified("index", to.Name, from, to)
	case *schema.ModifyAttr:
		// A table option (TiDB's AUTO_ID_CACHE), as the dialect prints it.
		modified("table_attribute", "", c.From, c.To)
	default:
		f.Change, f.Kind, f.Expected = "changed", "table_attribute", strings.TrimPrefix(fmt.Sprintf("%T", c), "*schema.")
	}
	return f
}

// columnCollation is " COLLATE X" for a column's collation, its own or,
// without one, its table's.
func columnCollation(c *schema.Column, t *schema.Table) string {
	switch {
	case collation(c.Attrs) != "":
		return " COLLATE " + collation(c.Attrs)
	case t != nil && collation(t.Attrs) != "":
		return " COLLATE " + collation(t.Attrs) + " (the table's)"
	}
	return ""
}

func collation(attrs []schema.Attr) string {
	for _, a := range attrs {
		if c, ok := a.(*schema.Collation); ok {
			return c.V
		}
	}
	return ""
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// enumValues describes an enum type's values, as the database orders them.
func enumValues(e *schema.EnumType) string {
	q := make([]string, len(e.Values))
	for i, v := range e.Values {
		q[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	return "ENUM (" + strings.Join(q, ", ") + ")"
}
