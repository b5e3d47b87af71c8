package sqltext

import (
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// CheckConstraint is a CHECK constraint over the expression x.
func CheckConstraint(name, x string) Constraint {
	return Constraint{Name: name, Kind: ConstraintCheck, Body: "CHECK (" + x + ")", Check: x}
}

// Exprs returns the expressions the script writes, by object. Raw index
// statements are kept whole; other raw statements are not looked into.
func (sc *Script) Exprs() *dialects.Exprs {
	x := &dialects.Exprs{
		Checks:     map[dialects.ObjectName]string{},
		Defaults:   map[dialects.ObjectName]string{},
		Generated:  map[dialects.ObjectName]string{},
		Collations: map[dialects.ObjectName]string{},
		IndexParts: map[dialects.ObjectName][]string{},
		Predicates: map[dialects.ObjectName]string{},
		RawIndexes: map[dialects.ObjectName]string{},
		Renames:    sc.Renames,
		After:      map[string][]string{},
	}
	for _, e := range sc.Extensions {
		x.Extensions = append(x.Extensions, e.Name)
	}
	for _, r := range sc.Before {
		x.Raw = append(x.Raw, dialects.RawStmt{Name: r.Name, SQL: trimStmt(r.SQL), BeforeTables: true})
	}
	for _, r := range sc.After {
		x.Raw = append(x.Raw, dialects.RawStmt{Name: r.Name, SQL: trimStmt(r.SQL)})
	}
	for _, t := range sc.Tables {
		for _, stmt := range t.After {
			x.After[t.Name] = append(x.After[t.Name], trimStmt(stmt))
		}
		for _, c := range t.Columns {
			if c.Default != "" {
				x.Defaults[dialects.ObjectName{Table: t.Name, Name: c.Name}] = c.Default
			}
			if c.GeneratedExpr != "" {
				x.Generated[dialects.ObjectName{Table: t.Name, Name: c.Name}] = c.GeneratedExpr
			}
			if c.Collation != "" {
				x.Collations[dialects.ObjectName{Table: t.Name, Name: c.Name}] = c.Collation
			}
		}
		for _, c := range t.Constraints {
			if c.Check != "" {
				x.Checks[dialects.ObjectName{Table: t.Name, Name: c.Name}] = c.Check
			}
		}
		for _, idx := range t.Indexes {
			if idx.Raw != "" {
				if idx.Of != "" {
					x.RawIndexes[dialects.ObjectName{Table: t.Name, Name: idx.Of}] = strings.TrimRight(strings.TrimSpace(idx.Raw), ";")
				}
				continue
			}
			key := dialects.ObjectName{Table: t.Name, Name: idx.Name}
			for _, e := range idx.Exprs {
				if e != "" {
					x.IndexParts[key] = idx.Exprs
					break
				}
			}
			if idx.Where != "" {
				x.Predicates[key] = idx.Where
			}
		}
	}
	return x
}

// TrimStmt is a statement as scripts and migrations write it: trimmed, and
// without its final semicolon.
func trimStmt(s string) string { return strings.TrimRight(strings.TrimSpace(s), ";") }

// Using says how a dialect sets expression texts on Atlas's objects.
type Using struct {
	// Default returns a column's default as Atlas plans text (old is the
	// inspected one).
	Default func(old schema.Expr, text string) schema.Expr
	// Predicate sets an index's predicate; nil when the dialect has none.
	Predicate func(idx *schema.Index, text string)
}

// UseExprs sets on the objects of s the texts x holds for them. Objects x
// does not know (raw statements) keep the inspected text.
func UseExprs(s *schema.Schema, x *dialects.Exprs, u Using) {
	if x == nil {
		return
	}
	for _, t := range s.Tables {
		for _, a := range t.Attrs {
			if c, ok := a.(*schema.Check); ok {
				if e, ok := x.Checks[dialects.ObjectName{Table: t.Name, Name: c.Name}]; ok {
					// The DDL writes CHECK (e). Atlas writes CHECK e when e
					// is wrapped in parentheses already, and TiDB keeps
					// the text as written: ((a) OR (b)) would lose a pair
					// against the generated DDL (the plan oracle, seed
					// 7000023).
					c.Expr = "(" + e + ")"
				}
			}
		}
		for _, c := range t.Columns {
			if d, ok := x.Defaults[dialects.ObjectName{Table: t.Name, Name: c.Name}]; ok && c.Default != nil {
				c.Default = u.Default(c.Default, d)
			}
			if g, ok := x.Generated[dialects.ObjectName{Table: t.Name, Name: c.Name}]; ok {
				for _, a := range c.Attrs {
					if ge, ok := a.(*schema.GeneratedExpr); ok {
						ge.Expr = g
					}
				}
			}
		}
		for _, idx := range t.Indexes {
			key := dialects.ObjectName{Table: t.Name, Name: idx.Name}
			if parts := x.IndexParts[key]; len(parts) == len(idx.Parts) {
				for i, p := range idx.Parts {
					if parts[i] != "" && p.X != nil {
						p.X = &schema.RawExpr{X: parts[i]}
					}
				}
			}
			if w, ok := x.Predicates[key]; ok && u.Predicate != nil {
				u.Predicate(idx, w)
			}
		}
	}
}
