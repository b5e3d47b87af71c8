package difftest

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/dialects/postgres"
	"github.com/schemagen/schemagen/dialects/tidb"
)

// Stmt is a neutral INSERT, UPDATE or DELETE, rendered for each dialect.
type Stmt struct {
	Kind  string // "insert", "update" or "delete"
	Table string
	Cols  []string // inserted or updated columns
	Vals  []Value
	// Where limits UPDATE and DELETE to rows whose column WhereCol equals WhereVal.
	WhereCol string
	WhereVal Value
}

// SQL renders s for dialect d; ok is false when the model no longer has
// what s names (after shrinking).
func (s Stmt) SQL(d string, m *Model) (string, bool) {
	t := m.Table(s.Table)
	if t == nil {
		return "", false
	}
	ident := postgres.Ident
	if d == tidb.Name {
		ident = tidb.Ident
	}
	var cols, vs []string
	seen := map[string]bool{}
	for i, name := range s.Cols {
		c := t.Col(name)
		if c == nil || seen[name] || c.Identity || c.As != "" {
			// The database gives an identity or generated column its
			// values.
			continue
		}
		seen[name] = true
		cols = append(cols, ident(name))
		vs = append(vs, s.Vals[i].render(d, c.Type))
	}
	where := ""
	if s.Kind != "insert" {
		c := t.Col(s.WhereCol)
		if c == nil {
			return "", false
		}
		where = " WHERE " + ident(s.WhereCol) + " = " + s.WhereVal.render(d, c.Type)
	}
	switch s.Kind {
	case "insert":
		if len(cols) == 0 && slices.ContainsFunc(t.Cols, func(c *Col) bool { return c.Identity }) {
			if d == tidb.Name {
				return fmt.Sprintf("INSERT INTO %s () VALUES ()", ident(t.Name)), true
			}
			return fmt.Sprintf("INSERT INTO %s DEFAULT VALUES", ident(t.Name)), true
		}
		if len(cols) == 0 {
			return "", false
		}
		return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", ident(t.Name), strings.Join(cols, ", "), strings.Join(vs, ", ")), true
	case "update":
		if len(cols) == 0 {
			return "", false
		}
		set := make([]string, len(cols))
		for i := range cols {
			set[i] = cols[i] + " = " + vs[i]
		}
		return fmt.Sprintf("UPDATE %s SET %s%s", ident(t.Name), strings.Join(set, ", "), where), true
	}
	return fmt.Sprintf("DELETE FROM %s%s", ident(t.Name), where), true
}

// GoString writes s as a Go literal, for printed regression tests.
func (s Stmt) GoString() string {
	var b strings.Builder
	fmt.Fprintf(&b, "{Kind: %q, Table: %q", s.Kind, s.Table)
	if len(s.Cols) > 0 {
		fmt.Fprintf(&b, ", Cols: %#v, Vals: []difftest.Value{", s.Cols)
		for i, v := range s.Vals {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(v.GoString())
		}
		b.WriteString("}")
	}
	if s.Kind != "insert" {
		fmt.Fprintf(&b, ", WhereCol: %q, WhereVal: difftest.Value%s", s.WhereCol, s.WhereVal.GoString())
	}
	return b.String() + "}"
}

// GoString writes v as a Go literal.
func (v Value) GoString() string {
	if v.Null {
		return "{Null: true}"
	}
	return fmt.Sprintf("{S: %q}", v.S)
}

// prune drops the columns m no longer has, for printing.
func (s Stmt) prune(m *Model) Stmt {
	t := m.Table(s.Table)
	if t == nil {
		return s
	}
	out := s
	out.Cols, out.Vals = nil, nil
	for i, c := range s.Cols {
		if t.Col(c) != nil {
			out.Cols = append(out.Cols, c)
			out.Vals = append(out.Vals, s.Vals[i])
		}
	}
	return out
}
