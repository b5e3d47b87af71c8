package compiler

import "github.com/hashicorp/hcl/v2"

// ObjectKind is a kind of named object of the model, as messages name it.
type ObjectKind string

// The kinds of named objects.
const (
	KindTable      ObjectKind = "table"
	KindColumn     ObjectKind = "column"
	KindIndex      ObjectKind = "index"
	KindUnique     ObjectKind = "unique constraint"
	KindCheck      ObjectKind = "check"
	KindForeignKey ObjectKind = "foreign key"
	// KindRaw is a raw statement of the model.
	KindRaw ObjectKind = "raw"
	// KindExtension is an extension of the model.
	KindExtension ObjectKind = "extension"
	// KindEnum is an enum type of the model.
	KindEnum ObjectKind = "enum"
	// KindDefault and KindIdentity are a column's default and identity,
	// named by the column's name.
	KindDefault  ObjectKind = "default"
	KindIdentity ObjectKind = "identity"
)

// ObjectRef names an object of the model: what a diagnostic, a decision,
// a name rule or an import note is about. Diagnostics carry it in
// hcl.Diagnostic.Extra, so that a tool can act on the object (leave it out
// of a dialect) without reading the text.
type ObjectRef struct {
	// Table is the object's table, or the table itself; "" for an enum.
	Table string
	Kind  ObjectKind
	// Name is the object's name in the model; a table's is "" or its
	// name.
	Name string
}

func (r ObjectRef) String() string {
	switch r.Kind {
	case KindTable:
		return "table " + r.Table
	case KindDefault, KindIdentity:
		return "the " + string(r.Kind) + " of column " + r.Name + " of " + r.Table
	case KindEnum:
		return "enum " + r.Name
	}
	return string(r.Kind) + " " + r.Name + " of " + r.Table
}

// Ref names t's object of kind k named name; Ref(KindTable, "") is t
// itself.
func (t *Table) Ref(k ObjectKind, name string) ObjectRef {
	return ObjectRef{Table: t.Name, Kind: k, Name: name}
}

// RefOf returns the object d is about, when its producer said.
func RefOf(d *hcl.Diagnostic) (ObjectRef, bool) {
	return hcl.DiagnosticExtra[ObjectRef](d)
}

// NameScope is a set of object kinds whose names must differ from each
// other within one schema (database) or, PerTable, within one table.
type NameScope struct {
	Kinds    []ObjectKind
	PerTable bool
	// Why is the rule, for messages.
	Why string
}

// Has reports whether kind k is in the scope.
func (ns NameScope) Has(k ObjectKind) bool {
	for _, x := range ns.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// NameScopes are the model's own name scopes, which Validate enforces for
// every dialect. Tables, unique constraints and indexes share one, as
// PostgreSQL names these relations per schema; checks and foreign keys are
// named per table, as both databases do, so that the names they make up for
// unnamed ones (TiDB's fk_1) can be kept. A dialect's rules add the scopes
// of its database (dialects.Rules.Namespaces).
var NameScopes = []NameScope{
	{Kinds: []ObjectKind{KindTable, KindIndex, KindUnique}, Why: "table, unique constraint and index names must be unique in the schema"},
	{Kinds: []ObjectKind{KindCheck, KindForeignKey, KindUnique}, PerTable: true, Why: "constraint names must be unique in their table"},
	{Kinds: []ObjectKind{KindColumn}, PerTable: true, Why: "column names must be unique in their table"},
}
