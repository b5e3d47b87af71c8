package tidb

import (
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb/internal/online"
)

// HazardCodes implements dialects.Online; internal/online holds it.
func (Dialect) HazardCodes() []hazard.Code {
	return online.HazardCodes()
}

// StmtForm implements dialects.Online; internal/online holds it.
func (Dialect) StmtForm(a0 []string, a1 int) hazard.Form {
	return online.StmtForm(a0, a1)
}

// Hazards implements dialects.Online; internal/online holds it.
func (Dialect) Hazards(changes []schema.Change, a1 hazard.Form) []hazard.Hazard {
	return online.Hazards(changes, a1)
}
