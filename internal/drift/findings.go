package drift

import (
	"fmt"
	"os"
	"path"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
)

// findings describes the changes that would turn the live state (from) into
// the expected one (to): an added object is missing from the database, a
// dropped one is extra.
func findings(changes []schema.Change) []Finding {
	out := []Finding{}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.AddTable:
			out = append(out, Finding{Change: "missing", Kind: "table", Table: c.T.Name, Expected: tableDef(c.T)})
		case *schema.DropTable:
			out = append(out, Finding{Change: "extra", Kind: "table", Table: c.T.Name, Found: tableDef(c.T)})
		case *schema.ModifyTable:
			for _, tc := range c.Changes {
				out = append(out, tableFinding(c.T.Name, tc))
			}
		default:
			out = append(out, Finding{Change: "changed", Kind: "schema", Expected: fmt.Sprintf("%T", c)})
		}
	}
	return out
}

func tableFinding(table string, c schema.Change) Finding {
	f := Finding{Table: table}
	switch c := c.(type) {
	case *schema.AddColumn:
		f.Change, f.Kind, f.Name, f.Expected = "missing", "column", c.C.Name, columnDef(c.C)
	case *schema.DropColumn:
		f.Change, f.Kind, f.Name, f.Found = "extra", "column", c.C.Name, columnDef(c.C)
	case *schema.ModifyColumn:
		f.Change, f.Kind, f.Name, f.Expected, f.Found = "changed", "column", c.To.Name, columnDef(c.To), columnDef(c.From)
	case *schema.AddIndex:
		f.Change, f.Kind, f.Name, f.Expected = "missing", "index", c.I.Name, indexDef(c.I)
	case *schema.DropIndex:
		f.Change, f.Kind, f.Name, f.Found = "extra", "index", c.I.Name, indexDef(c.I)
	case *schema.ModifyIndex:
		f.Change, f.Kind, f.Name, f.Expected, f.Found = "changed", "index", c.To.Name, indexDef(c.To), indexDef(c.From)
	case *schema.AddForeignKey:
		f.Change, f.Kind, f.Name, f.Expected = "missing", "foreign_key", c.F.Symbol, fkDef(c.F)
	case *schema.DropForeignKey:
		f.Change, f.Kind, f.Name, f.Found = "extra", "foreign_key", c.F.Symbol, fkDef(c.F)
	case *schema.ModifyForeignKey:
		f.Change, f.Kind, f.Name, f.Expected, f.Found = "changed", "foreign_key", c.To.Symbol, fkDef(c.To), fkDef(c.From)
	case *schema.AddCheck:
		f.Change, f.Kind, f.Name, f.Expected = "missing", "check", c.C.Name, "CHECK "+c.C.Expr
	case *schema.DropCheck:
		f.Change, f.Kind, f.Name, f.Found = "extra", "check", c.C.Name, "CHECK "+c.C.Expr
	case *schema.ModifyCheck:
		f.Change, f.Kind, f.Name, f.Expected, f.Found = "changed", "check", c.To.Name, "CHECK "+c.To.Expr, "CHECK "+c.From.Expr
	case *schema.AddPrimaryKey:
		f.Change, f.Kind, f.Name, f.Expected = "missing", "primary_key", "", indexDef(c.P)
	case *schema.DropPrimaryKey:
		f.Change, f.Kind, f.Name, f.Found = "extra", "primary_key", "", indexDef(c.P)
	case *schema.ModifyPrimaryKey:
		f.Change, f.Kind, f.Name, f.Expected, f.Found = "changed", "primary_key", "", indexDef(c.To), indexDef(c.From)
	default:
		f.Change, f.Kind, f.Expected = "changed", "table_attribute", strings.TrimPrefix(fmt.Sprintf("%T", c), "*schema.")
	}
	return f
}

func tableDef(t *schema.Table) string {
	return fmt.Sprintf("%d columns", len(t.Columns))
}

func columnDef(c *schema.Column) string {
	s := typeDef(c.Type)
	if c.Type.Null {
		s += " NULL"
	} else {
		s += " NOT NULL"
	}
	switch d := c.Default.(type) {
	case *schema.Literal:
		s += " DEFAULT " + d.V
	case *schema.RawExpr:
		s += " DEFAULT " + d.X
	}
	return s
}

// typeDef shows a column type with its size, precision and scale, which the
// raw type name of some drivers leaves out.
func typeDef(ct *schema.ColumnType) string {
	switch t := ct.Type.(type) {
	case *schema.StringType:
		if t.Size > 0 {
			return fmt.Sprintf("%s(%d)", t.T, t.Size)
		}
		return t.T
	case *schema.DecimalType:
		return fmt.Sprintf("%s(%d,%d)", t.T, t.Precision, t.Scale)
	case *schema.TimeType:
		if t.Precision != nil {
			return fmt.Sprintf("%s(%d)", t.T, *t.Precision)
		}
		return t.T
	}
	if ct.Raw != "" {
		return ct.Raw
	}
	return fmt.Sprintf("%T", ct.Type)
}

func indexDef(i *schema.Index) string {
	var parts []string
	for _, p := range i.Parts {
		var s string
		switch {
		case p.C != nil:
			s = p.C.Name
		case p.X != nil:
			if x, ok := p.X.(*schema.RawExpr); ok {
				s = "(" + x.X + ")"
			} else {
				s = "(expression)"
			}
		}
		if p.Desc {
			s += " DESC"
		}
		parts = append(parts, s)
	}
	def := "(" + strings.Join(parts, ", ") + ")"
	if i.Unique {
		def = "UNIQUE " + def
	}
	for _, a := range i.Attrs {
		if p, ok := a.(*postgres.IndexPredicate); ok {
			def += " WHERE " + p.P
		}
	}
	return def
}

func fkDef(fk *schema.ForeignKey) string {
	var cols, refs []string
	for _, c := range fk.Columns {
		cols = append(cols, c.Name)
	}
	for _, c := range fk.RefColumns {
		refs = append(refs, c.Name)
	}
	ref := "?"
	if fk.RefTable != nil {
		ref = fk.RefTable.Name
	}
	s := fmt.Sprintf("(%s) REFERENCES %s (%s)", strings.Join(cols, ", "), ref, strings.Join(refs, ", "))
	if fk.OnDelete != "" {
		s += " ON DELETE " + string(fk.OnDelete)
	}
	if fk.OnUpdate != "" {
		s += " ON UPDATE " + string(fk.OnUpdate)
	}
	return s
}

func readFile(name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w (run `schemagen generate` first)", err)
	}
	return b, nil
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}
