package cli

import (
	"fmt"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/cli/refusal"
	"github.com/schemagen/schemagen/internal/migration"
)

// refusals turns migrate diff refusing the model's changes into findings
// (exit 1), printed at schema.hcl where each change is. Other errors are
// returned as they are.
func (a *App) refusals(err error, s *compiler.Schema) error {
	diags, ok := refusal.Diagnostics(err, s)
	if !ok {
		return err
	}
	a.printDiags(s.Files, diags)
	return findings{fmt.Sprintf("migrate diff refused %d change%s of the model; nothing was written.", len(diags), plural(len(diags)))}
}

// generatedFailures turns the generated DDL failing to load on a dev
// database into findings printed at the raw text in schema.hcl that the
// failing statement holds. Other errors are returned as they are.
func (a *App) generatedFailures(err error, s *compiler.Schema, targets []migration.Target) error {
	diags, ok := refusal.Generated(err, s, targets)
	if !ok {
		return err
	}
	a.printDiags(s.Files, diags)
	return findings{fmt.Sprintf("%d statement%s of the generated DDL refused; fix schema.hcl where shown, then run `schemagen generate`.", len(diags), plural(len(diags)))}
}

func plural(n int) string { return map[bool]string{true: "", false: "s"}[n == 1] }
