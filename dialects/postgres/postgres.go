// Package postgres lowers schemagen's neutral model to PostgreSQL DDL.
package postgres

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
)

// Name is the dialect's name in schema.hcl and atlas.hcl.
const Name = "postgres"

// maxIdent is PostgreSQL's NAMEDATALEN - 1: longer names are silently cut.
const maxIdent = 63

// Dialect is PostgreSQL (15 and later).
type Dialect struct{}

// Name implements dialects.Dialect.
func (Dialect) Name() string { return Name }

// Generate implements dialects.Dialect.
func (Dialect) Generate(s *compiler.Schema) (*dialects.Output, hcl.Diagnostics) {
	rec := &sqltext.Recorder{Dialect: Name}
	if ds := s.Dialect[Name]; ds != nil {
		for _, a := range ds.Attrs {
			rec.Errorf(a.NameRange, "Unsupported setting", "The postgres dialect has no settings.")
		}
	}
	l := &lowerer{rec: rec}
	sc := sqltext.Build(s, l, rec)
	if rec.Diags.HasErrors() {
		return nil, rec.Diags
	}
	return &dialects.Output{SQL: sc.Write(style), Decisions: rec.Decisions, Exprs: sc.Exprs()}, rec.Diags
}

var style = sqltext.Style{Ident: Ident, String: String}

// Ident quotes an identifier.
func Ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// String quotes a string literal (standard_conforming_strings is on since
// PostgreSQL 9.1, so backslashes are literal).
func String(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

type syntax struct{}

func (syntax) Ident(s string) string  { return Ident(s) }
func (syntax) String(s string) string { return String(s) }
func (syntax) Bool(v bool) string {
	if v {
		return "TRUE"
	}
	return "FALSE"
}

// TextOperand casts uuid columns: PostgreSQL has no text operators on uuid.
func (syntax) TextOperand(sql string, k expr.Kind) string {
	if k == expr.KindUUID {
		return sql + "::text"
	}
	return sql
}

func (syntax) Regex(x, p string, not bool) string {
	if not {
		return x + " !~ " + p
	}
	return x + " ~ " + p
}

func (syntax) Distinct(l, r string, not bool) string {
	if not {
		return l + " IS NOT DISTINCT FROM " + r
	}
	return l + " IS DISTINCT FROM " + r
}

func (syntax) Concat(l, r string) string { return l + " || " + r }

func (syntax) JSONType(x string, types []string, not bool) string {
	f := "jsonb_typeof(" + x + ")"
	if len(types) == 1 {
		if not {
			return f + " <> " + String(types[0])
		}
		return f + " = " + String(types[0])
	}
	q := make([]string, len(types))
	for i, t := range types {
		q[i] = String(t)
	}
	if not {
		return f + " NOT IN (" + strings.Join(q, ", ") + ")"
	}
	return f + " IN (" + strings.Join(q, ", ") + ")"
}

type lowerer struct {
	rec *sqltext.Recorder
}

func (l *lowerer) ident(name, what string, rng hcl.Range) {
	if len(name) > maxIdent {
		l.rec.Errorf(rng, "Identifier too long", "The %s name %q is %d bytes; PostgreSQL allows at most %d and would silently cut it.", what, name, len(name), maxIdent)
	}
}

// Type returns the PostgreSQL type of a neutral type.
func Type(t compiler.Type) string {
	switch t.Kind {
	case compiler.TypeUUID:
		return "UUID"
	case compiler.TypeText:
		return "TEXT"
	case compiler.TypeVarchar:
		return fmt.Sprintf("VARCHAR(%d)", t.Args[0])
	case compiler.TypeChar:
		return fmt.Sprintf("CHAR(%d)", t.Args[0])
	case compiler.TypeSmallint:
		return "SMALLINT"
	case compiler.TypeInt:
		return "INTEGER"
	case compiler.TypeBigint:
		return "BIGINT"
	case compiler.TypeBool:
		return "BOOLEAN"
	case compiler.TypeDouble:
		return "DOUBLE PRECISION"
	case compiler.TypeDecimal:
		return fmt.Sprintf("NUMERIC(%d,%d)", t.Args[0], t.Args[1])
	case compiler.TypeTimestamp:
		if len(t.Args) == 1 {
			return fmt.Sprintf("TIMESTAMPTZ(%d)", t.Args[0])
		}
		return "TIMESTAMPTZ"
	case compiler.TypeDate:
		return "DATE"
	case compiler.TypeJSON:
		return "JSONB"
	case compiler.TypeBytes:
		return "BYTEA"
	case compiler.TypeVector:
		return fmt.Sprintf("vector(%d)", t.Args[0])
	}
	return "?"
}

var typeNotes = map[compiler.TypeKind]string{
	compiler.TypeTimestamp: "timestamp as TIMESTAMPTZ (an instant; microsecond precision unless given)",
	compiler.TypeJSON:      "json as JSONB (normalised binary JSON)",
	compiler.TypeVector:    "vector needs the pgvector extension (CREATE EXTENSION vector)",
}

func (l *lowerer) Column(t *compiler.Table, c *compiler.Column) (*sqltext.Column, bool) {
	l.ident(c.Name, "column", c.Range)
	lc := &sqltext.Column{Name: c.Name, Type: Type(c.Type), NotNull: !c.Null, Comment: c.Comment}
	o := c.Overrides.For(Name)
	switch {
	case o != nil && o.RawType != "":
		lc.Type = o.RawType
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Overridden, "type %s instead of %s", o.RawType, c.Type)
	case o != nil && o.Type != nil:
		lc.Type = Type(*o.Type)
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Overridden, "type %s instead of %s", o.Type, c.Type)
	default:
		if n, ok := typeNotes[c.Type.Kind]; ok {
			l.rec.Decide(t.Name, "column "+c.Name, dialects.Lowered, "%s", n)
		}
	}
	if o != nil && o.Default != "" {
		lc.Default = o.Default
		l.rec.Decide(t.Name, "column "+c.Name, dialects.Overridden, "default %s", o.Default)
	} else if d := c.Default; d != nil {
		switch d.Kind {
		case compiler.DefaultNow:
			lc.Default = "now()"
		case compiler.DefaultString:
			lc.Default = String(d.Value)
		case compiler.DefaultBool:
			lc.Default = strings.ToUpper(d.Value)
		default:
			lc.Default = d.Value
		}
	}
	return lc, true
}

