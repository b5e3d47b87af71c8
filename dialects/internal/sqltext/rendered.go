package sqltext

import "github.com/schemagen/schemagen/dialects"

var constraintKinds = [...]string{ConstraintUnique: "unique", ConstraintCheck: "check", ConstraintForeignKey: "foreign_key"}

// Rendered returns what the script writes for each object, in the pieces
// Write puts together (see dialects.Rendered).
func (sc *Script) Rendered(st Style) *dialects.Rendered {
	r := &dialects.Rendered{Extensions: map[string]string{}, Enums: map[string]string{}, Tables: make(map[string]*dialects.RenderedTable, len(sc.Tables))}
	for _, e := range sc.Extensions {
		r.Extensions[e.Name] = e.SQL
	}
	for _, e := range sc.Types {
		r.Enums[e.Name] = e.SQL
	}
	for _, t := range sc.Tables {
		rt := &dialects.RenderedTable{Statement: createTable(st, t), PrimaryKey: t.PrimaryKey, Options: t.Options}
		for _, stmt := range t.After {
			rt.After = append(rt.After, trimStmt(stmt))
		}
		for _, c := range t.Columns {
			rt.Columns = append(rt.Columns, &dialects.RenderedColumn{
				Name: c.Name, Type: c.Type, Default: c.Default, NotNull: c.NotNull,
				Identity: c.Clause, Generated: c.Generated, GeneratedExpr: c.GeneratedExpr, OnUpdate: c.OnUpdate,
			})
		}
		for _, c := range t.Constraints {
			rt.Constraints = append(rt.Constraints, dialects.RenderedConstraint{Name: c.Name, Kind: constraintKinds[c.Kind], Body: c.Body, Check: c.Check, Ref: c.Ref})
		}
		for _, idx := range t.Indexes {
			ri := &dialects.RenderedIndex{Name: idx.Name, Of: idx.Name, Parts: idx.Parts, Using: idx.Using, Where: idx.Where, Unique: idx.Unique, Comment: idx.Comment}
			switch {
			case idx.Raw != "":
				ri.Name, ri.Of, ri.Raw = idx.RawName, idx.Of, true
				ri.Statement = trimStmt(idx.Raw)
			case st.InlineIndexes:
				ri.Statement, ri.Inline = indexDef(st, idx), true
			default:
				ri.Statement = createIndex(st, t.Name, idx)
			}
			ri.CommentStatement = indexComment(st, t.Name, idx)
			rt.Indexes = append(rt.Indexes, ri)
		}
		r.Tables[t.Name] = rt
	}
	for _, d := range sc.Deferred {
		if rt := r.Tables[d.Table]; rt != nil {
			c := d.Constraint
			rt.Constraints = append(rt.Constraints, dialects.RenderedConstraint{Name: c.Name, Kind: constraintKinds[c.Kind], Body: c.Body, Check: c.Check, Ref: c.Ref, Deferred: true})
		}
	}
	return r
}
