package migration

import (
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/scratch"
)

// SameExprs returns the entries of x (the expression texts of the DDL that
// built model, a state inspected from a database) for the objects that
// state holds exactly as model does: x's texts are then the source of
// state's objects too, and a statement that recreates them with x's text
// builds what state's database holds. Used where the expected state is an
// older one than the model (drift against the migrations at a version).
func SameExprs(state, model *schema.Schema, x *dialects.Exprs) *dialects.Exprs {
	out := &dialects.Exprs{
		Checks:     map[dialects.ObjectName]string{},
		Defaults:   map[dialects.ObjectName]string{},
		IndexParts: map[dialects.ObjectName][]string{},
		Predicates: map[dialects.ObjectName]string{},
		RawIndexes: map[dialects.ObjectName]string{},
	}
	if x == nil {
		return out
	}
	for _, st := range state.Tables {
		mt, ok := model.Table(st.Name)
		if !ok {
			continue
		}
		for _, a := range st.Attrs {
			c, ok := a.(*schema.Check)
			if !ok {
				continue
			}
			key := dialects.ObjectName{Table: st.Name, Name: c.Name}
			if text, ok := x.Checks[key]; ok {
				if mc := checkNamed(mt, c.Name); mc != nil && mc.Expr == c.Expr {
					out.Checks[key] = text
				}
			}
		}
		for _, c := range st.Columns {
			key := dialects.ObjectName{Table: st.Name, Name: c.Name}
			if text, ok := x.Defaults[key]; ok {
				if mc, ok := mt.Column(c.Name); ok && scratch.CanonicalExpr(mc.Default) == scratch.CanonicalExpr(c.Default) {
					out.Defaults[key] = text
				}
			}
		}
		for _, i := range st.Indexes {
			key := dialects.ObjectName{Table: st.Name, Name: i.Name}
			mi, ok := mt.Index(i.Name)
			if !ok || scratch.CanonicalIndex(mi) != scratch.CanonicalIndex(i) {
				continue
			}
			if parts, ok := x.IndexParts[key]; ok {
				out.IndexParts[key] = parts
			}
			if text, ok := x.Predicates[key]; ok {
				out.Predicates[key] = text
			}
			if stmt, ok := x.RawIndexes[key]; ok {
				out.RawIndexes[key] = stmt
			}
		}
	}
	return out
}

func checkNamed(t *schema.Table, name string) *schema.Check {
	for _, a := range t.Attrs {
		if c, ok := a.(*schema.Check); ok && c.Name == name {
			return c
		}
	}
	return nil
}
