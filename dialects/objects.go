package dialects

import (
	"context"

	"ariga.io/atlas/sql/schema"
)

// Objects are what a database holds beside its tables that the model
// declares and Atlas's inspection leaves out: extensions, and the views raw
// statements create. Migrations, drift and import read them through the
// dialect (ObjectDialect).
type Objects struct {
	// Extensions are the installed extensions the model may declare,
	// sorted (the database's own, such as PostgreSQL's plpgsql, left out).
	Extensions []string
	// Views are the views by name, each with its definition as the
	// database prints it: two databases given one statement print the same.
	Views map[string]string
	// ViewReads lists, by view, the tables and views it reads, where the
	// database refuses to change them under it (PostgreSQL); nil where it
	// does not (TiDB).
	ViewReads map[string][]string
	// ViewCalls lists, by view, the functions of the database's own that it
	// calls (not the system's or an extension's), which the model cannot
	// hold: import leaves such views out.
	ViewCalls map[string][]string
	// Triggers are the triggers whose function has their name, which is
	// what schemagen writes (PostgreSQL's on_update), by name.
	Triggers map[string]Trigger
}

// Trigger is a trigger and its function: its table and its definition as
// the database prints it (when it fires, and the function's body), without
// schema names, so that two databases given one statement print the same.
type Trigger struct {
	Table, Def string
}

// TriggerDialect is implemented by dialects whose model writes triggers
// (Objects.Triggers).
type TriggerDialect interface {
	// DropTrigger drops trigger name of table and its function.
	DropTrigger(table, name string) []string
}

// ObjectDialect is implemented by dialects whose databases hold Objects.
type ObjectDialect interface {
	// ReadObjects reads the objects of the database (schema) conn uses. It
	// only reads.
	ReadObjects(ctx context.Context, conn schema.ExecQuerier) (*Objects, error)
	// CreatedView returns the name, as Objects.Views keys it, of the view a
	// raw statement creates, and false for a statement that creates none.
	CreatedView(stmt string) (string, bool)
	// DropView drops a view of Objects.Views; CreateView creates one from
	// its definition there (import).
	DropView(name string) string
	CreateView(name, definition string) string
	// CreateExtension creates an extension where it is missing;
	// DropExtension drops one.
	CreateExtension(name string) string
	DropExtension(name string) string
}

// RawObject is an object of a database that the model has no construct for
// (a sequence, a function, a trigger) and that import keeps as a raw block
// of its dialect, with the statement that creates it.
type RawObject struct {
	// Kind is what it is, as a user names it ("sequence", "function",
	// "trigger"); Name is its name, with the table for a trigger
	// ("products.products_touch") and the arguments for a function.
	Kind, Name string
	// Tables are the tables it is for: a trigger's table, the tables whose
	// triggers call a function (none for a function nothing calls so).
	Tables []string
	SQL    string
	// Before: created before the tables (sequences their defaults use,
	// functions their triggers and defaults call); else after them.
	Before bool
	// Late: created after the views too (a trigger may be on a view).
	Late bool
}
