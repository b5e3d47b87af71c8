package tidb

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
)

var hexClass = regexp.MustCompile(`\[[^\]]*\]`)

// uuidShapeOf returns the uuid column whose text shape n tests as
// uuid_check's CHECK does (col REGEXP '^[0-9A-Fa-f]{8}-...-[0-9A-Fa-f]{12}$',
// its hex classes in any order), or "". A class without upper or lower case
// letters tests something else: TiDB's REGEXP is case-sensitive here.
func uuidShapeOf(t *compiler.Table, n expr.Node) string {
	b, ok := expr.Unparen(n).(*expr.Binary)
	if !ok || b.Op != expr.OpRegex {
		return ""
	}
	col, ok := b.L.(*expr.Column)
	lit, ok2 := b.R.(*expr.Literal)
	if !ok || !ok2 || lit.Kind != expr.LitString {
		return ""
	}
	c := t.Column(col.Name)
	if c == nil {
		return ""
	}
	if typ, known := effectiveType(c); !known || typ.Kind != compiler.TypeUUID {
		return ""
	}
	for _, class := range hexClass.FindAllString(lit.Value, -1) {
		inner := class[1 : len(class)-1]
		rest := inner
		for _, r := range []string{"0-9", "a-f", "A-F"} {
			if !strings.Contains(rest, r) {
				return ""
			}
			rest = strings.Replace(rest, r, "", 1)
		}
		if rest != "" {
			return ""
		}
	}
	if hexClass.ReplaceAllString(lit.Value, "H") != "^H{8}-H{4}-H{4}-H{4}-H{12}$" {
		return ""
	}
	return col.Name
}

// shapeChecked reports whether t has, on TiDB, a CHECK of c's uuid shape.
func shapeChecked(t *compiler.Table, c string) bool {
	for _, ch := range t.Checks {
		if !ch.Overrides.Skipped(Name) && ch.Expr != nil && uuidShapeOf(t, ch.Expr) == c {
			return true
		}
	}
	return false
}

// uuidChecked returns the columns of t that uuid_check gives its CHECK,
// and false when uuid_check cannot hold on t.
func uuidChecked(t *compiler.Table) ([]string, bool) {
	if t.Overrides.Skipped(Name) {
		return nil, true
	}
	action := actionColumns(t)
	var cols []string
	for _, c := range t.Columns {
		typ, known := effectiveType(c)
		if !known || typ.Kind != compiler.TypeUUID || c.Overrides.Skipped(Name) {
			continue
		}
		if fk, ok := action[c.Name]; ok {
			if nullableOther(t, fk, c.Name) != "" {
				return nil, false
			}
			continue
		}
		cols = append(cols, c.Name)
	}
	return cols, true
}

// InferSettings implements the importer's settingsInferrer: uuid_check when
// every column it would give a CHECK of its uuid shape has one already (as
// teams write it by hand: CHAR(36) with REGEXP '^[0-9a-fA-F]{8}-...'). The
// model keeps those CHECKs, with their names and text, and uuid_check adds
// none beside them, so generating gives the same DDL; uuid_check then gives
// new uuid columns the CHECK too. The notes say what was inferred or why not.
//
// charset and collation, when every table read has the same ones and they
// are not the server's default that generated DDL gets.
func (Dialect) InferSettings(s *compiler.Schema, inspected map[string]*schema.Table) (map[string]cty.Value, []string) {
	set, notes := inferUUIDCheck(s)
	if charset, collation, ok := tablesCharset(s, inspected); ok {
		if set == nil {
			set = map[string]cty.Value{}
		}
		if charset != defaultCharset {
			set["charset"] = cty.StringVal(charset)
		}
		if collation != defaultCollation {
			set["collation"] = cty.StringVal(collation)
		}
		if len(set) > 0 && (charset != defaultCharset || collation != defaultCollation) {
			notes = append(notes, fmt.Sprintf("charset = %q and collation = %q inferred: every table has them", charset, collation))
		}
	}
	if len(set) > 0 {
		dropOwnUUIDChecks(s)
	}
	if exactStringsInferred(s) {
		if set == nil {
			set = map[string]cty.Value{}
		}
		set["exact_strings"] = cty.True
		notes = append(notes, "exact_strings = true inferred: every varchar and text column has the collation "+exactCollation+" it gives them")
	}
	return set, notes
}

// exactStringsInferred reports whether every varchar and text column of s
// (read from TiDB, there being one) has, as its TiDB type, the collation
// exact_strings gives it, and then makes them plain: the setting gives them
// the same type.
func exactStringsInferred(s *compiler.Schema) bool {
	var exact []*compiler.Column
	for _, t := range s.Tables {
		if t.Overrides.Skipped(Name) {
			continue
		}
		for _, c := range t.Columns {
			if c.Type.Kind != compiler.TypeVarchar && c.Type.Kind != compiler.TypeText || c.Overrides.Skipped(Name) || c.Generated != nil {
				continue
			}
			o := c.Overrides.For(Name)
			if o == nil || !strings.EqualFold(o.RawType, Type(c.Type)+" COLLATE "+exactCollation) {
				return false
			}
			exact = append(exact, c)
		}
	}
	for _, c := range exact {
		o := c.Overrides[Name]
		o.RawType = ""
		if !o.Skip && o.Type == nil && o.Default == "" && o.Expr == "" && o.SQL == "" && len(o.Accept) == 0 && o.Name == "" && o.Column == "" {
			delete(c.Overrides, Name)
		}
	}
	return len(exact) > 0
}

func inferUUIDCheck(s *compiler.Schema) (map[string]cty.Value, []string) {
	var checked, missing []string
	for _, t := range s.Tables {
		cols, ok := uuidChecked(t)
		if !ok {
			return nil, nil
		}
		for _, c := range cols {
			if shapeChecked(t, c) {
				checked = append(checked, t.Name+"."+c)
			} else {
				missing = append(missing, t.Name+"."+c)
			}
		}
	}
	switch {
	case len(checked) == 0:
		return nil, nil
	case len(missing) > 0:
		more := ""
		if len(missing) > 5 {
			more = ", ..."
			missing = missing[:5]
		}
		return nil, []string{"uuid_check not inferred: " + strings.Join(checked, ", ") + " have a CHECK of their uuid shape, but " + strings.Join(missing, ", ") + more + " have none; those CHECKs are kept on " + Name + " only"}
	}
	return map[string]cty.Value{"uuid_check": cty.True}, []string{"uuid_check = true inferred: every uuid column it would check has a CHECK of its uuid shape (" + strings.Join(checked, ", ") + "), kept as written"}
}

// dropOwnUUIDChecks removes from s the CHECKs that are uuid_check's own,
// by name and text, which the setting makes again: the model need not
// declare them.
func dropOwnUUIDChecks(s *compiler.Schema) {
	for _, t := range s.Tables {
		t.Checks = slices.DeleteFunc(t.Checks, func(ch *compiler.Check) bool {
			if ch.Expr == nil || len(ch.Overrides) > 0 && ch.Overrides.For(Name) != nil {
				return false
			}
			c := uuidShapeOf(t, ch.Expr)
			if c == "" || ch.Name != t.Name+"_"+c+"_uuid_ck" {
				return false
			}
			b := expr.Unparen(ch.Expr).(*expr.Binary)
			lit := b.R.(*expr.Literal)
			return lit.Value == uuidPattern
		})
	}
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
