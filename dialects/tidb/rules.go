package tidb

import (
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lower"
)

// Rules implements dialects.RuleBook: TiDB's limits and naming rules,
// which internal/lower's generation keeps to.
func (Dialect) Rules() *dialects.Rules { return lower.Rules() }
