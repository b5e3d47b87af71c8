// Package describe prints inspected objects (Atlas's schema types) as drift
// findings show them: a definition in the dialect's words, without the
// object's name. Each dialect supplies what differs: its type printer, which
// is Atlas's own for that dialect (the one its planner writes types with),
// and the attributes it reports on an index.
package describe

import (
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"
)

// Printer prints the objects of one dialect.
type Printer struct {
	// FormatType prints a column type as the dialect's Atlas planner does.
	FormatType func(schema.Type) (string, error)
	// Predicate returns an index's predicate, "" for none.
	Predicate func(*schema.Index) string
}

// Object prints a *schema.Column (type, nullability, default), a
// *schema.Index (a primary key too: uniqueness, parts, predicate, comment), a
// *schema.ForeignKey (columns, referenced table and columns, actions), a
// *schema.Check (its condition) or a *schema.Table (its column count).
func (p Printer) Object(obj any) string {
	switch o := obj.(type) {
	case *schema.Table:
		return fmt.Sprintf("%d columns", len(o.Columns))
	case *schema.Column:
		return p.column(o)
	case *schema.Index:
		return p.index(o)
	case *schema.ForeignKey:
		return foreignKey(o)
	case *schema.Check:
		return "CHECK " + o.Expr
	}
	return fmt.Sprintf("%T", obj)
}

func (p Printer) column(c *schema.Column) string {
	s := p.typ(c.Type)
	if c.Type.Null {
		s += " NULL"
	} else {
		s += " NOT NULL"
	}
	switch d := c.Default.(type) {
	case *schema.Literal:
		s += " DEFAULT " + literal(c, d.V)
	case *schema.RawExpr:
		s += " DEFAULT " + d.X
	}
	return s
}

// literal prints a default's value as SQL writes it, whichever way the
// inspector reported it: drivers give a string default bare (USD), double
// quoted ("EUR") or single quoted ('EUR') depending on where it was read,
// and the two sides of a drift finding must read alike.
func literal(c *schema.Column, v string) string {
	if c.Type == nil {
		return v
	}
	switch c.Type.Type.(type) {
	case *schema.StringType, *schema.EnumType:
	default:
		return v
	}
	switch {
	case len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'':
		return v
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		v = strings.ReplaceAll(v[1:len(v)-1], `\"`, `"`)
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// typ shows a column type with its size, precision and scale, as the
// dialect writes it, else as the driver reported it.
func (p Printer) typ(ct *schema.ColumnType) string {
	if p.FormatType != nil && ct.Type != nil {
		if s, err := p.FormatType(ct.Type); err == nil && s != "" {
			return s
		}
	}
	if ct.Raw != "" {
		return ct.Raw
	}
	return fmt.Sprintf("%T", ct.Type)
}

func (p Printer) index(i *schema.Index) string {
	var parts []string
	for _, ip := range i.Parts {
		var s string
		switch {
		case ip.C != nil:
			s = ip.C.Name
		case ip.X != nil:
			if x, ok := ip.X.(*schema.RawExpr); ok {
				s = "(" + x.X + ")"
			} else {
				s = "(expression)"
			}
		}
		if ip.Desc {
			s += " DESC"
		}
		parts = append(parts, s)
	}
	def := "(" + strings.Join(parts, ", ") + ")"
	if i.Unique {
		def = "UNIQUE " + def
	}
	if p.Predicate != nil {
		if w := p.Predicate(i); w != "" {
			def += " WHERE " + w
		}
	}
	// A changed comment is the whole difference of an index (its purpose).
	for _, a := range i.Attrs {
		if c, ok := a.(*schema.Comment); ok && c.Text != "" {
			def += " COMMENT '" + strings.ReplaceAll(c.Text, "'", "''") + "'"
		}
	}
	return def
}

func foreignKey(fk *schema.ForeignKey) string {
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
