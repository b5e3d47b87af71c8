package hazard

import (
	"container/heap"
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"
)

// This file is the one place that knows what each planned change needs to
// exist first, or to be gone first, on every dialect:
//
//   - a foreign key needs the key it references (a unique index or primary
//     key added in the same plan, on any table), its columns and the
//     columns it references (added, or renamed to those names);
//   - an index a kept foreign key uses (its columns start the index's) is
//     dropped only after the index that replaces it is added (TiDB refuses
//     with 1553 otherwise);
//   - a key, index or table is dropped only after the foreign keys that
//     reference or use it, and a key that kept foreign keys reference only
//     after the key that replaces it is added; a foreign key to the
//     columns of a key the plan drops is added after the drop;
//   - within a table, foreign keys are dropped first, then indexes and
//     CHECKs, before the columns they cover; a generated column is dropped
//     before the columns it is computed from; columns are added, renamed
//     and changed before the constraints over them (a CHECK over a column
//     whose type changes reads the new type).
//
// Changes start in the base order (Atlas's order of tables, and the rule
// above within one) and move only where a dependency says so.

// unit is one change of a plan: a change of an existing table, which the
// dialect plans, or the statements Atlas planned for one other change (a
// table created or dropped).
type unit struct {
	pos   int
	table *schema.Table // the changed table, for a table change
	c     schema.Change
	// atlas holds Atlas's statements for a change that is not a table's.
	atlas []Stmt
	src   schema.Change
}

// facts are the dependencies of a unit as tokens: provides and needs
// (a provider of a needed token goes first), releases and waits (a
// releaser of a waited token goes first).
type facts struct {
	provides, needs, releases, waits []string
}

