package difftest

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/gen"
)

// Shrink makes d smaller while the databases still disagree: it drops
// statements, then tables, columns, constraints, indexes, defaults and
// overrides one at a time, keeping each removal that keeps a disagreement.
// budget bounds the number of runs.
func (r *Runner) Shrink(ctx context.Context, d *Disagreement, budget int) (*Disagreement, error) {
	try := func(m *Model, stmts []Stmt) (bool, error) {
		if budget <= 0 {
			return false, nil
		}
		budget--
		nd, err := r.Run(ctx, m, stmts)
		if err != nil || nd == nil || nd.Kind != d.Kind {
			return false, err
		}
		d = nd
		return true, nil
	}
	for changed := true; changed && budget > 0; {
		changed = false
		// Statements, last first (later ones rarely matter).
		for i := len(d.Stmts) - 1; i >= 0; i-- {
			if i >= len(d.Stmts) {
				continue
			}
			ok, err := try(d.Model, slices.Delete(slices.Clone(d.Stmts), i, i+1))
			if err != nil {
				return d, err
			}
			changed = changed || ok
		}
		for cand := range reductions(d.Model) {
			ok, err := try(cand, d.Stmts)
			if err != nil {
				return d, err
			}
			if ok {
				changed = true
				break // the reductions were of the old model
			}
		}
	}
	return d, nil
}

// reductions yields models with one part of m removed, each cloned only
// when it is asked for: a model of a thousand columns has a thousand.
func reductions(m *Model) iter.Seq[*Model] {
	return func(yield func(*Model) bool) {
		stop := false
		edit := func(f func(m *Model)) {
			if stop {
				return
			}
			c := m.Clone()
			f(c)
			stop = !yield(c)
		}
		reduce(m, edit)
	}
}

// reduce calls edit with each removal of one part of m.
func reduce(m *Model, edit func(func(*Model))) {
	for ti := range m.Tables {
		name := m.Tables[ti].Name
		edit(func(c *Model) {
			c.Tables = slices.Delete(c.Tables, ti, ti+1)
			for _, t := range c.Tables {
				t.FKs = slices.DeleteFunc(t.FKs, func(fk FK) bool { return fk.RefTable == name })
			}
		})
	}
	for ti, t := range m.Tables {
		// What limits drew, dropped at once (see rnd.limits).
		if slices.ContainsFunc(t.Cols, func(c *Col) bool { return strings.HasPrefix(c.Name, "w") }) {
			edit(func(c *Model) {
				ct := c.Tables[ti]
				for i := len(ct.Cols) - 1; i >= 0; i-- {
					if strings.HasPrefix(ct.Cols[i].Name, "w") {
						dropColumn(c, ct, i)
					}
				}
			})
		}
		if slices.ContainsFunc(t.Indexes, func(x Index) bool { return strings.Contains(x.Name, "_many") }) {
			edit(func(c *Model) {
				c.Tables[ti].Indexes = slices.DeleteFunc(c.Tables[ti].Indexes, func(x Index) bool { return strings.Contains(x.Name, "_many") })
			})
		}
		if t.Comment != "" {
			edit(func(c *Model) { c.Tables[ti].Comment = "" })
		}
		if t.TTL != nil {
			edit(func(c *Model) { c.Tables[ti].TTL = nil })
		}
		if t.Partition != "" {
			edit(func(c *Model) { c.Tables[ti].Partition = "" })
		}
		for i := range t.Uniques {
			if t.Uniques[i].Override != "" {
				edit(func(c *Model) { c.Tables[ti].Uniques[i].Override = "" })
			}
		}
		for i := range t.Checks {
			edit(func(c *Model) { c.Tables[ti].Checks = slices.Delete(c.Tables[ti].Checks, i, i+1) })
		}
		for i, idx := range t.Indexes {
			edit(func(c *Model) { c.Tables[ti].Indexes = slices.Delete(c.Tables[ti].Indexes, i, i+1) })
			if idx.Comment != "" {
				edit(func(c *Model) { c.Tables[ti].Indexes[i].Comment = "" })
			}
			if len(idx.Include) > 0 || idx.Storage != "" || idx.Invisible || idx.NullsNotDistinct {
				edit(func(c *Model) {
					x := &c.Tables[ti].Indexes[i]
					x.Include, x.Storage, x.Invisible, x.NullsNotDistinct = nil, "", false, false
				})
			}
		}
		for i := range t.Uniques {
			edit(func(c *Model) { c.Tables[ti].Uniques = slices.Delete(c.Tables[ti].Uniques, i, i+1) })
		}
		for i := range t.FKs {
			edit(func(c *Model) { c.Tables[ti].FKs = slices.Delete(c.Tables[ti].FKs, i, i+1) })
		}
		for i, col := range t.Cols {
			if slices.Contains(t.PK, col.Name) {
				continue
			}
			edit(func(c *Model) { dropColumn(c, c.Tables[ti], i) })
			if col.Default != "" {
				edit(func(c *Model) { c.Tables[ti].Cols[i].Default = "" })
			}
			if col.Override != "" {
				edit(func(c *Model) { c.Tables[ti].Cols[i].Override = "" })
			}
			if col.Comment != "" {
				edit(func(c *Model) { c.Tables[ti].Cols[i].Comment = "" })
			}
			if col.Null {
				edit(func(c *Model) { c.Tables[ti].Cols[i].Null = false })
			}
		}
		if t.PKName != "" {
			edit(func(c *Model) { c.Tables[ti].PKName = "" })
		}
		if len(t.PK) > 1 {
			edit(func(c *Model) {
				dropColumn(c, c.Tables[ti], slices.IndexFunc(t.Cols, func(x *Col) bool { return x.Name == t.PK[1] }))
			})
		}
	}
	// Settings the model writes are tried left out (the defaults).
	if m.UUIDCheck != "" {
		edit(func(c *Model) { c.UUIDCheck = "" })
	}
	if m.ExactStrings != "" {
		edit(func(c *Model) { c.ExactStrings = "" })
	}
	if m.ValueDomains != "" {
		edit(func(c *Model) { c.ValueDomains = "" })
	}
}

