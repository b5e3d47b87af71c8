package lower

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// uuidPattern is the text form PostgreSQL's uuid type guarantees.
const uuidPattern = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"

// domains adds the CHECKs of limits.Domains, which keep columns to the
// values PostgreSQL stores too (see dialects.Domain), unless value_domains
// is off.
func (l *lowerer) domains(t *compiler.Table, lt *sqltext.Table) {
	if !l.set.ValueDomains {
		return
	}
	action := actionColumns(t)
	for _, c := range t.Columns {
		dom, ok := domainOf(c)
		if !ok {
			continue
		}
		if l.keyLimits(t, c, action, "CHECK "+dom.Suffix, func(fk, other string) {
			l.rec.Errorf(c.Range, "Value domain cannot hold", "TiDB cannot keep %s.%s to %s: TiDB forbids CHECKs on columns of foreign key %q, which has a referential action (error 3823), and the key does not check rows where %s is NULL. Make %s not null, drop the action, or set value_domains = false in dialect \"tidb\".", t.Name, c.Name, dom.Why, fk, other, other)
		}) {
			continue
		}
		name := l.generatedName(limits.DomainCheckName(t.Name, c.Name, dom), t, c)
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(name, fmt.Sprintf(dom.Check, lexical.Ident(c.Name))))
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Added, "CHECK %s: %s", name, dom.Why)
	}
}

// domainOf returns the value domain TiDB keeps column c to.
func domainOf(c *compiler.Column) (dialects.Domain, bool) {
	typ, known := EffectiveType(c)
	dom, ok := limits.Domains[typ.Name()]
	if !known || !ok || c.Overrides.Skipped(Name) || c.Generated != nil {
		return dialects.Domain{}, false
	}
	return dom, true
}

// DomainChecks are the names of the value-domain CHECKs value_domains
// gives t, with their columns (the importer's domain reader).
func DomainChecks(t *compiler.Table) map[string]string {
	out := map[string]string{}
	if t.Overrides.Skipped(Name) {
		return out
	}
	action := actionColumns(t)
	for _, c := range t.Columns {
		if dom, ok := domainOf(c); ok && action[c.Name] == "" {
			out[limits.DomainCheckName(t.Name, c.Name, dom)] = c.Name
		}
	}
	return out
}

// timeRange limits time columns to PostgreSQL's range, 00:00:00 to
// 24:00:00, by a CHECK: TiDB's TIME takes -838:59:59 to 838:59:59.
func (l *lowerer) timeRange(t *compiler.Table, lt *sqltext.Table) {
	action := actionColumns(t)
	for _, c := range t.Columns {
		typ, known := EffectiveType(c)
		if !known || typ.Kind != compiler.TypeTime || c.Overrides.Skipped(Name) {
			continue
		}
		if l.keyLimits(t, c, action, "CHECK of the time range", func(fk, other string) {
			l.rec.Errorf(c.Range, "Time range TiDB cannot keep", "TiDB cannot keep %s.%s in PostgreSQL's time range (00:00:00 to 24:00:00): it forbids CHECKs on columns of foreign key %q, which has a referential action (error 3823), and the key does not check rows where %s is NULL, so TiDB would store times PostgreSQL refuses (found by the differential tester, seed 778). Make %s not null, or drop the action.", t.Name, c.Name, fk, other, other)
		}) {
			continue
		}
		name := l.generatedName(TimeCheckName(t.Name, c.Name), t, c)
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(name, TimeCheck(c.Name)))
	}
}

// TimeCheckName is the name of the CHECK that keeps a time column in
// PostgreSQL's range.
func TimeCheckName(table, column string) string {
	return sqltext.FitName(table+"_"+column+"_time_ck", limits.MaxIdent)
}

// TimeCheck is the expression of that CHECK.
func TimeCheck(column string) string {
	return lexical.Ident(column) + " BETWEEN '00:00:00' AND '24:00:00'"
}

// fitName fits a name the dialect makes up into TiDB's limit,
// deterministically.
func fitName(name string) string {
	if utf8.RuneCountInString(name) > limits.MaxIdent {
		sum := sha256.Sum256([]byte(name))
		name = string([]rune(name)[:limits.MaxIdent-9]) + "_" + hex.EncodeToString(sum[:4])
	}
	return name
}

// generatedName fits a name the dialect makes up into TiDB's limit,
// deterministically, and reports a clash with a name of the model.
func (l *lowerer) generatedName(name string, t *compiler.Table, c *compiler.Column) string {
	name = fitName(name)
	if l.names == nil {
		l.names = map[string]bool{}
		for _, t := range l.schema.Tables {
			for _, ch := range t.Checks {
				l.names[ch.Overrides.NameIn(Name, ch.Name)] = true
			}
			for _, u := range t.Uniques {
				l.names[u.Overrides.NameIn(Name, u.Name)] = true
			}
			for _, fk := range t.ForeignKeys {
				l.names[fk.Overrides.NameIn(Name, fk.Name)] = true
			}
			for _, idx := range t.Indexes {
				l.names[idx.Overrides.NameIn(Name, idx.Name)] = true
			}
		}
	}
	if l.names[name] {
		l.rec.Errorf(c.Range, "Name clash", "TiDB's lowering adds a CHECK named %q to %s.%s (uuid_check, value_domains, or the range of a time column), but the model already uses that name; rename the model's object.", name, t.Name, c.Name)
	}
	return name
}

// UUIDCheck is the expression of uuid_check's CHECK on a column.
func UUIDCheck(column string) string {
	return lexical.Ident(column) + " REGEXP " + lexical.String(uuidPattern)
}

// UUIDCheckName is the name of uuid_check's CHECK on a column.
func UUIDCheckName(table, column string) string { return fitName(table + "_" + column + "_uuid_ck") }

var hexClass = regexp.MustCompile(`\[[^\]]*\]`)

// UUIDShapeOf returns the uuid column whose text shape n tests as
// uuid_check's CHECK does (col REGEXP '^[0-9A-Fa-f]{8}-...-[0-9A-Fa-f]{12}$',
// its hex classes in any order), or "". A class without upper or lower case
// letters tests something else: TiDB's REGEXP is case-sensitive here.
func UUIDShapeOf(t *compiler.Table, n expr.Node) string {
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
	if typ, known := EffectiveType(c); !known || typ.Kind != compiler.TypeUUID {
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

// ShapeChecked reports whether t has, on TiDB, a CHECK of c's uuid shape.
func ShapeChecked(t *compiler.Table, c string) bool {
	for _, ch := range t.Checks {
		if !ch.Overrides.Skipped(Name) && ch.Expr != nil && UUIDShapeOf(t, ch.Expr) == c {
			return true
		}
	}
	return false
}

// UUIDChecked returns the columns of t that uuid_check gives its CHECK,
// and false when uuid_check cannot hold on t.
func UUIDChecked(t *compiler.Table) ([]string, bool) {
	if t.Overrides.Skipped(Name) {
		return nil, true
	}
	action := actionColumns(t)
	var cols []string
	for _, c := range t.Columns {
		typ, known := EffectiveType(c)
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
