package draw

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
)

// partitions sometimes partitions a table by its first key column: by
// hash or range of an integer, by range of a date, or by list of an
// integer, now and then without a part for the rest (rows past every part
// are refused by both databases). The table's unique keys must hold the
// column and no foreign key may join it (both refuse otherwise); rarely a
// table that breaks these is drawn, which the compiler must refuse.
func (g *rnd) partitions(m *difftest.Model) {
	for _, t := range m.Tables {
		if g.chance(0.15) && g.byFunction(m, t) {
			continue
		}
		if len(t.PK) == 0 || !g.chance(0.3) {
			continue
		}
		col := t.Col(t.PK[0])
		if col == nil || !g.chance(0.05) && !partitionable(m, t, col.Name) {
			continue
		}
		t.Partition = g.partition(t.Name, col)
	}
}

// byFunction partitions t by the year or month of one of its date or
// datetime columns (range, list or hash), dropping its primary and unique
// keys, which PostgreSQL refuses on a table partitioned by an expression;
// it reports whether it did. A table with an identity (which TiDB keys) or
// joined by a foreign key is left alone.
func (g *rnd) byFunction(m *difftest.Model, t *difftest.Table) bool {
	if !functionPartitionable(m, t) {
		return false
	}
	p := g.functionPartition(t)
	if p == "" {
		return false
	}
	t.PK, t.Uniques, t.Clustered, t.PKName, t.ShardRowIDBits, t.PreSplitRegions = nil, nil, "", "", 0, 0
	t.Indexes = slices.DeleteFunc(t.Indexes, func(idx difftest.Index) bool { return idx.Unique })
	t.Partition = p
	return true
}

// functionPartitionable reports whether t can lose its keys and be
// partitioned by a function of a column.
func functionPartitionable(m *difftest.Model, t *difftest.Table) bool {
	if len(t.FKs) > 0 || slices.ContainsFunc(t.Cols, func(c *difftest.Col) bool { return c.Identity }) {
		return false
	}
	for _, o := range m.Tables {
		if slices.ContainsFunc(o.FKs, func(fk difftest.FK) bool { return fk.RefTable == t.Name }) {
			return false
		}
	}
	return true
}

