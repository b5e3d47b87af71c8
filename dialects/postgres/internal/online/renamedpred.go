package online

import (
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
)

// renamedPredicates removes from changes the index changes that only a
// column rename of the same plan makes: PostgreSQL keeps a partial index's
// predicate by the column itself, so RENAME COLUMN rewrites it, but the
// diff compared the predicate's old text ("id0 IS NOT NULL") with the
// model's ("rc0 IS NOT NULL") and planned a DROP INDEX and a CREATE INDEX,
// which online blocked writes for the whole build (PG101) when a foreign
// key references the table (plan oracle, seed 31313, evolution
// 31313094151). A change whose old index, with the renamed names written
// in its predicate, differs from the new one in nothing stays out.
func renamedPredicates(d schema.Differ, changes []schema.Change) {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		renamed := map[string]string{}
		for _, sc := range mt.Changes {
			if r, ok := sc.(*schema.RenameColumn); ok {
				renamed[r.From.Name] = r.To.Name
			}
		}
		if len(renamed) == 0 {
			continue
		}
		mt.Changes = slices.DeleteFunc(mt.Changes, func(sc schema.Change) bool {
			mi, ok := sc.(*schema.ModifyIndex)
			if !ok || !mi.Change.Is(schema.ChangeAttr) {
				return false
			}
			var p1, p2 *postgres.IndexPredicate
			for _, a := range mi.From.Attrs {
				if p, ok := a.(*postgres.IndexPredicate); ok {
					p1 = p
				}
			}
			for _, a := range mi.To.Attrs {
				if p, ok := a.(*postgres.IndexPredicate); ok {
					p2 = p
				}
			}
			if p1 == nil || p2 == nil || plainText(renameIdents(p1.P, renamed)) != plainText(p2.P) {
				return false
			}
			// Nothing else changes: the old index with the new predicate
			// is the new one.
			from := *mi.From
			from.Attrs = slices.Clone(from.Attrs)
			from.Attrs[slices.Index(from.Attrs, schema.Attr(p1))] = p2
			t1 := &schema.Table{Name: mt.T.Name, Schema: mt.T.Schema, Columns: mt.T.Columns, Indexes: []*schema.Index{&from}}
			t2 := &schema.Table{Name: mt.T.Name, Schema: mt.T.Schema, Columns: mt.T.Columns, Indexes: []*schema.Index{mi.To}}
			diff, err := d.TableDiff(t1, t2)
			return err == nil && len(diff) == 0
		})
	}
}

var plainIdent = regexp.MustCompile(`^[a-z_][a-z0-9_$]*$`)

// renameIdents writes names new for old in expression x, outside its
// string literals, as PostgreSQL prints an identifier (quoted unless a
// plain lower-case name).
func renameIdents(x string, renamed map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(x); {
		ch := x[i]
		switch {
		case ch == '\'':
			j := i + 1
			for j < len(x) && !(x[j] == '\'' && (j+1 >= len(x) || x[j+1] != '\'')) {
				if x[j] == '\'' {
					j++
				}
				j++
			}
			j = min(j+1, len(x))
			b.WriteString(x[i:j])
			i = j
		case ch == '"' || ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j, name := i+1, ""
			if ch == '"' {
				for j < len(x) && x[j] != '"' {
					j++
				}
				name = x[i+1 : min(j, len(x))]
				j = min(j+1, len(x))
			} else {
				for j < len(x) && (x[j] == '_' || x[j] == '$' || x[j] >= 'a' && x[j] <= 'z' || x[j] >= 'A' && x[j] <= 'Z' || x[j] >= '0' && x[j] <= '9') {
					j++
				}
				name = x[i:j]
			}
			if to, ok := renamed[name]; ok {
				if !plainIdent.MatchString(to) {
					to = `"` + strings.ReplaceAll(to, `"`, `""`) + `"`
				}
				b.WriteString(to)
			} else {
				b.WriteString(x[i:j])
			}
			i = j
		default:
			b.WriteByte(ch)
			i++
		}
	}
	return b.String()
}

// plainText is expression x without its outer parentheses and with its
// plain identifiers unquoted, as PostgreSQL prints it back.
func plainText(x string) string {
	x = strings.TrimSpace(x)
	for strings.HasPrefix(x, "(") && strings.HasSuffix(x, ")") && balanced(x[1:len(x)-1]) {
		x = strings.TrimSpace(x[1 : len(x)-1])
	}
	return quotedPlain.ReplaceAllStringFunc(x, func(q string) string { return q[1 : len(q)-1] })
}

var quotedPlain = regexp.MustCompile(`"[a-z_][a-z0-9_$]*"`)

// balanced reports whether x's parentheses pair up, read left to right.
func balanced(x string) bool {
	depth := 0
	for _, ch := range x {
		switch ch {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}