func (l *lowerer) Unique(t *compiler.Table, u *compiler.Unique) (sqltext.Constraint, bool) {
	l.ident(u.Name, "unique constraint", u.Range)
	return sqltext.Constraint{Name: u.Name, Body: "UNIQUE (" + style.List(u.Columns) + ")"}, true
}

func (l *lowerer) Check(t *compiler.Table, c *compiler.Check) (sqltext.Constraint, bool) {
	l.ident(c.Name, "check", c.Range)
	if o := c.Overrides.For(Name); o != nil && o.Expr != "" {
		l.rec.Decide(t.Name, "check "+c.Name, dialects.Overridden, "raw expression %s", o.Expr)
		return sqltext.CheckConstraint(c.Name, o.Expr), true
	}
	l.explainExpr(t, "check "+c.Name, c.Expr)
	return sqltext.CheckConstraint(c.Name, sqltext.Expr(syntax{}, c.Expr)), true
}

// explainExpr records the casts an expression needs on PostgreSQL.
func (l *lowerer) explainExpr(t *compiler.Table, object string, n expr.Node) {
	if sqltext.UsesAsText(n, expr.KindUUID) {
		l.rec.Decide(t.Name, object, dialects.Lowered, "uuid read as text (::text) where a string operation applies to it")
	}
}

var actions = map[compiler.Action]string{
	compiler.Cascade: "CASCADE", compiler.Restrict: "RESTRICT", compiler.SetNull: "SET NULL", compiler.SetDefault: "SET DEFAULT",
}

func (l *lowerer) ForeignKey(t *compiler.Table, fk *compiler.ForeignKey) (sqltext.Constraint, bool) {
	l.ident(fk.Name, "foreign key", fk.Range)
	body := "FOREIGN KEY (" + style.List(fk.Columns) + ") REFERENCES " + Ident(fk.RefTable) + " (" + style.List(fk.RefColumns) + ")"
	if a := actions[fk.OnDelete]; a != "" {
		body += " ON DELETE " + a
	}
	if a := actions[fk.OnUpdate]; a != "" {
		body += " ON UPDATE " + a
	}
	if fk.Deferrable {
		body += " DEFERRABLE"
		if fk.InitiallyDeferred {
			body += " INITIALLY DEFERRED"
		}
	}
	return sqltext.Constraint{Name: fk.Name, Body: body}, true
}

func (l *lowerer) Index(t *compiler.Table, idx *compiler.Index) (*sqltext.Index, bool) {
	l.ident(idx.Name, "index", idx.Range)
	if o := idx.Overrides.For(Name); o != nil && o.SQL != "" {
		l.rec.Decide(t.Name, "index "+idx.Name, dialects.Overridden, "raw statement from the model")
		return &sqltext.Index{Raw: o.SQL, Of: idx.Name}, true
	}
	li := &sqltext.Index{Name: idx.Name, Unique: idx.Unique, Using: idx.Using}
	for _, p := range idx.Parts {
		part, x := "", ""
		if p.Expr != nil {
			x = sqltext.Expr(syntax{}, p.Expr)
			part = "(" + x + ")"
			l.explainExpr(t, "index "+idx.Name, p.Expr)
		} else {
			part = Ident(p.Column)
		}
		if p.OpClass != "" {
			part += " " + p.OpClass
		}
		if p.Desc {
			part += " DESC"
		}
		li.Parts = append(li.Parts, part)
		li.Exprs = append(li.Exprs, x)
	}
	if idx.Where != nil {
		li.Where = sqltext.Expr(syntax{}, idx.Where)
		l.explainExpr(t, "index "+idx.Name, idx.Where)
	}
	return li, true
}

func (l *lowerer) Finish(t *compiler.Table, lt *sqltext.Table) {
	l.ident(t.Name, "table", t.Range)
}
