package lower

import (
	"fmt"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// domains adds the CHECKs of limits.Domains, which keep columns to the
// values TiDB stores too (see dialects.Domain), unless value_domains is off.
func (l *lowerer) domains(t *compiler.Table, lt *sqltext.Table) {
	if !l.set.ValueDomains {
		return
	}
	for _, d := range domainChecks(t) {
		if l.names == nil {
			l.names = modelNames(l.schema)
		}
		if l.names[d.name] {
			l.rec.Errorf(d.col.Range, "Name clash", "schemagen adds a CHECK named %q to %s.%s (%s), but the model already uses that name; rename the model's object, or set value_domains = false in dialect \"postgres\".", d.name, t.Name, d.col.Name, d.dom.Why)
		}
		lt.Constraints = append(lt.Constraints, sqltext.CheckConstraint(d.name, fmt.Sprintf(d.dom.Check, lexical.Ident(d.col.Name))))
		l.rec.Decide(t.Ref(compiler.KindColumn, d.col.Name), dialects.Added, "CHECK %s: %s", d.name, d.dom.Why)
	}
}

type domainCheck struct {
	col  *compiler.Column
	dom  dialects.Domain
	name string
}

// domainChecks are the value-domain CHECKs of t's columns.
func domainChecks(t *compiler.Table) []domainCheck {
	var out []domainCheck
	if t.Overrides.Skipped(Name) {
		return nil
	}
	for _, c := range t.Columns {
		typ := c.Type
		if o := c.Overrides.For(Name); o != nil {
			if o.Skip || o.RawType != "" {
				continue
			}
			if o.Type != nil {
				typ = *o.Type
			}
		}
		dom, ok := limits.Domains[typ.Name()]
		if !ok || c.Generated != nil {
			continue
		}
		out = append(out, domainCheck{col: c, dom: dom, name: limits.DomainCheckName(t.Name, c.Name, dom)})
	}
	return out
}

// DomainChecks implements the importer's domain reader: the names of the
// value-domain CHECKs value_domains gives t, with their columns.
func DomainChecks(t *compiler.Table) map[string]string {
	out := map[string]string{}
	for _, d := range domainChecks(t) {
		out[d.name] = d.col.Name
	}
	return out
}

// modelNames are the constraint and index names of the model, as
// PostgreSQL gets them: a set, so that checking each added CHECK's name is
// linear in the model.
func modelNames(s *compiler.Schema) map[string]bool {
	names := map[string]bool{}
	for _, t := range s.Tables {
		for _, ch := range t.Checks {
			names[ch.Overrides.NameIn(Name, ch.Name)] = true
		}
		for _, u := range t.Uniques {
			names[u.Overrides.NameIn(Name, u.Name)] = true
		}
		for _, fk := range t.ForeignKeys {
			names[fk.Overrides.NameIn(Name, fk.Name)] = true
		}
		for _, idx := range t.Indexes {
			names[idx.Overrides.NameIn(Name, idx.Name)] = true
		}
	}
	return names
}
