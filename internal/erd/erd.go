// Package erd draws a schema model as an entity-relationship diagram:
// tables with their columns and keys, and foreign keys between them, in
// Mermaid (which GitHub renders in Markdown) or Graphviz DOT. For one dialect
// it marks what that dialect leaves out.
package erd

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
)

// Formats are the output formats.
var Formats = []string{"mermaid", "dot"}

// Options select what to draw.
type Options struct {
	// Dialect, when set, marks the objects the model leaves out of that
	// dialect and lists the features the dialect drops (from Decisions).
	Dialect   string
	Decisions []dialects.Decision
	// Tables limits the diagram to these tables (all when empty).
	Tables []string
}

type column struct {
	name, typ string
	keys      []string // PK, FK, UK
	notes     []string
}

type table struct {
	name    string
	columns []column
	leftOut bool
}

type relation struct {
	parent, child string
	name          string
	optional      bool // a nullable foreign key: the parent may be absent
	one           bool // the child columns are unique: one to one
	leftOut       bool
}

type diagram struct {
	tables    []table
	relations []relation
	notes     []string // what the dialect leaves out besides tables and columns
}

// UnknownTables returns the names in tables that the schema does not have.
func UnknownTables(s *compiler.Schema, tables []string) []string {
	var out []string
	for _, n := range tables {
		if s.Table(n) == nil {
			out = append(out, n)
		}
	}
	return out
}

func build(s *compiler.Schema, o Options) *diagram {
	d := &diagram{}
	want := func(name string) bool { return len(o.Tables) == 0 || slices.Contains(o.Tables, name) }
	leftOut := func(ov compiler.Overrides) bool { return o.Dialect != "" && ov.Skipped(o.Dialect) }
	colNotes := map[string][]string{} // "table.column" -> omitted decisions
	for _, dec := range o.Decisions {
		if dec.Kind != dialects.Omitted || !want(dec.Object.Table) || byModel(dec, o.Dialect) {
			continue // objects the model skips are marked in the diagram itself
		}
		if dec.Object.Kind == compiler.KindColumn {
			name := dec.Object.Name
			colNotes[dec.Object.Table+"."+name] = append(colNotes[dec.Object.Table+"."+name], dec.Text)
			continue
		}
		d.notes = append(d.notes, fmt.Sprintf("%s %s: %s", dec.Object.Table, dialects.ObjectLabel(dec.Object), dec.Text))
	}
	for _, t := range s.Tables {
		if !want(t.Name) {
			continue
		}
		tbl := table{name: t.Name, leftOut: leftOut(t.Overrides)}
		unique := map[string]bool{}
		for _, u := range t.Uniques {
			if len(u.Columns) == 1 {
				unique[u.Columns[0]] = true
			}
		}
		for _, idx := range t.Indexes {
			if idx.Unique && idx.Where == nil && len(idx.Parts) == 1 && idx.Parts[0].Expr == nil && !leftOut(idx.Overrides) {
				unique[idx.Parts[0].Column] = true
			}
		}
		fkCols := map[string]bool{}
		for _, fk := range t.ForeignKeys {
			for _, c := range fk.Columns {
				fkCols[c] = true
			}
		}
		for _, c := range t.Columns {
			col := column{name: c.Name, typ: c.Type.String()}
			if e := c.Type.Enum; c.Type.Kind == compiler.TypeEnum && e != nil {
				col.typ = e.Name
				col.notes = append(col.notes, "enum: "+strings.Join(e.Values, ", "))
			}
			if t.PrimaryKey != nil && slices.Contains(t.PrimaryKey.Columns, c.Name) {
				col.keys = append(col.keys, "PK")
			}
			if fkCols[c.Name] {
				col.keys = append(col.keys, "FK")
			}
			if unique[c.Name] {
				col.keys = append(col.keys, "UK")
			}
			if c.Null {
				col.notes = append(col.notes, "null")
			}
			if c.Generated != nil {
				col.notes = append(col.notes, "generated")
			}
			if c.OnUpdate {
				col.notes = append(col.notes, "on update")
			}
			switch {
			case tbl.leftOut:
				col.notes = append(col.notes, "table not in "+o.Dialect)
			case leftOut(c.Overrides):
				col.notes = append(col.notes, "not in "+o.Dialect)
			}
			col.notes = append(col.notes, colNotes[t.Name+"."+c.Name]...)
			tbl.columns = append(tbl.columns, col)
		}
		d.tables = append(d.tables, tbl)
		for _, fk := range t.ForeignKeys {
			ref := s.Table(fk.RefTable)
			if ref == nil || !want(ref.Name) {
				continue
			}
			r := relation{parent: fk.RefTable, child: t.Name, name: fk.Name, leftOut: tbl.leftOut || leftOut(ref.Overrides)}
			for _, c := range fk.Columns {
				if col := t.Column(c); col != nil && col.Null {
					r.optional = true
				}
			}
			r.one = t.PrimaryKey != nil && sameSet(t.PrimaryKey.Columns, fk.Columns) || len(fk.Columns) == 1 && unique[fk.Columns[0]]
			for _, u := range t.Uniques {
				r.one = r.one || sameSet(u.Columns, fk.Columns)
			}
			d.relations = append(d.relations, r)
		}
	}
	return d
}

