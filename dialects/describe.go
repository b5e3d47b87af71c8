package dialects

// Describer prints what drift finds different in a database of the dialect,
// so that shared code holds no SQL text.
type Describer interface {
	// Describe prints an inspected object (Atlas's *schema.Table, Column,
	// Index, ForeignKey or Check; a primary key is an Index) as a finding
	// shows it: its definition in this dialect's words, without its name.
	Describe(obj any) string
}
