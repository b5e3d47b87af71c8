package histories

import (
	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/internal/corpora"
)

// Rules are the statement rules each script family's files are read by
// (the rules of the dialect whose database runs them), by family: the
// caller that maps families to databases gives them.
type Rules map[string]dialects.StmtRules

// Renames are what a stretch of a history renames, as a team adopting
// schemagen writes them in its model (renamed_from): import reads a
// database, not how it came to be, so a renamed column would otherwise be
// dropped and added with its rows lost.
type Renames struct {
	// Tables are the former names of renamed tables, by their new name.
	Tables map[string]string
	// Columns are the former names of renamed columns, by their table's
	// new name and their new name.
	Columns map[string]map[string]string
}

// ReadRenames reads the renames of the files of vs, in order, both
// families' (RENAME TABLE, ALTER TABLE ... RENAME [TO|AS|COLUMN],
// CHANGE), as rules read each family's statements (dialects.StmtRules):
// renames in a row compose (a to b, then b to c is a to c), a column
// follows its table's renames, and what ends under its first name again is
// no rename. A table renamed away and a new one made under its name are
// two tables (Authelia's rebuilds through a renamed backup).
func ReadRenames(vs []Version, rules Rules) (Renames, error) {
	out := Renames{Tables: map[string]string{}, Columns: map[string]map[string]string{}}
	for _, f := range corpora.Families {
		type table struct {
			first   string
			columns map[string]string // column's name now → its first name
		}
		tables := map[string]*table{} // by name now
		get := func(name string) *table {
			if tables[name] == nil {
				tables[name] = &table{first: name, columns: map[string]string{}}
			}
			return tables[name]
		}
		for _, v := range vs {
			stmts, err := v.Statements(f)
			if err != nil {
				return Renames{}, err
			}
			for _, s := range stmts {
				for _, r := range rules[f].LintStmt(s).Renames {
					switch {
					case r.FromColumn != "":
						t := get(r.ToTable)
						first, ok := t.columns[r.FromColumn]
						if !ok {
							first = r.FromColumn
						}
						delete(t.columns, r.FromColumn)
						t.columns[r.ToColumn] = first
					case r.FromTable != "" && r.ToTable != "":
						t := get(r.FromTable)
						delete(tables, r.FromTable)
						tables[r.ToTable] = t
					}
				}
			}
		}
		for name, t := range tables {
			if t.first != name {
				out.Tables[name] = t.first
			}
			for c, first := range t.columns {
				if first == c {
					continue
				}
				if out.Columns[name] == nil {
					out.Columns[name] = map[string]string{}
				}
				out.Columns[name][c] = first
			}
		}
	}
	return out, nil
}

// RenamedFrom writes r into s as renamed_from, on the tables and columns
// s has by their new names, and returns how many it wrote. A rename whose
// former name a directory no longer has is left alone by migrate diff, so
// the attribute is safe on a model whose database never had that name. A
// rename whose former name s has again (a table renamed to a backup and
// made anew under its name, as Authelia rebuilds its tables) is not
// written: the object under the old name is the one that goes on, which a
// team keeps in place rather than moving its rows to the backup.
func RenamedFrom(s *compiler.Schema, r Renames) int {
	n := 0
	for _, t := range s.Tables {
		if from, ok := r.Tables[t.Name]; ok && s.Table(from) == nil {
			t.RenamedFrom = from
			n++
		}
		for _, c := range t.Columns {
			if from, ok := r.Columns[t.Name][c.Name]; ok && t.Column(from) == nil {
				c.RenamedFrom = from
				n++
			}
		}
	}
	return n
}