func colNames(cols []*schema.Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// indexCols is the index's columns, false when a part is an expression.
func indexCols(i *schema.Index) ([]string, bool) {
	var out []string
	for _, p := range i.Parts {
		if p.C == nil {
			return out, false
		}
		out = append(out, p.C.Name)
	}
	return out, true
}

// keyToken names a key (a set of columns with unique values) of a table.
func keyToken(table string, cols []string) string {
	s := slices.Clone(cols)
	slices.Sort(s)
	return "key\x00" + table + "\x00" + strings.Join(s, "\x00")
}

// prefixToken names an index whose columns start with cols.
func prefixToken(table string, cols []string) string {
	return "prefix\x00" + table + "\x00" + strings.Join(cols, "\x00")
}

// refToken names the foreign keys referencing a key.
func refToken(table string, cols []string) string { return "ref" + keyToken(table, cols)[3:] }

// usesToken names the foreign keys of a table over columns starting an index.
func usesToken(table string, cols []string) string { return "uses" + prefixToken(table, cols)[6:] }

// goneToken names a key over cols that the plan drops: a foreign key to
// those columns is added after it is gone, so that the database binds the
// key to the one that stays (PostgreSQL's foreign keys depend on the index
// they were created with).
func goneToken(table string, cols []string) string { return "gone" + keyToken(table, cols)[3:] }

func colToken(table, col string) string { return "col\x00" + table + "\x00" + col }

// genToken: a generated column computed from col of table is dropped.
func genToken(table, col string) string { return "gen\x00" + table + "\x00" + strings.ToLower(col) }

// identWords are the words of an expression that may name a column, in
// lower case (quotes dropped; a word of a string literal too, which only
// releases a token nothing waits for).
func identWords(x string) []string {
	return strings.FieldsFunc(strings.ToLower(x), func(r rune) bool {
		return !(r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 0x80)
	})
}

// indexProvides: an index provides its prefixes and, unique, its key.
func indexProvides(f *facts, table string, i *schema.Index, primary bool) {
	cols, plain := indexCols(i)
	for k := 1; k <= len(cols); k++ {
		f.provides = append(f.provides, prefixToken(table, cols[:k]))
	}
	if plain && (i.Unique || primary) {
		f.provides = append(f.provides, keyToken(table, cols))
	}
}

// indexWaits: an index goes after the foreign keys that reference it or
// use it are dropped, and after the replacements of those it serves that
// stay (fks: the table's foreign keys after the plan; t: the table after
// the plan, whose schema's foreign keys that still reference the index's
// key need its replacement first).
func indexWaits(f *facts, t *schema.Table, i *schema.Index, primary bool, fks []*schema.ForeignKey) {
	table := t.Name
	cols, plain := indexCols(i)
	if plain {
		f.waits = append(f.waits, refToken(table, cols))
		if i.Unique || primary {
			f.releases = append(f.releases, goneToken(table, cols))
			if referencedAfter(t, cols) {
				f.needs = append(f.needs, keyToken(table, cols))
			}
		}
	}
	for k := 1; k <= len(cols); k++ {
		f.waits = append(f.waits, usesToken(table, cols[:k]))
	}
	for _, fk := range fks {
		fc := colNames(fk.Columns)
		if len(fc) <= len(cols) && slices.Equal(fc, cols[:len(fc)]) {
			f.needs = append(f.needs, prefixToken(table, fc))
		}
	}
}

// referencedAfter reports whether a foreign key of t's schema (after the
// plan) references cols of t, in any order.
func referencedAfter(t *schema.Table, cols []string) bool {
	if t.Schema == nil {
		return false
	}
	key := keyToken(t.Name, cols)
	for _, o := range t.Schema.Tables {
		for _, fk := range o.ForeignKeys {
			if fk.RefTable != nil && fk.RefTable.Name == t.Name && keyToken(t.Name, colNames(fk.RefColumns)) == key {
				return true
			}
		}
	}
	return false
}

func fkNeeds(f *facts, table string, fk *schema.ForeignKey) {
	if fk.RefTable != nil {
		f.needs = append(f.needs, keyToken(fk.RefTable.Name, colNames(fk.RefColumns)))
		f.waits = append(f.waits, goneToken(fk.RefTable.Name, colNames(fk.RefColumns)))
		refColumnsNeeded(f, fk)
	}
	for _, c := range fk.Columns {
		f.needs = append(f.needs, colToken(table, c.Name))
	}
	// An index over its columns added by the plan goes first: TiDB would
	// make one of its own, under the key's name.
	f.needs = append(f.needs, prefixToken(table, colNames(fk.Columns)))
}

// refColumnsNeeded: a foreign key goes after the columns it references
// are added or renamed to their names (in another table's changes).
func refColumnsNeeded(f *facts, fk *schema.ForeignKey) {
	for _, c := range fk.RefColumns {
		f.needs = append(f.needs, colToken(fk.RefTable.Name, c.Name))
	}
}

func fkReleases(f *facts, table string, fk *schema.ForeignKey) {
	if fk.RefTable != nil {
		f.releases = append(f.releases, refToken(fk.RefTable.Name, colNames(fk.RefColumns)))
		f.releases = append(f.releases, "table-ref\x00"+fk.RefTable.Name)
	}
	f.releases = append(f.releases, usesToken(table, colNames(fk.Columns)))
}

func (u *unit) facts() facts {
	var f facts
	switch c := u.c.(type) {
	case *schema.ModifyTable:
		// Atlas's own split of a table's changes (cycles of foreign keys).
		for _, sc := range c.Changes {
			sf := (&unit{table: c.T, c: sc}).facts()
			f.provides = append(f.provides, sf.provides...)
			f.needs = append(f.needs, sf.needs...)
			f.releases = append(f.releases, sf.releases...)
			f.waits = append(f.waits, sf.waits...)
		}
	case *schema.AddTable:
		f.provides = append(f.provides, "table\x00"+c.T.Name)
		if c.T.PrimaryKey != nil {
			indexProvides(&f, c.T.Name, c.T.PrimaryKey, true)
		}
		for _, i := range c.T.Indexes {
			indexProvides(&f, c.T.Name, i, false)
		}
		for _, fk := range c.T.ForeignKeys {
			if fk.RefTable != nil && fk.RefTable.Name != c.T.Name {
				f.needs = append(f.needs, keyToken(fk.RefTable.Name, colNames(fk.RefColumns)))
				refColumnsNeeded(&f, fk)
			}
		}
	case *schema.DropTable:
		f.waits = append(f.waits, "table-ref\x00"+c.T.Name)
		for _, fk := range c.T.ForeignKeys {
			fkReleases(&f, c.T.Name, fk)
		}
	case *schema.DropColumn:
		// A generated column goes before the columns it is computed from
		// (TiDB refuses the drop of one a generated column uses, 3108).
		f.waits = append(f.waits, genToken(u.table.Name, c.C.Name))
		for _, a := range c.C.Attrs {
			if g, ok := a.(*schema.GeneratedExpr); ok {
				for _, w := range identWords(g.Expr) {
					f.releases = append(f.releases, genToken(u.table.Name, w))
				}
			}
		}
	case *schema.AddColumn:
		f.provides = append(f.provides, colToken(u.table.Name, c.C.Name))
	case *schema.RenameColumn:
		f.provides = append(f.provides, colToken(u.table.Name, c.To.Name))
	case *schema.AddIndex:
		indexProvides(&f, u.table.Name, c.I, false)
		for _, p := range c.I.Parts {
			if p.C != nil {
				f.needs = append(f.needs, colToken(u.table.Name, p.C.Name))
			}
		}
	case *schema.DropIndex:
		indexWaits(&f, u.table, c.I, false, u.table.ForeignKeys)
	case *schema.ModifyIndex:
		indexWaits(&f, u.table, c.From, false, u.table.ForeignKeys)
		indexProvides(&f, u.table.Name, c.To, false)
	case *schema.AddPrimaryKey:
		indexProvides(&f, u.table.Name, c.P, true)
	case *schema.DropPrimaryKey:
		indexWaits(&f, u.table, c.P, true, nil)
	case *schema.ModifyPrimaryKey:
		indexWaits(&f, u.table, c.From, true, nil)
		indexProvides(&f, u.table.Name, c.To, true)
	case *schema.AddForeignKey:
		fkNeeds(&f, u.table.Name, c.F)
	case *schema.DropForeignKey:
		fkReleases(&f, u.table.Name, c.F)
	case *schema.ModifyForeignKey:
		fkReleases(&f, u.table.Name, c.From)
		fkNeeds(&f, u.table.Name, c.To)
	}
	return f
}

// baseRank orders a table's changes: foreign keys dropped, then indexes
// and CHECKs dropped, then columns dropped (before one of the same name is
// added again: a plain column that becomes generated), then columns added,
// renamed and changed, then the rest (the constraints over them).
func baseRank(c schema.Change) int {
	if m, ok := c.(*schema.ModifyAttr); ok {
		if f, ok := m.To.(First); ok && f.PlannedFirst() {
			return -1
		}
	}
	switch c.(type) {
	case *schema.DropForeignKey:
		return 0
	case *schema.DropIndex, *schema.DropCheck:
		return 1
	case *schema.DropColumn:
		return 2
	case *schema.AddColumn, *schema.RenameColumn, *schema.ModifyColumn:
		return 3
	}
	return 4
}

// First is implemented by the attributes whose change goes before every
// other change of their table (a dialect's own, which the planner does
// not know).
type First interface{ PlannedFirst() bool }

// baseOrder is a table's changes in base order.
func baseOrder(changes []schema.Change) []schema.Change {
	return baseOrderLate(nil, changes, nil)
}

// baseOrderLate is baseOrder with the changes late tells (nil: none) last.
func baseOrderLate(t *schema.Table, changes []schema.Change, late func(*schema.Table, schema.Change) bool) []schema.Change {
	rank := func(c schema.Change) int {
		if late != nil && late(t, c) {
			return 5
		}
		return baseRank(c)
	}
	out := slices.Clone(changes)
	slices.SortStableFunc(out, func(a, b schema.Change) int { return rank(a) - rank(b) })
	return out
}

// ReplacedLater is the late function of PlanInOrderLate that puts last
// the drops of a table's indexes and CHECKs that nothing else of the plan
// needs gone first: not one whose name an index or CHECK the plan adds
// takes (CHECK names are per database on TiDB: any table's), nor one over
// a column the table's changes drop, rename or modify (collation changes,
// rebuilds), nor an index when the table would then hold more than
// maxIndexes (0: no limit) for a while, nor a CHECK over the columns of a
// foreign key the plan adds.
func ReplacedLater(changes []schema.Change, maxIndexes int) func(*schema.Table, schema.Change) bool {
	checks := map[string]bool{}
	indexes := map[string]bool{}
	touched := map[string]bool{}
	room := map[string]bool{}
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		t := strings.ToLower(mt.T.Name)
		drops := 0
		for _, sc := range mt.Changes {
			switch sc := sc.(type) {
			case *schema.AddCheck:
				checks[strings.ToLower(sc.C.Name)] = true
			case *schema.ModifyCheck:
				// A planner may split it into a drop and an add later.
				checks[strings.ToLower(sc.To.Name)] = true
			case *schema.AddIndex:
				indexes[t+"\x00"+strings.ToLower(sc.I.Name)] = true
			case *schema.ModifyIndex:
				indexes[t+"\x00"+strings.ToLower(sc.To.Name)] = true
			case *schema.DropIndex:
				drops++
			case *schema.DropColumn:
				touched[t+"\x00"+strings.ToLower(sc.C.Name)] = true
			case *schema.RenameColumn:
				touched[t+"\x00"+strings.ToLower(sc.From.Name)] = true
			case *schema.ModifyColumn:
				touched[t+"\x00"+strings.ToLower(sc.From.Name)] = true
			case *schema.AddForeignKey, *schema.ModifyForeignKey:
				// TiDB refuses a foreign key with actions over a column a
				// CHECK uses (3823): such a CHECK goes first.
				fk, _ := sc.(*schema.AddForeignKey)
				cols := []*schema.Column{}
				if fk != nil {
					cols = fk.F.Columns
				} else {
					cols = sc.(*schema.ModifyForeignKey).To.Columns
				}
				for _, c := range cols {
					touched[t+"\x00"+strings.ToLower(c.Name)] = true
				}
			}
		}
		room[t] = maxIndexes == 0 || len(mt.T.Indexes)+drops < maxIndexes
	}
	covers := func(t string, words []string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return touched[t+"\x00"+w] })
	}
	return func(tbl *schema.Table, c schema.Change) bool {
		t := strings.ToLower(tbl.Name)
		switch c := c.(type) {
		case *schema.DropCheck:
			return !checks[strings.ToLower(c.C.Name)] && !covers(t, identWords(c.C.Expr))
		case *schema.DropIndex:
			if indexes[t+"\x00"+strings.ToLower(c.I.Name)] || !room[t] {
				return false
			}
			var words []string
			for _, p := range c.I.Parts {
				switch {
				case p.C != nil:
					words = append(words, strings.ToLower(p.C.Name))
				case p.X != nil:
					if x, ok := p.X.(*schema.RawExpr); ok {
						words = append(words, identWords(x.X)...)
					}
				}
			}
			return !covers(t, words)
		}
		return false
	}
}

