package compiler

import (
	"slices"
	"strings"
)

// Order returns the tables in an order in which every foreign key's target is
// created before it, by name where the keys leave a choice, and the foreign
// keys that close a cycle or reference their own table's unique index: those
// must be added after all tables. The order
// depends only on the tables, not on where the model declares them, so that a
// model read back from a database generates the same files.
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
		fks := slices.Clone(t.ForeignKeys)
		slices.SortStableFunc(fks, func(a, b *ForeignKey) int { return strings.Compare(a.RefTable, b.RefTable) })
		for _, fk := range fks {
			ref := s.Table(fk.RefTable)
			if ref == t && !inlineKey(t, fk.RefColumns) {
				// A table's own unique index exists only after its CREATE
				// TABLE, so a key to it cannot be part of that statement.
				deferred[fk] = true
			}
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
	byName := slices.Clone(s.Tables)
	slices.SortStableFunc(byName, func(a, b *Table) int { return strings.Compare(a.Name, b.Name) })
	for _, t := range byName {
		if state[t] == unvisited {
			visit(t)
		}
	}
	return tables, deferred
}

// inlineKey reports whether t's primary key or one of its unique
// constraints, which CREATE TABLE makes, is over exactly cols.
func inlineKey(t *Table, cols []string) bool {
	if t.PrimaryKey != nil && sameColumns(t.PrimaryKey.Columns, cols) {
		return true
	}
	for _, u := range t.Uniques {
		if sameColumns(u.Columns, cols) {
			return true
		}
	}
	return false
}

// sameColumns reports whether a and b hold the same columns, in any order.
func sameColumns(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, c := range b {
		if !slices.Contains(a, c) {
			return false
		}
	}
	return true
}

// Referencable reports whether cols (in any order) are the primary key, a
// unique constraint or a full unique index on plain columns of t.
func (t *Table) Referencable(cols []string) bool {
	if inlineKey(t, cols) {
		return true
	}
	for _, idx := range t.Indexes {
		if !idx.Unique || idx.Where != nil {
			continue
		}
		var names []string
		for _, p := range idx.Parts {
			if p.Expr != nil {
				names = nil
				break
			}
			names = append(names, p.Column)
		}
		if names != nil && sameColumns(names, cols) {
			return true
		}
	}
	return false
}
