package online

import (
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// conversionGuard is a statement, run just before the type change c of
// table t, that fails naming the column when existing rows hold values
// that PostgreSQL and TiDB convert differently: a float written as text
// (hazard.FloatTextDiffers), a timestamp's fraction narrowed
// (hazard.TimeRounding). The file's pre-check lists the rows for
// schemagen's apply; the guard stops any applier, Atlas's CLI included,
// where TiDB's plan stops alike.
func conversionGuard(t *schema.Table, c *schema.ModifyColumn) (hazard.Stmt, bool) {
	if !c.Change.Is(schema.ChangeType) || c.From.Type == nil || c.To.Type == nil {
		return hazard.Stmt{}, false
	}
	cond, msg := convertsDifferently(t.Name, ident(c.From.Name), c.From.Name, c.From.Type.Type, c.To.Type.Type)
	if cond == "" {
		return hazard.Stmt{}, false
	}
	return hazard.Stmt{
		Cmd:     lexical.RaiseIfAny(fmt.Sprintf("SELECT 1 FROM %s WHERE %s", ident(t.Name), cond), "assertion failed: "+msg),
		Comment: fmt.Sprintf("fail on %s, which would convert differently on TiDB", msg),
	}, true
}

// timePrecision is PostgreSQL's precision of a time type: 6 when it
// states none.
func timePrecision(t *schema.TimeType) int {
	if t.Precision == nil {
		return 6
	}
	return *t.Precision
}

// convertsDifferently is a condition true of the values of column name of
// table (quoted col) that the databases convert differently from type from
// to type to, with what it finds; "" when none does.
func convertsDifferently(table, col, name string, from, to schema.Type) (cond, msg string) {
	if ft, ok := from.(*schema.FloatType); ok {
		if _, ok := to.(*schema.StringType); !ok {
			return "", ""
		}
		cond = hazard.FloatTextDiffers(col, ft)
		msg = fmt.Sprintf("rows of %s whose %s PostgreSQL and TiDB write differently as text (from 1e15, or 1e6 in a real, and below 1e-4)", table, name)
	} else if r, ok := hazard.TimeNarrowed(from, to, timePrecision); ok {
		zone := ""
		if ft := from.(*schema.TimeType); strings.Contains(ft.T, "tz") || strings.Contains(ft.T, "with time zone") {
			zone = "+00"
		}
		cond = fmt.Sprintf("(%s < '2000-01-01 00:00:00%s' AND EXTRACT(MICROSECONDS FROM %s)::bigint %% %d = %d) OR %s >= '%s%s'",
			col, zone, col, r.Unit, r.Unit/2, col, r.Top(), zone)
		msg = r.Why(table, name)
	}
	return cond, msg
}
