package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/migration"
)

// refusals turns migrate diff refusing the model's changes (every error a
// hazard.Refusal or migration.RawError) into findings (exit 1): each is
// printed as a diagnostic at the table, column, enum or raw block of
// schema.hcl where the change is. Other errors are returned as they are.
func (a *App) refusals(err error, s *compiler.Schema) error {
	if !migration.Refused(err) || s == nil {
		return err
	}
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	// The same change refused by several dialects (a NOT NULL column
	// without a default) is one diagnostic naming them all.
	same := map[string]*hcl.Diagnostic{}
	for _, e := range leaves(err) {
		if seen[e.Error()] {
			continue
		}
		seen[e.Error()] = true
		d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "migrate diff refuses this change", Detail: e.Error()}
		var r *hazard.Refusal
		var raw *migration.RawError
		switch {
		case errors.As(e, &r):
			key := strings.Join([]string{r.Table, r.Column, r.Change, r.Reason}, "\x00")
			if o := same[key]; o != nil {
				o.Summary = strings.Replace(o.Summary, " cannot apply ", " and "+r.Database+" cannot apply ", 1)
				continue
			}
			same[key] = d
			d.Summary = fmt.Sprintf("%s cannot apply %s", r.Database, r.Change)
			d.Detail = strings.TrimSpace(r.Reason + ". " + r.Instead)
			d.Subject = refusalRange(s, r)
		case errors.As(e, &raw):
			for _, b := range s.Raw {
				if b.Name == raw.Name {
					d.Subject = rangePtr(b.Range)
				}
			}
		}
		diags = append(diags, d)
	}
	a.printDiags(s.Files, diags)
	return findings{fmt.Sprintf("migrate diff refused %d change%s of the model; nothing was written.", len(diags), map[bool]string{true: "", false: "s"}[len(diags) == 1])}
}

// leaves are the errors of each target of a plan that failed.
func leaves(err error) []error {
	var pe *migration.PlanError
	if errors.As(err, &pe) {
		return pe.Errs
	}
	return []error{err}
}

// refusalRange is where the refused change is in the model: the column,
// else the table, else the enum; nil when the model has none of them.
func refusalRange(s *compiler.Schema, r *hazard.Refusal) *hcl.Range {
	if r.Enum != "" {
		for _, e := range s.Enums {
			if strings.EqualFold(e.Name, r.Enum) {
				return rangePtr(e.Range)
			}
		}
	}
	for _, t := range s.Tables {
		if !strings.EqualFold(t.Name, r.Table) {
			continue
		}
		for _, c := range t.Columns {
			if r.Column != "" && strings.EqualFold(c.Name, r.Column) {
				return rangePtr(c.Range)
			}
		}
		return rangePtr(t.Range)
	}
	return nil
}

func rangePtr(r hcl.Range) *hcl.Range {
	if r.Filename == "" {
		return nil
	}
	return &r
}
