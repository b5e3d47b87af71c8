package dialects

import "ariga.io/atlas/sql/schema"

// Describer prints what drift finds different in a database of the dialect,
// so that shared code holds no SQL text.
type Describer interface {
	// Describe prints an inspected object (Atlas's *schema.Table, Column,
	// Index, ForeignKey or Check; a primary key is an Index) as a finding
	// shows it: its definition in this dialect's words, without its name.
	Describe(obj any) string
}

// IndexChange is a change a dialect's differ adds for an index option
// Atlas does not diff (PostgreSQL's storage parameters, TiDB's visibility):
// drift reports it as the index changed.
type IndexChange interface {
	IndexChange() (from, to *schema.Index)
}
