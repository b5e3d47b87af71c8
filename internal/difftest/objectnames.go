package difftest

import "slices"

// ObjectNames are the names of t's indexes, unique constraints, CHECKs and
// foreign keys, sorted.
func (t *Table) ObjectNames() []string {
	var out []string
	for _, x := range t.Indexes {
		out = append(out, x.Name)
	}
	for _, x := range t.Uniques {
		out = append(out, x.Name)
	}
	for _, x := range t.Checks {
		out = append(out, x.Name)
	}
	for _, x := range t.FKs {
		out = append(out, x.Name)
	}
	slices.Sort(out)
	return out
}

// RenameObjects gives t's indexes, unique constraints, CHECKs and foreign
// keys the names of renames (by their old names).
func (t *Table) RenameObjects(renames map[string]string) {
	name := func(s *string) {
		if n, ok := renames[*s]; ok {
			*s = n
		}
	}
	for i := range t.Indexes {
		name(&t.Indexes[i].Name)
	}
	for i := range t.Uniques {
		name(&t.Uniques[i].Name)
	}
	for i := range t.Checks {
		name(&t.Checks[i].Name)
	}
	for i := range t.FKs {
		name(&t.FKs[i].Name)
	}
}