// functionPartition draws a partition block of t by the year or month of
// a date or datetime column ("" where t has none): hash of either, range
// of the year or list of the month of a NOT NULL one.
func (g *rnd) functionPartition(t *difftest.Table) string {
	var cols []*difftest.Col
	for _, c := range t.Cols {
		if (c.Type.Name == "date" || c.Type.Name == "datetime") && c.As == "" {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return ""
	}
	c := pick(g, cols)
	head := func(typ, fn string) string {
		return fmt.Sprintf("  partition {\n    type = %q\n    column = %q\n    function = %q\n", typ, c.Name, fn)
	}
	if c.Null || g.chance(0.3) {
		return head("hash", pick(g, []string{"year", "month"})) + fmt.Sprintf("    count = %d\n  }\n", pick(g, []int{1, 2, 5}))
	}
	var parts []string
	if g.chance(0.5) {
		for i, vs := range pick(g, [][]string{{"12, 1, 2", "3, 4, 5"}, {"1"}, {"6, 7", "8"}}) {
			parts = append(parts, fmt.Sprintf("    part %q {\n      values = [%s]\n    }\n", fmt.Sprintf("%s_m%d", t.Name, i), vs))
		}
		if g.chance(0.6) {
			parts = append(parts, fmt.Sprintf("    part %q {\n      rest = true\n    }\n", t.Name+"_rest"))
		}
		return head("list", "month") + strings.Join(parts, "") + "  }\n"
	}
	for i, b := range pick(g, [][]int{{1970, 2000, 2100}, {2001}, {1, 9999}}) {
		parts = append(parts, fmt.Sprintf("    part %q {\n      less_than = %d\n    }\n", fmt.Sprintf("%s_y%d", t.Name, i), b))
	}
	if g.chance(0.6) {
		parts = append(parts, fmt.Sprintf("    part %q {\n      rest = true\n    }\n", t.Name+"_rest"))
	}
	return head("range", "year") + strings.Join(parts, "") + "  }\n"
}

// partitionable reports whether t can be partitioned by col: every unique
// key holds it, and no foreign key joins t.
func partitionable(m *difftest.Model, t *difftest.Table, col string) bool {
	if len(t.FKs) > 0 || !slices.Contains(t.PK, col) {
		return false
	}
	for _, u := range t.Uniques {
		if !slices.Contains(u.Cols, col) {
			return false
		}
	}
	for _, idx := range t.Indexes {
		if idx.Unique && !slices.Contains(idx.Cols, col) {
			return false
		}
	}
	for _, o := range m.Tables {
		if slices.ContainsFunc(o.FKs, func(fk difftest.FK) bool { return fk.RefTable == t.Name }) {
			return false
		}
	}
	return true
}

// partition draws a partition block of table by col ("" where col's type
// has none).
func (g *rnd) partition(table string, col *difftest.Col) string {
	head := func(typ string) string {
		return fmt.Sprintf("  partition {\n    type = %q\n    column = %q\n", typ, col.Name)
	}
	var parts []string
	typ := ""
	switch col.Type.Name {
	case "smallint", "int", "bigint":
		switch g.n(3) {
		case 0:
			n := pick(g, []int{1, 3, 8})
			names := ""
			if g.chance(0.3) {
				// PostgreSQL's parts named by part blocks.
				for i := range n {
					names += fmt.Sprintf("    part %q {\n    }\n", fmt.Sprintf("%s_h%d", table, n-1-i))
				}
			}
			return head("hash") + fmt.Sprintf("    count = %d\n", n) + names + "  }\n"
		case 1:
			typ = "range"
			for i, b := range pick(g, [][]int{{0, 100}, {-5, 5, 1000}, {10}}) {
				parts = append(parts, fmt.Sprintf("    part %q {\n      less_than = %d\n    }\n", fmt.Sprintf("%s_p%d", table, i), b))
			}
		default:
			typ = "list"
			for i, vs := range pick(g, [][]string{{"1, 2, 3", "4"}, {"0", "-1, 7"}}) {
				parts = append(parts, fmt.Sprintf("    part %q {\n      values = [%s]\n    }\n", fmt.Sprintf("%s_p%d", table, i), vs))
			}
		}
	case "date", "datetime":
		typ = "range"
		for i, b := range pick(g, [][]string{{"2000-01-01", "2100-01-01"}, {"1970-01-01"}}) {
			parts = append(parts, fmt.Sprintf("    part %q {\n      less_than = %q\n    }\n", fmt.Sprintf("%s_p%d", table, i), b))
		}
	default:
		return ""
	}
	if g.chance(0.6) {
		parts = append(parts, fmt.Sprintf("    part %q {\n      rest = true\n    }\n", table+"_rest"))
	}
	return head(typ) + strings.Join(parts, "") + "  }\n"
}

// TableOptionEdit draws an edit of t's ttl (kind "ttl": another, or none)
// or partitioning (kind "partition": a range's part added at its end or
// its first dropped, a list's part dropped, or the table partitioned
// anew, which migrate diff refuses) for the plan oracle; ok is false where
// there is none to draw.
func (g *Gen) TableOptionEdit(m *difftest.Model, t *difftest.Table, kind string) (what string, f func(*difftest.Table), ok bool) {
	if kind == "ttl" {
		x := g.TTL(t)
		if t.TTL != nil && g.Chance(0.4) {
			x = nil
		}
		if x == nil && t.TTL == nil {
			return "", nil, false
		}
		what = fmt.Sprintf("ttl of table %s: none", t.Name)
		if x != nil {
			what = fmt.Sprintf("ttl of table %s: %s + %d %s, job interval %q", t.Name, x.Col, x.Interval, x.Unit, x.JobInterval)
		}
		return what, func(t *difftest.Table) { t.TTL = x }, true
	}
	p := t.Partition
	first := strings.Index(p, "    part ")
	byFunction := strings.Contains(p, "    function = ")
	hash := strings.Contains(p, "type = \"hash\"")
	switch {
	case byFunction && g.Chance(0.1):
		// Another function or column: migrate diff refuses it.
		np := g.g.functionPartition(t)
		return fmt.Sprintf("partition table %s anew by a function", t.Name), func(t *difftest.Table) { t.Partition = np }, np != p && np != ""
	case byFunction && hash:
		return "", nil, false // a hash: its parts are not changed in place
	case byFunction:
	case len(t.PK) == 0 || t.Col(t.PK[0]) == nil || p == "" && !partitionable(m, t, t.PK[0]):
		return "", nil, false
	case p == "" || g.Chance(0.1):
		np := g.g.partition(t.Name, t.Col(t.PK[0]))
		return fmt.Sprintf("partition table %s anew", t.Name), func(t *difftest.Table) { t.Partition = np }, np != p
	case first < 0 || hash:
		return "", nil, false
	case strings.Contains(p, "values = ") && !strings.Contains(p, "rest = true") && g.Chance(0.5):
		part := fmt.Sprintf("    part %q {\n      values = [%d]\n    }\n", fmt.Sprintf("%s_add%d", t.Name, g.N(1000)), 9+g.N(3))
		if strings.Contains(p, "[9]") || strings.Contains(p, "[10]") || strings.Contains(p, "[11]") {
			return "", nil, false
		}
		return fmt.Sprintf("add a list part to table %s", t.Name), func(t *difftest.Table) { t.Partition = strings.TrimSuffix(t.Partition, "  }\n") + part + "  }\n" }, true
	case strings.Contains(p, "less_than") && !strings.Contains(p, "rest = true") && g.Chance(0.5):
		part := fmt.Sprintf("    part %q {\n      rest = true\n    }\n", t.Name+"_rest")
		return fmt.Sprintf("add a last part to table %s", t.Name), func(t *difftest.Table) { t.Partition = strings.TrimSuffix(t.Partition, "  }\n") + part + "  }\n" }, true
	}
	end := first + strings.Index(p[first:], "    }\n") + len("    }\n")
	if strings.Count(p, "    part ") < 2 {
		return "", nil, false
	}
	return fmt.Sprintf("drop the first part of table %s", t.Name), func(t *difftest.Table) { t.Partition = p[:first] + p[end:] }, true
}

// PartitionedTable draws a new partitioned table for the plan oracle: keyed
// by (id0, d0) and partitioned by either column as partition draws it, or
// without keys and partitioned by the year or month of d0 (a date or a
// datetime), with a nullable column for the rows to differ by.
func (g *Gen) PartitionedTable(name string) (*difftest.Table, string) {
	day := &difftest.Col{Name: "d0", Type: difftest.Type{Name: pick(g.g, []string{"date", "datetime"})}}
	t := &difftest.Table{Name: name, Cols: []*difftest.Col{
		{Name: "id0", Type: difftest.Type{Name: "bigint"}}, day,
		{Name: "c0", Type: difftest.Type{Name: "varchar", Args: []int{20}}, Null: true},
	}}
	if g.Chance(0.4) {
		t.Partition = g.g.functionPartition(t)
		return t, "by a function of d0"
	}
	t.PK = []string{"id0", "d0"}
	col := t.Cols[g.N(2)]
	t.Partition = g.g.partition(name, col)
	return t, "by " + col.Name
}

// PartitionTarget is the table a partition edit of the plan oracle
// changes: mostly a partitioned table where there is one (its parts are
// added and dropped in place, where partitioning another table is
// refused), else t; fresh is set, mostly where there is none, when a new
// partitioned table is to be added instead (PartitionedTable).
func (g *Gen) PartitionTarget(m *difftest.Model, t *difftest.Table) (_ *difftest.Table, fresh bool) {
	var parted []*difftest.Table
	for _, x := range m.Tables {
		if x.Partition != "" {
			parted = append(parted, x)
		}
	}
	switch {
	case len(parted) > 0 && g.Chance(0.85):
		return parted[g.N(len(parted))], false
	case len(parted) == 0 && g.Chance(0.75):
		return t, true
	}
	return t, false
}
