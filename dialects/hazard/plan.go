package hazard

import (
	"context"
	"slices"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
)

// Planner is the part of an Atlas driver that plans changes.
type Planner interface {
	PlanChanges(ctx context.Context, name string, changes []schema.Change, opts ...migrate.PlanOption) (*migrate.Plan, error)
}

// PlanInOrder has drv plan changes, which orders the tables (tables before
// the foreign keys that reference them, cycles broken), then orders every
// change by what it needs first (order.go) and lets the dialect plan each
// change of a table that existed before, one at a time (planChange): its
// statements replace Atlas's for it. Every other statement is Atlas's, and
// annotate gives it its hazards from the change it comes from (nil when
// Atlas does not say).
func PlanInOrder(ctx context.Context, drv Planner, changes []schema.Change, planChange func(t *schema.Table, c schema.Change) ([]Stmt, error), annotate func(schema.Change, *Stmt), opts ...migrate.PlanOption) ([]Stmt, error) {
	return PlanInOrderLate(ctx, drv, changes, nil, planChange, annotate, opts...)
}

// PlanInOrderLate is PlanInOrder where late (nil: none) tells the changes
// of a table that go after its other changes in the base order: the drops
// of indexes and CHECKs a dialect wants after the adds that replace them,
// so that a file stopping half-way leaves the table at least as
// constrained as before.
func PlanInOrderLate(ctx context.Context, drv Planner, changes []schema.Change, late func(t *schema.Table, c schema.Change) bool, planChange func(t *schema.Table, c schema.Change) ([]Stmt, error), annotate func(schema.Change, *Stmt), opts ...migrate.PlanOption) ([]Stmt, error) {
	full, err := drv.PlanChanges(ctx, "", changes, opts...)
	if err != nil {
		return nil, err
	}
	// Atlas may split or copy a table's change (TiDB's planner makes one
	// change per statement): its statements are known by their table.
	existing := map[string]*schema.ModifyTable{}
	// Atlas plans some changes of a table (a column's rename) as statements
	// of their own, whose source is the change, not the table's.
	of := map[schema.Change]*schema.ModifyTable{}
	for _, c := range changes {
		if m, ok := c.(*schema.ModifyTable); ok {
			existing[m.T.Name] = m
			for _, sc := range m.Changes {
				of[sc] = m
			}
		}
	}
	done := map[string]bool{}
	var units []*unit
	// Table renames go first: the changes of a renamed table name it by its
	// new name (Atlas's MySQL planner puts them after).
	plan := slices.Clone(full.Changes)
	slices.SortStableFunc(plan, func(a, b *migrate.Change) int {
		_, ra := a.Source.(*schema.RenameTable)
		_, rb := b.Source.(*schema.RenameTable)
		switch {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	for _, pc := range plan {
		if m := of[pc.Source]; m != nil {
			pc.Source = m
		}
		if pm, ok := pc.Source.(*schema.ModifyTable); ok && existing[pm.T.Name] != nil {
			if name := pm.T.Name; !done[name] {
				done[name] = true
				m := existing[name]
				for _, sc := range baseOrderLate(m.T, m.Changes, late) {
					units = append(units, &unit{pos: len(units), table: m.T, c: sc})
				}
			}
			continue
		}
		s := Stmt{Cmd: pc.Cmd, Comment: pc.Comment}
		annotate(pc.Source, &s)
		if last := len(units) - 1; last >= 0 && units[last].table == nil && units[last].src == pc.Source && pc.Source != nil {
			units[last].atlas = append(units[last].atlas, s)
			continue
		}
		units = append(units, &unit{pos: len(units), c: pc.Source, src: pc.Source, atlas: []Stmt{s}})
	}
	var out []Stmt
	for _, u := range order(units) {
		if u.table == nil {
			out = append(out, u.atlas...)
			continue
		}
		ss, err := planChange(u.table, u.c)
		if err != nil {
			return nil, err
		}
		out = append(out, ss...)
	}
	return out, nil
}

// PlanOne has Atlas plan the single change c, as statements without hazards.
func PlanOne(ctx context.Context, drv migrate.Driver, c schema.Change, opts ...migrate.PlanOption) ([]Stmt, error) {
	plan, err := drv.PlanChanges(ctx, "", []schema.Change{c}, opts...)
	if err != nil {
		return nil, err
	}
	out := make([]Stmt, len(plan.Changes))
	for i, pc := range plan.Changes {
		out[i] = Stmt{Cmd: pc.Cmd, Comment: pc.Comment}
	}
	return out, nil
}
