package export

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/schemagen/schemagen/compiler"
)

// tsTypes are the TypeScript types of a neutral type's values: as read
// (what drivers return by default, or the portable form where they differ)
// and as written in an INSERT or UPDATE.
var tsTypes = map[compiler.TypeKind][2]string{
	compiler.TypeUUID:      {"string", "string"},
	compiler.TypeText:      {"string", "string"},
	compiler.TypeVarchar:   {"string", "string"},
	compiler.TypeChar:      {"string", "string"},
	compiler.TypeSmallint:  {"number", "number"},
	compiler.TypeInt:       {"number", "number"},
	compiler.TypeBigint:    {"string", "string | number | bigint"},
	compiler.TypeBool:      {"boolean", "boolean"},
	compiler.TypeDouble:    {"number", "number"},
	compiler.TypeFloat:     {"number", "number"},
	compiler.TypeDecimal:   {"string", "string | number"},
	compiler.TypeTimestamp: {"Date", "Date | string"},
	compiler.TypeDatetime:  {"Date", "Date | string"},
	compiler.TypeDate:      {"Date", "Date | string"},
	compiler.TypeTime:      {"string", "string"},
	compiler.TypeJSON:      {"unknown", "JsonValue"},
	compiler.TypeBytes:     {"Uint8Array", "Uint8Array"},
	compiler.TypeVector:    {"string", "string"},
}

// TypeScript writes the document as one TypeScript module with no
// dependencies: the catalog as a const value, an enum's values as a union,
// and per table a row type for reading, one for inserting and one for
// query builders (Kysely's ColumnType, structurally), gathered in Database.
func TypeScript(s *compiler.Schema, doc *Document) []byte {
	return typeScript(s, doc, JSON(doc))
}

// typeScript is TypeScript with the document's JSON written already.
func typeScript(s *compiler.Schema, doc *Document, js []byte) []byte {
	var b strings.Builder
	b.Grow(len(js) + 512*len(s.Tables) + 4096)
	sources := strings.Join(doc.Sources, ", ")
	if sources == "" {
		sources = "schema.hcl"
	}
	fmt.Fprintf(&b, "// Generated from %s by schemagen export (format %s, version %d). Do not edit:\n", sources, Format, Version)
	b.WriteString("// change the schema and run `schemagen generate`. See docs/export.md.\n\n")
	fmt.Fprintf(&b, "/** The version of the export format (docs/export.md). */\nexport const formatVersion = %d;\n\n", Version)
	b.WriteString("/** The model and what each dialect renders of it: the JSON export, as a value. */\nexport const catalog = ")
	b.Write(js[:len(js)-1])
	b.WriteString(" as const;\n\nexport type Catalog = typeof catalog;\n\n")
	b.WriteString(`/** A JSON value, as a JSON column takes it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A column's types when selected, inserted and updated: Kysely's ColumnType,
 * which Kysely reads structurally. never: the column cannot be written.
 */
export type ColumnType<SelectType, InsertType = SelectType, UpdateType = SelectType> = {
  readonly __select__: SelectType;
  readonly __insert__: InsertType;
  readonly __update__: UpdateType;
};
`)
	names := newNamer()
	enumType := map[string]string{}
	for _, e := range s.Enums {
		n := names.take(pascal(e.Name), "")
		enumType[e.Name] = n
		fmt.Fprintf(&b, "\n/** enum %s */\nexport type %s = %s;\n", e.Name, n, union(e.Values))
	}
	type tableNames struct{ row, insert, table string }
	var tables []tableNames
	for _, t := range s.Tables {
		stem := names.take(pascal(t.Name), "Row", "Insert", "Table")
		tn := tableNames{stem + "Row", stem + "Insert", stem + "Table"}
		tables = append(tables, tn)
		doc := "table " + t.Name
		if t.Comment != "" {
			doc += ": " + t.Comment
		}
		var row, ins, tbl strings.Builder
		for _, c := range t.Columns {
			sel, in := columnTypes(c, enumType)
			key := propKey(c.Name)
			comment := ""
			if c.Comment != "" {
				comment = "  /** " + docText(c.Comment) + " */\n"
			}
			row.WriteString(comment + "  " + key + ": " + sel + ";\n")
			switch {
			case c.Generated != nil:
				tbl.WriteString(comment + "  " + key + ": ColumnType<" + sel + ", never, never>;\n")
			case optionalOnInsert(c):
				ins.WriteString(comment + "  " + key + "?: " + in + ";\n")
				tbl.WriteString(comment + "  " + key + ": ColumnType<" + sel + ", " + in + " | undefined, " + in + ">;\n")
			default:
				ins.WriteString(comment + "  " + key + ": " + in + ";\n")
				tbl.WriteString(comment + "  " + key + ": ColumnType<" + sel + ", " + in + ", " + in + ">;\n")
			}
		}
		fmt.Fprintf(&b, "\n/** A row of %s, as read. */\nexport interface %s {\n%s}\n", docText(doc), tn.row, row.String())
		fmt.Fprintf(&b, "\n/** A row of table %s, as inserted: what has a default, an identity or may be NULL is optional; generated columns are left out. */\nexport interface %s {\n%s}\n", docText(t.Name), tn.insert, ins.String())
		fmt.Fprintf(&b, "\n/** Table %s for query builders (Kysely). */\nexport interface %s {\n%s}\n", docText(t.Name), tn.table, tbl.String())
	}
	b.WriteString("\n/** Every table, by name: the database type Kysely takes (new Kysely<Database>(...)). */\nexport interface Database {\n")
	for i, t := range s.Tables {
		b.WriteString("  " + propKey(t.Name) + ": " + tables[i].table + ";\n")
	}
	b.WriteString("}\n\nexport type TableName = keyof Database;\n")
	return []byte(b.String())
}

