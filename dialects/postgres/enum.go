package postgres

import (
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
)

// enumChanges checks the plan's changes of enum types and completes its
// column changes to an enum type. PostgreSQL only adds values to an enum
// (ALTER TYPE ... ADD VALUE, which Atlas plans BEFORE or AFTER a
// neighbour); a change that removes or reorders values is refused with what
// to write instead (Atlas refuses some such changes and silently drops the
// removal of a last value). A column changed to an enum from another type
// gets USING "col"::text::"enum", which PostgreSQL needs for any such cast;
// values the enum lacks then make the statement fail.
func enumChanges(changes []schema.Change) (added map[string][]string, err error) {
	added = map[string][]string{}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.ModifyObject:
			from, ok1 := c.From.(*schema.EnumType)
			to, ok2 := c.To.(*schema.EnumType)
			if !ok1 || !ok2 {
				continue
			}
			if msg := enumEdit(from.Values, to.Values); msg != "" {
				return nil, &hazard.Refusal{Database: "PostgreSQL",
					Change:  fmt.Sprintf("the change of enum %q (%s to %s)", from.T, enumList(from.Values), enumList(to.Values)),
					Reason:  msg + ". PostgreSQL only adds values to an enum type",
					Instead: fmt.Sprintf("Instead declare a new enum with the values you want (enum %q), change the columns to it (type = enum.%s: the migration converts their values as text, and fails on a row holding a value the new enum lacks: update those rows in a data migration first), and remove the old enum in a later migration", from.T+"_v2", from.T+"_v2")}
			}
			for _, v := range to.Values {
				if !slices.Contains(from.Values, v) {
					added[from.T] = append(added[from.T], v)
				}
			}
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				mc, ok := sc.(*schema.ModifyColumn)
				if !ok || !mc.Change.Is(schema.ChangeType) {
					continue
				}
				to, ok := mc.To.Type.Type.(*schema.EnumType)
				if !ok {
					continue
				}
				if from, ok := mc.From.Type.Type.(*schema.EnumType); ok && from.T == to.T {
					continue
				}
				if !slices.ContainsFunc(mc.Extra, func(x schema.Clause) bool { _, ok := x.(*postgres.ConvertUsing); return ok }) {
					mc.Extra = append(mc.Extra, &postgres.ConvertUsing{X: Ident(mc.To.Name) + "::text::" + Ident(to.T)})
				}
			}
		}
	}
	return added, nil
}

// enumEdit says why to is not from with values added (a value removed, two
// kept values in another order), or "".
func enumEdit(from, to []string) string {
	var gone []string
	for _, v := range from {
		if !slices.Contains(to, v) {
			gone = append(gone, v)
		}
	}
	if len(gone) > 0 {
		return "it removes " + enumList(gone)
	}
	at := 0
	for _, v := range to {
		if at < len(from) && v == from[at] {
			at++
		} else if slices.Contains(from, v) {
			return "it reorders " + String(v)
		}
	}
	return ""
}

func enumList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = String(v)
	}
	return "(" + strings.Join(q, ", ") + ")"
}

// newEnumValueUses refuses a plan whose other statements name a value that
// the plan adds to an enum: PostgreSQL refuses to use a new value before the
// transaction that added it commits (55P04, "unsafe use of new value"), on
// every supported version, so the file would never apply. A string literal
// equal to the value counts as a use, wherever it is, and so does a column
// converted to the enum.
func newEnumValueUses(added map[string][]string, stmts []hazard.Stmt) error {
	for enum, values := range added {
		for _, v := range values {
			lit := String(v)
			for _, s := range stmts {
				convert := strings.Contains(s.Cmd, "::text::"+Ident(enum))
				if strings.HasPrefix(s.Cmd, "ALTER TYPE ") || !strings.Contains(s.Cmd, lit) && !convert {
					continue
				}
				if convert {
					return &hazard.Refusal{Database: "PostgreSQL",
						Change:  fmt.Sprintf("a column's change to enum %q in the migration that adds %s to it", enum, lit),
						Reason:  "PostgreSQL cannot use a new enum value before the transaction that added it commits (55P04), and converting the column may give it",
						Instead: "Make two migrations: first add the value (schemagen migrate diff), then change the column in the next one. The statement is:\n" + s.Cmd}
				}
				return &hazard.Refusal{Database: "PostgreSQL",
					Change:  fmt.Sprintf("the use of value %s in the migration that adds it to enum %q", lit, enum),
					Reason:  "PostgreSQL cannot use a new enum value before the transaction that added it commits (55P04)",
					Instead: "Make two migrations: first add the value (schemagen migrate diff), then use it (a default, a CHECK, an index predicate) in the next one. The statement is:\n" + s.Cmd}
			}
		}
	}
	return nil
}
