package sqltext

import (
	"strings"

	"github.com/schemagen/schemagen/dialects"
)

// Script is a lowered schema: SQL fragments in the order they are written.
// Dialects fill it; Write renders it the same way for every dialect.
type Script struct {
	Header string
	// Extensions create the model's extensions, first of all.
	Extensions []Raw
	// Types create the model's enum types, after the extensions.
	Types  []Raw
	Before []Raw
	Tables []*Table
	// Deferred foreign keys close cycles; they are added after all tables.
	Deferred []*Deferred
	After    []Raw
	// Renames are what the model renames (renamed_from).
	Renames []dialects.Rename
}

// Raw is a statement taken as written from the model.
type Raw struct {
	Name string
	SQL  string
}

// Table is a lowered table.
type Table struct {
	Name       string
	Notes      []string // comment lines on the lowering decisions
	Columns    []*Column
	PrimaryKey []string
	// PrimaryKeyName names the primary key constraint, "" for the
	// database's default name.
	PrimaryKeyName string
	// PrimaryKeyClause follows the primary key (TiDB's CLUSTERED).
	PrimaryKeyClause string
	Constraints      []Constraint
	Comment          string
	Indexes          []*Index
	// Options follow the table's definition (TiDB's AUTO_ID_CACHE = 1).
	Options []string
	// Partition follows the options and the comment: PARTITION BY ....
	Partition string
	// After are statements that follow the table's (a trigger).
	After []string
}

// Column is a lowered column.
type Column struct {
	Name    string
	Type    string
	NotNull bool
	Default string
	Comment string
	// Clause follows the column's default (an identity).
	Clause string
	// Generated is the clause that makes the column generated, after its
	// type (GENERATED ALWAYS AS (...) STORED); GeneratedExpr its expression.
	Generated, GeneratedExpr string
	// OnUpdate is the value an UPDATE sets the column to (ON UPDATE ...).
	OnUpdate string
	// Collation is what a string column compares with, where the DDL names
	// it (the column's or its table's); "" for the database's.
	Collation string
}

// ConstraintKind is what a table constraint is, in the order a table's
// constraints are written (and databases report them).
type ConstraintKind int

const (
	ConstraintUnique ConstraintKind = iota
	ConstraintCheck
	ConstraintForeignKey
)

// Constraint is a named table constraint; Body is its SQL after the name.
type Constraint struct {
	Name string
	Kind ConstraintKind
	Body string
	// Check is the expression of a CHECK constraint (see CheckConstraint).
	Check string
	// Ref is what a foreign key's Body says, in parts.
	Ref *dialects.Reference
}

// Index is a lowered index, or a raw statement when Raw is set.
type Index struct {
	Notes []string
	Raw   string
	// Of is the model's name of the index a raw statement creates (Name,
	// which orders the output, stays empty then), RawName its name in the
	// dialect.
	Of, RawName string
	Name        string
	Unique      bool
	Using       string
	Parts       []string
	// Exprs are the expressions of Parts, "" for a column part.
	Exprs []string
	Where string
	// Comment is the index's comment (COMMENT ON INDEX, or COMMENT in its
	// definition where indexes are inline).
	Comment string
	// Kind is a word before INDEX (TiDB's VECTOR), Clauses what the
	// dialect writes after the parts, before the predicate (INCLUDE, NULLS
	// NOT DISTINCT, WITH, INVISIBLE).
	Kind    string
	Clauses []string
}

// Deferred is a foreign key added by ALTER TABLE after all tables.
type Deferred struct {
	Table      string
	Constraint Constraint
}

// Style is how a dialect writes identifiers, strings and comments.
type Style struct {
	Ident  func(string) string
	String func(string) string
	// InlineComments puts comments in the table definition (TiDB) instead
	// of COMMENT ON statements (PostgreSQL).
	InlineComments bool
	// InlineIndexes declares indexes in CREATE TABLE (TiDB, where every DDL
	// statement is a slow job of its own) instead of CREATE INDEX statements.
	InlineIndexes bool
}

// List renders identifiers as a comma-separated list.
func (st Style) List(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = st.Ident(n)
	}
	return strings.Join(q, ", ")
}

// Write renders the script. The output depends only on the script, so the
// same model gives byte-identical files everywhere.
func (sc *Script) Write(st Style) []byte {
	var b strings.Builder
	b.Grow(sc.sizeHint())
	b.WriteString(sc.Header)
	for _, e := range sc.Extensions {
		b.WriteString("\n-- extension " + e.Name + " (from schema.hcl)\n" + e.SQL + ";\n")
	}
	for _, e := range sc.Types {
		b.WriteString("\n-- enum " + e.Name + " (from schema.hcl)\n" + e.SQL + ";\n")
	}
	for _, r := range sc.Before {
		writeRaw(&b, r)
	}
	for _, t := range sc.Tables {
		b.WriteString("\n")
		writeNotes(&b, t.Notes)
		b.WriteString(createTable(st, t))
		b.WriteString(";\n")
		if !st.InlineComments {
			if t.Comment != "" {
				b.WriteString("COMMENT ON TABLE " + st.Ident(t.Name) + " IS " + st.String(t.Comment) + ";\n")
			}
			for _, c := range t.Columns {
				if c.Comment != "" {
					b.WriteString("COMMENT ON COLUMN " + st.Ident(t.Name) + "." + st.Ident(c.Name) + " IS " + st.String(c.Comment) + ";\n")
				}
			}
		}
		for _, idx := range t.Indexes {
			writeNotes(&b, idx.Notes)
			switch {
			case idx.Raw != "":
				b.WriteString(strings.TrimRight(strings.TrimSpace(idx.Raw), ";") + ";\n")
			case !st.InlineIndexes:
				b.WriteString(createIndex(st, t.Name, idx) + ";\n")
			}
			if c := indexComment(st, t.Name, idx); c != "" {
				b.WriteString(c + ";\n")
			}
		}
		for _, stmt := range t.After {
			b.WriteString(strings.TrimRight(stmt, ";\n") + ";\n")
		}
	}
	if len(sc.Deferred) > 0 {
		b.WriteString("\n-- Foreign keys that close a cycle between tables, added once all exist.\n")
		for _, d := range sc.Deferred {
			b.WriteString("ALTER TABLE " + st.Ident(d.Table) + " ADD CONSTRAINT " + st.Ident(d.Constraint.Name) + " " + d.Constraint.Body + ";\n")
		}
	}
	for _, r := range sc.After {
		writeRaw(&b, r)
	}
	return []byte(b.String())
}