// optionalOnInsert: the database gives the column a value when an INSERT
// leaves it out.
func optionalOnInsert(c *compiler.Column) bool {
	return c.Null || c.Default != nil || c.Identity != nil
}

// columnTypes are a column's TypeScript types as read and as written.
func columnTypes(c *compiler.Column, enums map[string]string) (string, string) {
	var sel, in string
	if c.Type.Kind == compiler.TypeEnum && c.Type.Enum != nil {
		sel = enums[c.Type.Enum.Name]
		in = sel
	} else {
		t := tsTypes[c.Type.Kind]
		sel, in = t[0], t[1]
	}
	if c.Null {
		sel, in = sel+" | null", in+" | null"
	}
	return sel, in
}

// namer hands out TypeScript names that no other name of the module has.
type namer map[string]bool

func newNamer() namer {
	return namer{"formatVersion": true, "catalog": true, "Catalog": true, "JsonValue": true, "ColumnType": true, "Database": true, "TableName": true}
}

// take returns stem, or stem with a number, such that stem followed by each
// suffix is a new name, and takes those names.
func (n namer) take(stem string, suffixes ...string) string {
	if len(suffixes) == 0 {
		suffixes = []string{""}
	}
	try := stem
	for i := 2; ; i++ {
		free := true
		for _, s := range suffixes {
			free = free && !n[try+s]
		}
		if free {
			break
		}
		try = fmt.Sprintf("%s%d", stem, i)
	}
	for _, s := range suffixes {
		n[try+s] = true
	}
	return try
}

// pascal makes a TypeScript type name of a model's name: knowledge_spaces
// is KnowledgeSpaces.
func pascal(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" || unicode.IsDigit([]rune(s)[0]) {
		s = "T" + s
	}
	return s
}

// propKey is a property name: bare when it is an identifier, else quoted.
func propKey(name string) string {
	ident := name != ""
	for i, r := range name {
		ident = ident && (r == '_' || r == '$' || r < 128 && unicode.IsLetter(r) || i > 0 && r < 128 && unicode.IsDigit(r))
	}
	if ident {
		return name
	}
	return jsonString(name)
}

func union(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = jsonString(v)
	}
	return strings.Join(q, " | ")
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// docText is text that can stand in a doc comment.
func docText(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "*/", "*\\/"), "\n", " ")
}
