// Package refusal places what migrate diff refuses, and generated DDL a dev
// database refuses, at their positions in schema.hcl, as diagnostics.
package refusal

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/internal/migration"
	"github.com/schemagen/schemagen/internal/scratch"
)

// Diagnostics are migrate diff's refusals of the model's changes (every
// error a hazard.Refusal or migration.RawError), each at the table, column,
// enum or raw block of schema.hcl where the change is; false when err is
// not such a refusal.
func Diagnostics(err error, s *compiler.Schema) (hcl.Diagnostics, bool) {
	if !migration.Refused(err) || s == nil {
		return nil, false
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
		var rename *migration.AmbiguousRenameError
		switch {
		case errors.As(e, &rename):
			key := "rename\x00" + rename.Error()
			if same[key] != nil {
				continue
			}
			same[key] = d
			d.Summary = fmt.Sprintf("column %q: a rename migrate diff cannot tell from a drop", rename.Column)
			d.Detail = rename.Error()
			d.Subject = refusalRange(s, &hazard.Refusal{Table: rename.Table, Column: rename.Column})
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
	return diags, true
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

// Generated are the generated DDL's statements a dev database refused (a
// raw per-dialect text with a typo, which only the database reads), each at
// the raw text in schema.hcl that the failing statement holds, else at the
// table it names; false when err is not only such failures.
func Generated(err error, s *compiler.Schema, targets []migration.Target) (hcl.Diagnostics, bool) {
	if err == nil || s == nil {
		return nil, false
	}
	var diags hcl.Diagnostics
	for _, e := range leaves(err) {
		var ee *scratch.ExecError
		if !errors.As(e, &ee) {
			return nil, false
		}
		dialect := ""
		for _, t := range targets {
			if t.Env.Src == ee.Source {
				dialect = t.Dialect.Name()
			}
		}
		if dialect == "" {
			return nil, false
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagError,
			Summary: fmt.Sprintf("the %s dev database refuses the generated DDL", dialect),
			Detail:  fmt.Sprintf("%s, statement %d: %v\n%s", ee.Source, ee.Stmt, ee.Err, ee.SQL)}
		d.Subject = rawTextIn(s, dialect, ee.SQL)
		if d.Subject == nil {
			return nil, false
		}
		diags = append(diags, d)
	}
	return diags, true
}

// rawTextIn is where in the model a raw text of dialect that stmt holds
// is (an override's type, default, expression or statement, a raw
// block), else the table stmt names; nil when none.
func rawTextIn(s *compiler.Schema, dialect, stmt string) *hcl.Range {
	in := func(ov compiler.Overrides) *hcl.Range {
		o := ov.For(dialect)
		if o == nil {
			return nil
		}
		for _, text := range []string{o.RawType, o.Default, o.Expr, o.SQL} {
			if strings.TrimSpace(text) != "" && strings.Contains(stmt, strings.TrimSpace(text)) {
				return rangePtr(o.Range)
			}
		}
		return nil
	}
	for _, r := range s.Raw {
		if text := strings.TrimSpace(r.SQL[dialect]); text != "" && strings.Contains(stmt, strings.TrimRight(text, ";")) {
			return rangePtr(r.Range)
		}
	}
	var named *hcl.Range
	for _, t := range s.Tables {
		found := in(t.Overrides)
		for _, c := range t.Columns {
			found = cmpOr(found, in(c.Overrides))
		}
		for _, c := range t.Checks {
			found = cmpOr(found, in(c.Overrides))
		}
		for _, i := range t.Indexes {
			found = cmpOr(found, in(i.Overrides))
		}
		if found != nil {
			return found
		}
		if named == nil && (strings.Contains(stmt, `"`+t.Name+`"`) || strings.Contains(stmt, "`"+t.Name+"`")) {
			named = rangePtr(t.Range)
		}
	}
	return named
}

func cmpOr(a, b *hcl.Range) *hcl.Range {
	if a != nil {
		return a
	}
	return b
}
