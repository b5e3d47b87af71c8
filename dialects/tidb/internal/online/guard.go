package online

import (
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// conversionGuard is a statement, run just before the type change c of
// table t, that fails naming the column when existing rows hold values
// that TiDB and PostgreSQL convert differently: a float written as text
// (hazard.FloatTextDiffers), a datetime's fraction narrowed
// (hazard.TimeRounding), a string that is not an integer's text made an
// integer (PostgreSQL refuses it). The file's pre-check lists the rows for
// schemagen's apply; the guard stops any applier, Atlas's CLI included,
// where PostgreSQL's plan stops alike.
func conversionGuard(t *schema.Table, c *schema.ModifyColumn) (hazard.Stmt, bool) {
	if !c.Change.Is(schema.ChangeType) || c.From.Type == nil || c.To.Type == nil {
		return hazard.Stmt{}, false
	}
	cond, msg := convertsDifferently(t.Name, quote(c.From.Name), c.From.Name, c.From.Type.Type, c.To.Type.Type)
	if cond == "" {
		return hazard.Stmt{}, false
	}
	return assertNone(fmt.Sprintf("SELECT 1 FROM %s WHERE %s", quote(t.Name), cond), "assertion failed: "+msg,
		fmt.Sprintf("fail on %s, which would convert differently on PostgreSQL", msg)), true
}

// timePrecision is TiDB's precision of a time type: 0 when it states none.
func timePrecision(t *schema.TimeType) int {
	if t.Precision == nil {
		return 0
	}
	return *t.Precision
}

// assertNone is a statement that fails with msg (error 1231) when query
// finds a row: as a data migration's assertion (dialects/tidb/data.go), it
// sets a session variable to a value TiDB refuses then, and to the value
// it holds otherwise.
func assertNone(query, msg, comment string) hazard.Stmt {
	if len(msg) > 200 {
		msg = strings.ToValidUTF8(msg[:200], "")
	}
	return hazard.Stmt{
		Cmd:     "SET @@session.block_encryption_mode = (SELECT IF(EXISTS (" + query + "), " + lexical.String(msg) + ", @@session.block_encryption_mode))",
		Comment: comment,
	}
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
		msg = fmt.Sprintf("rows of %s whose %s TiDB and PostgreSQL write differently as text (from 1e15, or 1e6 in a real, and below 1e-4)", table, name)
	} else if r, ok := hazard.TimeNarrowed(from, to, timePrecision); ok {
		cond = fmt.Sprintf("(%s < '2000-01-01 00:00:00' AND MOD(MICROSECOND(%s), %d) = %d) OR %s >= '%s'", col, col, r.Unit, r.Unit/2, col, r.Top())
		msg = r.Why(table, name)
	} else if _, ok := from.(*schema.StringType); ok {
		if _, ok := to.(*schema.IntegerType); ok {
			// TiDB converts '2.5' to 3 and '1e2' to 100, PostgreSQL's
			// USING col::integer fails on them.
			cond = fmt.Sprintf("NOT (%s REGEXP '^[[:space:]]*[-+]?[0-9]+[[:space:]]*$')", col)
			msg = fmt.Sprintf("rows of %s whose %s is no integer's text, which TiDB converts and PostgreSQL refuses", table, name)
		}
	}
	return cond, msg
}

// virtualNotNullGuard is a statement, run just before a VIRTUAL generated
// column with NOT NULL is added to table t, that fails when its expression
// is NULL on an existing row: TiDB computes a VIRTUAL column when it is
// read and so adds it over such rows, where PostgreSQL, which stores it,
// fails (23502; plan oracle, evolution 94141282462: upper(c4) over a NULL
// c4). The file's pre-check finds the same rows (virtualNullRows).
func virtualNotNullGuard(t *schema.Table, c *schema.AddColumn) (hazard.Stmt, bool) {
	cond := virtualNullRows(c)
	if cond == "" {
		return hazard.Stmt{}, false
	}
	msg := fmt.Sprintf("rows of %s where %s, generated and NOT NULL, would be NULL", t.Name, c.C.Name)
	return assertNone(fmt.Sprintf("SELECT 1 FROM %s WHERE %s", quote(t.Name), cond), "assertion failed: "+msg,
		fmt.Sprintf("fail on %s, which PostgreSQL refuses and TiDB would add (it computes the column when read)", msg)), true
}

// virtualNullRows is a condition true of the rows where the VIRTUAL
// generated column with NOT NULL that c adds would be NULL, or "".
func virtualNullRows(c *schema.AddColumn) string {
	if c.C.Type == nil || c.C.Type.Null {
		return ""
	}
	for _, a := range c.C.Attrs {
		if g, ok := a.(*schema.GeneratedExpr); ok && !strings.EqualFold(g.Type, "STORED") {
			return "(" + g.Expr + ") IS NULL"
		}
	}
	return ""
}
