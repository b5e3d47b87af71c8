package tidb

import (
	"context"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb/internal/online"
)

// PlanStmts implements dialects.Online; internal/online holds it.
func (Dialect) PlanStmts(ctx context.Context, drv migrate.Driver, changes []schema.Change, isOnline bool, opts ...migrate.PlanOption) ([]hazard.Stmt, error) {
	return online.PlanStmts(ctx, drv, changes, isOnline, opts...)
}

// Prechecks implements dialects.Online; internal/online holds it.
func (Dialect) Prechecks(ctx context.Context, conn schema.ExecQuerier, queries []string) ([]string, error) {
	return online.Prechecks(ctx, conn, queries)
}

// Resume implements dialects.Online; internal/online holds it.
func (Dialect) Resume(a0 context.Context, a1 schema.ExecQuerier, a2 []string, a3 []string) (int, error) {
	return online.Resume(a0, a1, a2, a3)
}

// SessionID implements dialects.Sessions; internal/online holds it.
func (Dialect) SessionID(ctx context.Context, conn schema.ExecQuerier) (int64, error) {
	return online.SessionID(ctx, conn)
}

// CancelStatement implements dialects.Sessions; internal/online holds it.
func (Dialect) CancelStatement(ctx context.Context, other schema.ExecQuerier, id int64) error {
	return online.CancelStatement(ctx, other, id)
}

// EndSession implements dialects.Sessions; internal/online holds it.
func (Dialect) EndSession(ctx context.Context, other schema.ExecQuerier, id int64) error {
	return online.EndSession(ctx, other, id)
}

// Unfinished implements dialects.Online; internal/online holds it.
func (Dialect) Unfinished(ctx context.Context, conn schema.ExecQuerier) ([]string, error) {
	return online.Unfinished(ctx, conn)
}

// ExplainError implements dialects.Online; internal/online holds it.
func (Dialect) ExplainError(a0 error) string {
	return online.ExplainError(a0)
}
