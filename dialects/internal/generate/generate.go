// Package generate is the generation skeleton every dialect shares: the
// model checked against the dialect's rules, lowered table by table by the
// dialect's lowerer, and written in its style. A dialect supplies only what
// differs (Dialect).
package generate

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/rules"
)

// Dialect is what one dialect gives the skeleton.
type Dialect struct {
	Name  string
	Rules *dialects.Rules
	Style sqltext.Style
	// Lowerer reads the dialect's settings of s, reporting a bad one to
	// rec, and returns the dialect's lowerer for s.
	Lowerer func(s *compiler.Schema, rec *sqltext.Recorder) sqltext.Lowerer
	// Header is added to the generated file's header, or "".
	Header string
}

// Generate implements dialects.Gen's Generate for d: nothing is written
// when any error is found.
func Generate(s *compiler.Schema, d Dialect) (*dialects.Output, hcl.Diagnostics) {
	rec := &sqltext.Recorder{Dialect: d.Name}
	l := d.Lowerer(s, rec)
	rules.Names(s, d.Name, d.Rules, rec)
	rules.Indexes(s, d.Name, d.Rules, rec)
	rules.Types(s, d.Name, d.Rules, rec)
	rules.Limits(s, d.Name, d.Rules, rec)
	rules.RawIndexes(s, d.Name, d.Rules, rec)
	sc := sqltext.Build(s, l, rec)
	rules.Tables(s, d.Name, d.Rules, sc, rec)
	sc.Header += d.Header
	if rec.Diags.HasErrors() {
		return nil, rec.Diags
	}
	render := func() *dialects.Rendered {
		r := sc.Rendered(d.Style)
		if sl, ok := l.(sqltext.SettingsLowerer); ok {
			r.Settings = sl.Settings()
		}
		return r
	}
	return &dialects.Output{SQL: sc.Write(d.Style), Decisions: rec.Decisions, Exprs: sc.Exprs(), Render: render}, rec.Diags
}
