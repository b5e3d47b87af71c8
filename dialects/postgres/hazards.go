package postgres

import (
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres/internal/online"
)

// HazardCodes implements dialects.Online; internal/online holds it.
func (Dialect) HazardCodes() []hazard.Code {
	return online.HazardCodes()
}

// StmtForm implements dialects.Online; internal/online holds it.
func (Dialect) StmtForm(stmts []string, i int) hazard.Form {
	return online.StmtForm(stmts, i)
}

// Hazards implements dialects.Online; internal/online holds it.
func (Dialect) Hazards(changes []schema.Change, f hazard.Form) []hazard.Hazard {
	return online.Hazards(changes, f)
}
