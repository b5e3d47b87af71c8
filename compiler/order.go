package compiler

// Order returns the tables in an order in which every foreign key's target is
// created before it, keeping the model's order where it can, and the foreign
// keys that close a cycle: those must be added after all tables.
func (s *Schema) Order() (tables []*Table, deferred map[*ForeignKey]bool) {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[*Table]int{}
	deferred = map[*ForeignKey]bool{}
	var visit func(t *Table)
	visit = func(t *Table) {
		state[t] = visiting
		for _, fk := range t.ForeignKeys {
			ref := s.Table(fk.RefTable)
			if ref == nil || ref == t {
				continue
			}
			switch state[ref] {
			case unvisited:
				visit(ref)
			case visiting:
				deferred[fk] = true
			}
		}
		state[t] = done
		tables = append(tables, t)
	}
	for _, t := range s.Tables {
		if state[t] == unvisited {
			visit(t)
		}
	}
	return tables, deferred
}