// byModel reports the decisions that record an object the model skips.
func byModel(d dialects.Decision, dialect string) bool {
	return strings.Contains(d.Text, "left out of "+dialect+" by the model")
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

var mermaidWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
var mermaidType = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_()-]*$`)

func mermaidName(n string) string {
	if mermaidWord.MatchString(n) {
		return n
	}
	return `"` + strings.ReplaceAll(n, `"`, "'") + `"`
}

// Mermaid renders the diagram as a Mermaid erDiagram.
func Mermaid(s *compiler.Schema, o Options) string {
	d := build(s, o)
	var b strings.Builder
	b.WriteString("erDiagram\n")
	for _, t := range d.tables {
		fmt.Fprintf(&b, "  %s {\n", mermaidName(t.name))
		for _, c := range t.columns {
			typ, notes := c.typ, c.notes
			switch {
			case mermaidType.MatchString(typ):
			case strings.IndexByte(typ, '(') > 0:
				// decimal(12,2): Mermaid types take no commas; the comment has it.
				typ, notes = typ[:strings.IndexByte(typ, '(')], append([]string{c.typ}, notes...)
			default:
				// An enum's name that Mermaid does not take as a type.
				typ, notes = "enum", append([]string{c.typ}, notes...)
			}
			fmt.Fprintf(&b, "    %s %s", typ, mermaidName(c.name))
			if len(c.keys) > 0 {
				b.WriteString(" " + strings.Join(c.keys, ", "))
			}
			if len(notes) > 0 {
				fmt.Fprintf(&b, " %q", strings.ReplaceAll(strings.Join(notes, "; "), `"`, "'"))
			}
			b.WriteString("\n")
		}
		b.WriteString("  }\n")
	}
	for _, r := range d.relations {
		parent, child, line, label := "||", "o{", "--", r.name
		if r.optional {
			parent = "|o"
		}
		if r.one {
			child = "o|"
		}
		if r.leftOut {
			line, label = "..", r.name+" (not in "+o.Dialect+")"
		}
		fmt.Fprintf(&b, "  %s %s%s%s %s : %q\n", mermaidName(r.parent), parent, line, child, mermaidName(r.child), label)
	}
	for _, n := range d.notes {
		fmt.Fprintf(&b, "  %%%% %s leaves out %s\n", o.Dialect, n)
	}
	return b.String()
}

func dotEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// Dot renders the diagram in Graphviz DOT, one record-like node a table.
func Dot(s *compiler.Schema, o Options) string {
	d := build(s, o)
	var b strings.Builder
	b.WriteString("digraph schema {\n  rankdir=LR;\n  node [shape=plaintext, fontname=\"Helvetica\"];\n  edge [arrowhead=none, arrowtail=crow, dir=both];\n")
	for _, t := range d.tables {
		head := dotEscape(t.name)
		if t.leftOut {
			head += " (not in " + dotEscape(o.Dialect) + ")"
		}
		fmt.Fprintf(&b, "  %q [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\">\n    <tr><td bgcolor=\"lightgrey\"><b>%s</b></td></tr>\n", t.name, head)
		for _, c := range t.columns {
			text := dotEscape(c.name + " " + c.typ)
			if len(c.keys) > 0 {
				text += " <b>" + strings.Join(c.keys, ", ") + "</b>"
			}
			if len(c.notes) > 0 {
				text += " <i>" + dotEscape(strings.Join(c.notes, "; ")) + "</i>"
			}
			fmt.Fprintf(&b, "    <tr><td port=%q align=\"left\">%s</td></tr>\n", c.name, text)
		}
		b.WriteString("  </table>>];\n")
	}
	for _, r := range d.relations {
		attrs := fmt.Sprintf("label=%q", r.name)
		if r.optional {
			attrs += ", arrowhead=odot"
		} else {
			attrs += ", arrowhead=tee"
		}
		if r.one {
			attrs += ", arrowtail=teeodot"
		}
		if r.leftOut {
			attrs = fmt.Sprintf("label=%q, style=dashed", r.name+" (not in "+o.Dialect+")")
		}
		fmt.Fprintf(&b, "  %q -> %q [%s];\n", r.child, r.parent, attrs)
	}
	for _, n := range d.notes {
		fmt.Fprintf(&b, "  // %s leaves out %s\n", o.Dialect, n)
	}
	b.WriteString("}\n")
	return b.String()
}

// LeftOut lists, for one dialect, the tables and columns the model leaves
// out of it and the features the dialect drops, one line each.
func LeftOut(s *compiler.Schema, dialect string, decisions []dialects.Decision) []string {
	var out []string
	for _, t := range s.Tables {
		if t.Overrides.Skipped(dialect) {
			out = append(out, fmt.Sprintf("table %s", t.Name))
			continue
		}
		for _, c := range t.Columns {
			if c.Overrides.Skipped(dialect) {
				out = append(out, fmt.Sprintf("column %s.%s", t.Name, c.Name))
			}
		}
		for _, idx := range t.Indexes {
			if idx.Overrides.Skipped(dialect) {
				out = append(out, fmt.Sprintf("index %s on %s", idx.Name, t.Name))
			}
		}
		for _, c := range t.Checks {
			if c.Overrides.Skipped(dialect) {
				out = append(out, fmt.Sprintf("check %s on %s", c.Name, t.Name))
			}
		}
	}
	for _, g := range dialects.Grouped(decisions) {
		if g.Kind != dialects.Omitted || byModel(dialects.Decision{Text: g.Text}, dialect) {
			continue
		}
		objects := make([]string, len(g.Objects))
		for i, o := range g.Objects {
			objects[i] = dialects.ObjectLabel(o)
		}
		out = append(out, fmt.Sprintf("%s %s: %s", g.Table, strings.Join(objects, ", "), g.Text))
	}
	return out
}

// Markdown is the document `schemagen erd --out` writes and `schemagen check`
// keeps current: the whole model as a Mermaid diagram, then what each dialect
// leaves out. leftOut maps dialect names to LeftOut's lines.
func Markdown(s *compiler.Schema, dialectNames []string, leftOut map[string][]string) string {
	src := strings.Join(s.SourceNames(), ", ")
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- Generated from %s by `schemagen erd --out`. Do not edit: `schemagen generate` rewrites it and `schemagen check` fails when it is stale. -->\n\n", src)
	fmt.Fprintf(&b, "# Schema diagram\n\nThe tables, keys and foreign keys of %s (%d tables). `PK`, `FK` and `UK` mark primary key, foreign key and unique columns; a foreign key drawn from `|o` may be null.\n\n", src, len(s.Tables))
	b.WriteString("```mermaid\n")
	b.WriteString(Mermaid(s, Options{}))
	b.WriteString("```\n\n## What each dialect leaves out\n\n`schemagen erd --dialect NAME` draws the diagram for one dialect, with these marked.\n\n")
	for _, d := range dialectNames {
		lines := leftOut[d]
		if len(lines) == 0 {
			fmt.Fprintf(&b, "- **%s**: nothing.\n", d)
			continue
		}
		fmt.Fprintf(&b, "- **%s**:\n", d)
		for _, l := range lines {
			fmt.Fprintf(&b, "  - %s\n", strings.ReplaceAll(l, "|", `\|`))
		}
	}
	return b.String()
}
