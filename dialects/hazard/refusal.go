package hazard

import "fmt"

// Refusal is a change of the model that migrate diff does not plan for a
// database, because no migration file could make it there: it names the
// change and says what to write instead. Planners return it (wrapped or
// not); callers recognise it with errors.As, never by its text.
type Refusal struct {
	// Database is the database's display name ("TiDB").
	Database string
	// Table is the table changed ("" for a change of no table, as an
	// enum type's), Change the change as the user wrote it
	// ("adding the STORED generated column \"total\"").
	Table, Change string
	// Reason says why the database cannot make it; Instead what to write.
	Reason, Instead string
}

func (r *Refusal) Error() string {
	if r.Table == "" {
		// A change of no one table (an enum type's).
		return fmt.Sprintf("%s: cannot plan %s: %s. %s", r.Database, r.Change, r.Reason, r.Instead)
	}
	return fmt.Sprintf("%s: cannot plan %s of table %q: %s. %s", r.Database, r.Change, r.Table, r.Reason, r.Instead)
}
