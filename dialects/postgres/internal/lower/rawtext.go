package lower

import (
	"regexp"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

var (
	nextvalOf      = regexp.MustCompile(`(?i)\bnextval\(\s*'("?)((?:[^'"]|"")+)"?'(?:::regclass)?\s*\)`)
	createSequence = regexp.MustCompile(`(?i)\bCREATE\s+SEQUENCE\s+(?:IF\s+NOT\s+EXISTS\s+)?("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)`)
)

// sequences are the sequences the model creates on PostgreSQL, by name:
// those its raw blocks create, and those of its serial and identity
// columns (<table>_<column>_seq, as PostgreSQL names them).
func (l *lowerer) sequences() map[string]bool {
	if l.seqs != nil {
		return l.seqs
	}
	l.seqs = map[string]bool{}
	for _, r := range l.schema.Raw {
		for _, m := range createSequence.FindAllStringSubmatch(r.SQL[Name], -1) {
			name := m[1]
			if strings.HasPrefix(name, `"`) {
				name = strings.ReplaceAll(name[1:len(name)-1], `""`, `"`)
			} else {
				name = strings.ToLower(name)
			}
			l.seqs[name] = true
		}
	}
	for _, t := range l.schema.Tables {
		for _, c := range t.Columns {
			o := c.Overrides.For(Name)
			if c.Identity != nil || o != nil && strings.Contains(strings.ToLower(o.RawType), "serial") {
				l.seqs[t.Name+"_"+c.Name+"_seq"] = true
			}
		}
	}
	return l.seqs
}

// rawDefault checks a column's raw PostgreSQL default: a sequence it draws
// from (nextval) must be one the model creates, or the DDL fails when it
// runs (42P01). PostgreSQL's parser is not at hand: the rest of the text
// is not checked, and explain says so.
func (l *lowerer) rawDefault(t *compiler.Table, c *compiler.Column, o *compiler.Override) {
	ms := nextvalOf.FindAllStringSubmatch(o.Default, -1)
	for _, m := range ms {
		name := m[2]
		if m[1] == "" {
			name = strings.ToLower(name)
		}
		if _, seq, ok := strings.Cut(name, "."); ok && m[1] == "" {
			name = seq
		}
		if !l.sequences()[name] {
			l.rec.Errorf(o.Range, "Unknown sequence", "The default %s of %s.%s draws from sequence %q, which the model does not create: add a raw block that creates it (CREATE SEQUENCE), or make the column an identity.", o.Default, t.Name, c.Name, name)
		}
	}
	if len(ms) == 0 {
		l.rec.Decide(t.Ref(compiler.KindColumn, c.Name), dialects.Overridden, "raw default %s: not checked before the DDL runs (the tables and functions it names are resolved by PostgreSQL)", o.Default)
	}
}
