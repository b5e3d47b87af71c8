package postgres

import (
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lower"
)

// Rules implements dialects.RuleBook: PostgreSQL's limits and naming
// rules, which internal/lower's generation keeps to.
func (Dialect) Rules() *dialects.Rules { return lower.Rules() }