// order sorts units by their dependencies, keeping the base order (pos)
// where none applies. Units in a dependency cycle stay in base order.
// Dependencies between two of Atlas's units are Atlas's own to order.
func order(units []*unit) []*unit {
	n := len(units)
	all := make([]facts, n)
	providers, releasers := map[string][]int{}, map[string][]int{}
	for i, u := range units {
		all[i] = u.facts()
		for _, t := range all[i].provides {
			providers[t] = append(providers[t], i)
		}
		for _, t := range all[i].releases {
			releasers[t] = append(releasers[t], i)
		}
	}
	after := make([][]int, n) // after[i]: units that must follow i
	indeg := make([]int, n)
	edge := func(from, to int) {
		if from == to || units[from].table == nil && units[to].table == nil {
			return
		}
		after[from] = append(after[from], to)
		indeg[to]++
	}
	for i, f := range all {
		for _, t := range f.needs {
			for _, p := range providers[t] {
				edge(p, i)
			}
		}
		for _, t := range f.waits {
			for _, r := range releasers[t] {
				edge(r, i)
			}
		}
	}
	ready := &posHeap{}
	for i := range units {
		if indeg[i] == 0 {
			heap.Push(ready, units[i].pos)
		}
	}
	byPos := make(map[int]int, n)
	for i, u := range units {
		byPos[u.pos] = i
	}
	out := make([]*unit, 0, n)
	done := make([]bool, n)
	for len(out) < n {
		if ready.Len() == 0 {
			// A cycle: the first unit left, in base order, goes next.
			for i, u := range units {
				if !done[i] {
					indeg[i] = 0
					heap.Push(ready, u.pos)
					break
				}
			}
		}
		i := byPos[heap.Pop(ready).(int)]
		if done[i] {
			continue
		}
		done[i] = true
		out = append(out, units[i])
		for _, j := range after[i] {
			if indeg[j]--; indeg[j] == 0 && !done[j] {
				heap.Push(ready, units[j].pos)
			}
		}
	}
	return out
}

type posHeap []int

func (h posHeap) Len() int           { return len(h) }
func (h posHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h posHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *posHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *posHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
