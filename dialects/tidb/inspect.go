package tidb

import (
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lower"
)

// Shape implements dialects.ShapeReader: uuid_check's CHECK, or one of
// the same shape (lower.UUIDShapeOf).
func (Dialect) Shape(t *compiler.Table, n expr.Node) (dialects.Shape, bool) {
	if col := lower.UUIDShapeOf(t, n); col != "" {
		return dialects.Shape{Column: col, Type: compiler.TypeUUID}, true
	}
	return dialects.Shape{}, false
}

// InferSettings implements the importer's settingsInferrer, for the
// settings whose default (on) would change what a database read holds.
//
// uuid_check stands when every column it would give a CHECK of its uuid
// shape has one already (schemagen's own, or as teams write it by hand:
// CHAR(36) with REGEXP '^[0-9a-fA-F]{8}-...'): the model keeps those CHECKs,
// with their names and text, and uuid_check adds none beside them, so
// generating gives the same DDL. Otherwise the model says uuid_check =
// false and keeps the CHECKs that exist as TiDB's own.
//
// exact_strings stands when every varchar and text column read has its
// collation, utf8mb4_0900_bin (the column types that say so become plain
// again); otherwise (TiDB's default utf8mb4_bin, or another collation) the
// model says exact_strings = false, so that the columns keep theirs.
//
// charset and collation, when every table read has the same ones and they
// are not the server's default that generated DDL gets.
func (Dialect) InferSettings(s *compiler.Schema, inspected map[string]*schema.Table) (map[string]cty.Value, []string) {
	set := map[string]cty.Value{}
	var notes []string
	notes = inferUUIDCheck(s, inspected, set, notes)
	notes = inferExactStrings(s, inspected, set, notes)
	if charset, collation, ok := tablesCharset(s, inspected); ok {
		if charset != defaultCharset {
			set["charset"] = cty.StringVal(charset)
		}
		if collation != defaultCollation {
			set["collation"] = cty.StringVal(collation)
		}
		if charset != defaultCharset || collation != defaultCollation {
			notes = append(notes, fmt.Sprintf("charset = %q and collation = %q inferred: every table has them", charset, collation))
		}
	}
	return set, notes
}

// list names at most five of xs.
func list(xs []string) string {
	if len(xs) > 5 {
		return strings.Join(xs[:5], ", ") + ", ..."
	}
	return strings.Join(xs, ", ")
}

func inferUUIDCheck(s *compiler.Schema, raw map[string]*schema.Table, set map[string]cty.Value, notes []string) []string {
	var checked, missing []string
	holds := true
	for _, t := range s.Tables {
		cols, ok := lower.UUIDChecked(t)
		if !ok {
			holds = false
			continue
		}
		for _, c := range cols {
			if lower.ShapeChecked(t, c) || ownChecked(raw[t.Name], t.Name, c) {
				checked = append(checked, t.Name+"."+c)
			} else {
				missing = append(missing, t.Name+"."+c)
			}
		}
	}
	switch {
	case !holds:
		set["uuid_check"] = cty.False
		notes = append(notes, "uuid_check = false: a uuid column of a foreign key with an action has a nullable partner column, where uuid_check cannot hold")
	case len(missing) > 0:
		set["uuid_check"] = cty.False
		if len(checked) > 0 {
			notes = append(notes, "uuid_check = false: "+list(checked)+" have a CHECK of their uuid shape, but "+list(missing)+" have none; those CHECKs are kept on "+Name+" only")
		} else {
			notes = append(notes, "uuid_check = false: no uuid column has a CHECK of its uuid shape ("+list(missing)+")")
		}
	case len(checked) > 0:
		notes = append(notes, "uuid_check (the default) stands: every uuid column it would check has a CHECK of its uuid shape ("+list(checked)+"), kept as written")
	}
	return notes
}