// dropColumn removes column i of t and everything that names it.
func dropColumn(m *Model, t *Table, i int) {
	name := t.Cols[i].Name
	t.Cols = slices.Delete(t.Cols, i, i+1)
	t.PK = slices.DeleteFunc(t.PK, func(s string) bool { return s == name })
	mentions := func(s string) bool { return strings.Contains(s, quoteIdent(name)) }
	t.Checks = slices.DeleteFunc(t.Checks, func(c Check) bool { return mentions(c.Expr) })
	t.Indexes = slices.DeleteFunc(t.Indexes, func(x Index) bool {
		return mentions(x.Where) || slices.ContainsFunc(x.Cols, func(p string) bool { return p == name || mentions(p) })
	})
	for i := range t.Indexes {
		// A non-key column leaves the index with it.
		t.Indexes[i].Include = slices.DeleteFunc(slices.Clone(t.Indexes[i].Include), func(s string) bool { return s == name })
	}
	t.Uniques = slices.DeleteFunc(t.Uniques, func(u Unique) bool { return slices.Contains(u.Cols, name) })
	t.FKs = slices.DeleteFunc(t.FKs, func(fk FK) bool { return slices.Contains(fk.Cols, name) })
	for _, o := range m.Tables {
		o.FKs = slices.DeleteFunc(o.FKs, func(fk FK) bool { return fk.RefTable == t.Name && slices.Contains(fk.RefCols, name) })
	}
}

// repairBudget is the most bytes of model Repair compiles for one model
// (a count, not a time, so that a seed repairs alike on every machine);
// past repairScan removals tried in a step, it takes the first that helps.
const repairBudget, repairScan = 2 << 20, 60

// Regression writes d as a Go test to paste into regression_test.go.
func (d *Disagreement) Regression(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n", strings.ReplaceAll(strings.TrimSpace(d.What), "\n", "\n// "))
	fmt.Fprintf(&b, "func Test%s(t *testing.T) {\n\tdifftest.Replay(t, `\n%s`, []difftest.Stmt{\n", name, strings.ReplaceAll(d.Model.HCL(), "`", "` + \"`\" + `"))
	for _, s := range d.Stmts {
		fmt.Fprintf(&b, "\t\t%s,\n", s.prune(d.Model).GoString())
	}
	b.WriteString("\t})\n}\n")
	return b.String()
}

// Repair removes parts of a model the compiler refuses, one at a time,
// keeping at each step the removal that leaves the fewest errors, so that
// more random models reach the databases. It returns nil when m compiles
// already or cannot be repaired within repairBudget bytes compiled. A model with
// many parts (a table past a column limit) takes the first removal that
// leaves fewer errors: trying every one at every step compiled it
// quadratically often (seed 40402 spent an hour on one model).
func Repair(m *Model) *Model {
	compiled := 0
	errs := func(m *Model) int {
		src := m.HCL()
		compiled += len(src)
		return len(gen.CompileSource("schema.hcl", []byte(src)).Diags.Errs())
	}
	n := errs(m)
	if n == 0 {
		return nil
	}
	for n > 0 {
		var best *Model
		bestN := n
		tried := 0
		for c := range reductions(m) {
			if len(c.Tables) < len(m.Tables) {
				continue // keep the tables
			}
			if compiled >= repairBudget {
				return nil
			}
			tried++
			if k := errs(c); k < bestN {
				best, bestN = c, k
				if tried > repairScan {
					break
				}
			}
		}
		if best == nil {
			return nil
		}
		m, n = best, bestN
	}
	return m
}
