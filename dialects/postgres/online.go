package postgres

import (
	"context"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres/internal/online"
)

// PlanStmts implements dialects.Online; internal/online holds it.
func (Dialect) PlanStmts(ctx context.Context, drv migrate.Driver, changes []schema.Change, isOnline bool, opts ...migrate.PlanOption) ([]hazard.Stmt, error) {
	return online.PlanStmts(ctx, drv, changes, isOnline, opts...)
}

// Resume implements dialects.Online; internal/online holds it.
func (Dialect) Resume(ctx context.Context, conn schema.ExecQuerier, skipped, todo []string) (int, error) {
	return online.Resume(ctx, conn, skipped, todo)
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

// Prechecks implements dialects.Online; internal/online holds it.
func (Dialect) Prechecks(a0 context.Context, a1 schema.ExecQuerier, a2 []string) ([]string, error) {
	return online.Prechecks(a0, a1, a2)
}

// ErrorDetail implements dialects.ErrorDetailer; internal/online holds it.
func (Dialect) ErrorDetail(err error) string {
	return online.ErrorDetail(err)
}

// ExplainError implements dialects.Online; internal/online holds it.
func (Dialect) ExplainError(err error) string {
	return online.ExplainError(err)
}