func inferExactStrings(s *compiler.Schema, raw map[string]*schema.Table, set map[string]cty.Value, notes []string) []string {
	var exact, padded []string
	var plain, own []*compiler.Column
	for _, t := range s.Tables {
		rt := raw[t.Name]
		if rt == nil || t.Overrides.Skipped(Name) {
			continue
		}
		for _, c := range t.Columns {
			o := c.Overrides.For(Name)
			kind := c.Type.Kind
			if o != nil && o.Type != nil {
				kind = o.Type.Kind
			}
			if c.Overrides.Skipped(Name) || kind != compiler.TypeVarchar && kind != compiler.TypeText {
				continue
			}
			switch {
			case o != nil && strings.EqualFold(o.RawType, Type(c.Type)+" COLLATE "+lower.ExactCollation):
				// The collation of its own that exact_strings gives it.
				exact = append(exact, t.Name+"."+c.Name)
				plain = append(plain, c)
			case o != nil && o.RawType != "":
				// A type of its own (another collation), which it keeps.
			default:
				rc, ok := rt.Column(c.Name)
				if !ok {
					continue
				}
				if collationOf(rc.Attrs, collationOf(rt.Attrs, "")) == lower.ExactCollation {
					exact = append(exact, t.Name+"."+c.Name)
					if collationOf(rt.Attrs, "") != lower.ExactCollation {
						own = append(own, c)
					}
				} else {
					padded = append(padded, t.Name+"."+c.Name)
				}
			}
		}
	}
	if len(padded) > 0 {
		set["exact_strings"] = cty.False
		// The columns with exact_strings' collation keep it as their type.
		for _, c := range own {
			if c.Overrides == nil {
				c.Overrides = compiler.Overrides{}
			}
			o := c.Overrides[Name]
			if o == nil {
				o = &compiler.Override{Dialect: Name}
				c.Overrides[Name] = o
			}
			o.RawType = Type(c.Type) + " COLLATE " + lower.ExactCollation
		}
		n := "exact_strings = false: " + list(padded) + " have the collation of their table, which compares otherwise than PostgreSQL (TiDB's default utf8mb4_bin ignores trailing spaces)"
		if len(exact) > 0 {
			n += "; " + list(exact) + " keep " + lower.ExactCollation + " as their own type"
		}
		return append(notes, n)
	}
	// exact_strings (the default) gives these columns the same type.
	for _, c := range plain {
		o := c.Overrides[Name]
		o.RawType = ""
		if !o.Skip && o.Type == nil && o.Default == "" && o.Expr == "" && o.SQL == "" && len(o.Accept) == 0 && o.Name == "" && o.Column == "" {
			delete(c.Overrides, Name)
		}
	}
	if len(exact) > 0 {
		notes = append(notes, "exact_strings (the default) stands: every varchar and text column has the collation "+lower.ExactCollation+" it gives them ("+list(exact)+")")
	}
	return notes
}

// ownChecked reports whether the table read has uuid_check's own CHECK on
// column c (left to the default, not read as a CHECK of the model).
func ownChecked(rt *schema.Table, table, c string) bool {
	if rt == nil {
		return false
	}
	for _, a := range rt.Attrs {
		if ch, ok := a.(*schema.Check); ok && ownUUIDCheck(table, c, ch) {
			return true
		}
	}
	return false
}

// collationOf returns the collation among attrs, or def.
func collationOf(attrs []schema.Attr, def string) string {
	for _, a := range attrs {
		if c, ok := a.(*schema.Collation); ok {
			return c.V
		}
	}
	return def
}

// The charset and collation of the tables generated DDL makes, the
// server's defaults.
const defaultCharset, defaultCollation = "utf8mb4", "utf8mb4_bin"

// tablesCharset returns the charset and collation every inspected table of
// s has, and whether they all have the same ones.
func tablesCharset(s *compiler.Schema, inspected map[string]*schema.Table) (string, string, bool) {
	charset, collation, n := "", "", 0
	for _, t := range s.Tables {
		it := inspected[t.Name]
		if it == nil || t.Overrides.Skipped(Name) {
			continue
		}
		var cs, cl string
		for _, a := range it.Attrs {
			switch a := a.(type) {
			case *schema.Charset:
				cs = a.V
			case *schema.Collation:
				cl = a.V
			}
		}
		if cs == "" || cl == "" || n > 0 && (cs != charset || cl != collation) {
			return "", "", false
		}
		charset, collation, n = cs, cl, n+1
	}
	return charset, collation, n > 0
}