// createTable is a table's CREATE TABLE, without its semicolon.
func createTable(st Style, t *Table) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + st.Ident(t.Name) + " (\n")
	var lines []string
	for _, c := range t.Columns {
		lines = append(lines, "  "+columnDef(st, c))
	}
	if len(t.PrimaryKey) > 0 {
		line := "  PRIMARY KEY (" + st.List(t.PrimaryKey) + ")"
		if t.PrimaryKeyName != "" {
			line = "  CONSTRAINT " + st.Ident(t.PrimaryKeyName) + " PRIMARY KEY (" + st.List(t.PrimaryKey) + ")"
		}
		if t.PrimaryKeyClause != "" {
			line += " " + t.PrimaryKeyClause
		}
		lines = append(lines, line)
	}
	for _, c := range t.Constraints {
		lines = append(lines, "  CONSTRAINT "+st.Ident(c.Name)+" "+c.Body)
	}
	if st.InlineIndexes {
		for _, idx := range t.Indexes {
			if idx.Raw == "" {
				lines = append(lines, "  "+indexDef(st, idx))
			}
		}
	}
	b.WriteString(strings.Join(lines, ",\n"))
	b.WriteString("\n)")
	for _, o := range t.Options {
		b.WriteString(" " + o)
	}
	if t.Comment != "" && st.InlineComments {
		b.WriteString(" COMMENT = " + st.String(t.Comment))
	}
	if t.Partition != "" {
		b.WriteString("\n" + t.Partition)
	}
	return b.String()
}

// columnDef is a column's line in CREATE TABLE.
func columnDef(st Style, c *Column) string {
	line := st.Ident(c.Name) + " " + c.Type
	if c.Generated != "" {
		line += " " + c.Generated
	}
	if c.NotNull {
		line += " NOT NULL"
	}
	if c.Default != "" {
		line += " DEFAULT " + c.Default
	}
	if c.Clause != "" {
		line += " " + c.Clause
	}
	if c.OnUpdate != "" {
		line += " ON UPDATE " + c.OnUpdate
	}
	if c.Comment != "" && st.InlineComments {
		line += " COMMENT " + st.String(c.Comment)
	}
	return line
}

// indexDef is an index declared in CREATE TABLE, which takes no method or
// predicate (the dialects that inline indexes have neither).
func indexDef(st Style, idx *Index) string {
	kw := "INDEX "
	if idx.Unique {
		kw = "UNIQUE INDEX "
	}
	if idx.Kind != "" {
		kw = idx.Kind + " " + kw
	}
	def := kw + st.Ident(idx.Name) + " (" + strings.Join(idx.Parts, ", ") + ")"
	for _, c := range idx.Clauses {
		def += " " + c
	}
	if idx.Comment != "" {
		def += " COMMENT " + st.String(idx.Comment)
	}
	return def
}

// createIndex is the CREATE INDEX statement of an index that is not
// inline, without its semicolon.
func createIndex(st Style, table string, idx *Index) string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if idx.Unique {
		b.WriteString("UNIQUE ")
	}
	b.WriteString("INDEX " + st.Ident(idx.Name) + " ON " + st.Ident(table))
	if idx.Using != "" {
		b.WriteString(" USING " + idx.Using)
	}
	b.WriteString(" (" + strings.Join(idx.Parts, ", ") + ")")
	for _, c := range idx.Clauses {
		b.WriteString(" " + c)
	}
	if idx.Where != "" {
		b.WriteString(" WHERE " + idx.Where)
	}
	return b.String()
}

// indexComment is the COMMENT ON INDEX statement of an index's comment
// where comments are statements of their own, or "".
func indexComment(st Style, table string, idx *Index) string {
	if idx.Comment == "" || st.InlineComments {
		return ""
	}
	name := idx.Name
	if idx.Raw != "" {
		name = idx.RawName
	}
	return "COMMENT ON INDEX " + st.Ident(name) + " IS " + st.String(idx.Comment)
}

func writeNotes(b *strings.Builder, notes []string) {
	for _, n := range notes {
		b.WriteString("-- " + strings.ReplaceAll(n, "\n", " ") + "\n")
	}
}

func writeRaw(b *strings.Builder, r Raw) {
	b.WriteString("\n-- raw " + r.Name + " (from schema.hcl, not translated)\n")
	b.WriteString(trimStmt(r.SQL) + ";\n")
}

// sizeHint estimates the output's size, to write it without regrowing.
func (sc *Script) sizeHint() int {
	n := 1024
	for _, t := range sc.Tables {
		n += 64 + 40*len(t.Columns) + 64*len(t.Notes)
		for _, c := range t.Constraints {
			n += 32 + len(c.Name) + len(c.Body)
		}
		for _, idx := range t.Indexes {
			n += 64 + len(idx.Name) + len(idx.Where) + len(idx.Raw) + 24*len(idx.Parts)
		}
	}
	return n
}
