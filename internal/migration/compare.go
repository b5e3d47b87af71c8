package migration

import (
	"context"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/internal/migration/proof"
)

// Difference is one way a database differs from the state it should hold.
type Difference = proof.Difference

// Differences compares got, a database's state, with want, the state it
// should hold, as migrate diff proves its files (proof.Differences): the
// one comparison of migrate diff, drift and the plan oracle. Both states
// may be changed.
func Differences(ctx context.Context, t Target, got, want *State) ([]Difference, error) {
	drv := want.Driver
	if drv == nil {
		drv = got.Driver
	}
	return proof.Differences(ctx, drv, proof.Side{Schema: got.Schema, Objects: got.Objects}, proof.Side{Schema: want.Schema, Objects: want.Objects})
}

// Details is what Differences compares beyond the dialects' diffs, for a
// caller that diffs itself (drift); it changes neither state.
func Details(got, want *schema.Schema) []Difference { return proof.Details(got, want) }
