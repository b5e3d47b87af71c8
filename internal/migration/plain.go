package migration

import (
	"context"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
)

// PlanPlain plans changes into to (which it changes) as migrate diff --plain
// plans a file for t: the dialect's planner with its statement order, one
// change per statement where the dialect needs it, hazards and pre-check
// queries as comments, but no online rewrites (no second file). The texts
// are those to holds (as its database printed them). migrate down plans
// with it.
func PlanPlain(ctx context.Context, t Target, drv migrate.Driver, name string, changes []schema.Change, to *schema.Schema) (*migrate.Plan, error) {
	main, online, err := planExprs(nil, t.Dialect, name, changes, to, func(changes []schema.Change) (*migrate.Plan, *migrate.Plan, error) {
		return planChanges(ctx, t, drv, name, changes, []PlanOption{Plain(true)})
	})
	if err != nil {
		return nil, err
	}
	if online != nil {
		main.Changes = append(main.Changes, online.Changes...)
	}
	return main, nil
}
