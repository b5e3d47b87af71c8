package tidb

import (
	"regexp"
	"strings"

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
func (Dialect) InferSettings(s *compiler.Schema) (map[string]cty.Value, []string) {
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
