package compiler

// Unbounded is the cascade depth of a foreign key that a cycle of cascading
// keys reaches: how deep one statement cascades then depends on the rows.
const Unbounded = -1

// CascadeDepths gives each foreign key that cascades or sets NULL on
// delete, among those kept says are present (nil: all), the most levels of
// rows one DELETE of another table's row can cascade through to reach it,
// counting its own: 1 for a key whose referenced table no cascading key
// reaches. A key that a cycle reaches (a table that references itself, or
// tables that reference each other) gets Unbounded. ON DELETE CASCADE
// carries the delete on to the next table's keys; SET NULL ends the chain at
// its table. ON UPDATE actions are not followed: an update cascades on only
// through keys over the columns it sets, which a table-level chain would
// overstate. One pass over the keys: each table's depth is computed once.
func CascadeDepths(s *Schema, kept func(*Table, *ForeignKey) bool) map[*ForeignKey]int {
	type edge struct {
		parent    *Table
		propagate bool
	}
	in := map[*Table][]edge{}
	out := map[*ForeignKey]*Table{}
	for _, t := range s.Tables {
		for _, fk := range t.ForeignKeys {
			if kept != nil && !kept(t, fk) {
				continue
			}
			cascade := fk.OnDelete == Cascade
			if !cascade && fk.OnDelete != SetNull {
				continue
			}
			p := s.Table(fk.RefTable)
			if p == nil {
				continue
			}
			out[fk] = p
			if cascade {
				in[t] = append(in[t], edge{p, true})
			}
		}
	}
	// level is how many cascading levels reach a table's rows: 0 for a
	// table no CASCADE key reaches.
	const visiting = -2
	level := map[*Table]int{}
	var visit func(t *Table) int
	visit = func(t *Table) int {
		if l, ok := level[t]; ok {
			if l == visiting {
				return Unbounded
			}
			return l
		}
		level[t] = visiting
		l := 0
		for _, e := range in[t] {
			pl := visit(e.parent)
			if pl == Unbounded {
				l = Unbounded
				break
			}
			l = max(l, pl+1)
		}
		level[t] = l
		return l
	}
	depths := make(map[*ForeignKey]int, len(out))
	for fk, p := range out {
		if l := visit(p); l == Unbounded {
			depths[fk] = Unbounded
		} else {
			depths[fk] = l + 1
		}
	}
	return depths
}
