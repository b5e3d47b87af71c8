// Package datafunc renders the functions and casts of data migrations for
// TiDB, with PostgreSQL's meaning (docs/data-migrations.md).
package datafunc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/datacheck"
)

// int4 renders an integer argument that PostgreSQL reads as its integer:
// a value beyond that range fails, as it fails there (22003). Multiplied
// by 2^32, exactly such a value leaves BIGINT's range (1690).
func int4(sql string, n expr.Node) string {
	if datacheck.Int4Const(n) {
		return sql
	}
	return "(" + sql + " * 4294967296 DIV 4294967296)"
}

// Call renders the call c of its arguments args; docs/data-migrations.md
// gives each function's meaning, PostgreSQL's where TiDB's differs.
func Call(c *expr.Call, args []string) string {
	a := c.Args
	switch c.Name {
	case "substring":
		// PostgreSQL counts positions before the first: substr('abc', 0, 2)
		// is 'a'; TiDB's SUBSTRING counts a position below 1 from the end.
		start := int4(args[1], a[1])
		from := "GREATEST(" + start + ", 1)"
		if len(args) == 2 {
			return "SUBSTRING(" + args[0] + ", " + from + ")"
		}
		return "SUBSTRING(" + args[0] + ", " + from + ", " + start + " + " + int4(args[2], a[2]) + " - " + from + ")"
	case "position":
		// The connection's collation may ignore case (the driver's default
		// is utf8mb4_general_ci); PostgreSQL's position does not.
		return "LOCATE(" + exactly(args[0], a[0]) + ", " + exactly(args[1], a[1]) + ")"
	case "split_part":
		// SUBSTRING_INDEX gives the last field when there are fewer than
		// n, PostgreSQL ''.
		n, _ := datacheck.IntConst(a[2])
		d, _ := datacheck.StringConst(a[1])
		fields := "(CHAR_LENGTH(" + args[0] + ") - CHAR_LENGTH(REPLACE(" + args[0] + ", " + args[1] + ", ''))) DIV " + strconv.Itoa(len([]rune(d))) + " + 1"
		pick := "SUBSTRING_INDEX(SUBSTRING_INDEX(" + args[0] + ", " + args[1] + ", " + strconv.FormatInt(n, 10) + "), " + args[1] + ", -1)"
		if n < 0 {
			pick = "SUBSTRING_INDEX(SUBSTRING_INDEX(" + args[0] + ", " + args[1] + ", " + strconv.FormatInt(n, 10) + "), " + args[1] + ", 1)"
			n = -n
		}
		return "(CASE WHEN " + fields + " < " + strconv.FormatInt(n, 10) + " THEN '' ELSE " + pick + " END)"
	case "trim", "ltrim", "rtrim":
		side := map[string]string{"trim": "BOTH", "ltrim": "LEADING", "rtrim": "TRAILING"}[c.Name]
		chars := "' '"
		if len(args) == 2 {
			chars = args[1]
		}
		return "TRIM(" + side + " " + chars + " FROM " + args[0] + ")"
	case "concat":
		// PostgreSQL's concat leaves NULLs out; TiDB's CONCAT gives NULL.
		return "CONCAT_WS(''" + ", " + strings.Join(args, ", ") + ")"
	case "left", "right":
		// A negative length gives '' (PostgreSQL's rendering says so too).
		return strings.ToUpper(c.Name) + "(" + args[0] + ", " + int4(args[1], a[1]) + ")"
	case "lpad", "rpad":
		if len(args) == 2 {
			args = append(args, "' '")
		}
	case "greatest", "least":
		// PostgreSQL leaves NULLs out, TiDB gives NULL: each argument is
		// itself, else another that is not NULL.
		if c.Kind == expr.KindString {
			// PostgreSQL's schemagen databases compare strings bytewise.
			for i := range args {
				args[i] = exactly(args[i], a[i])
			}
		}
		out := make([]string, len(args))
		for i := range args {
			others := append([]string{args[i]}, args[:i]...)
			out[i] = "COALESCE(" + strings.Join(append(others, args[i+1:]...), ", ") + ")"
		}
		return strings.ToUpper(c.Name) + "(" + strings.Join(out, ", ") + ")"
	case "date_trunc":
		return "CAST(DATE(" + args[1] + ") AS DATETIME(6))"
	}
	return strings.ToUpper(c.Name) + "(" + strings.Join(args, ", ") + ")"
}

// exact is the collation that compares strings as PostgreSQL's C does.
const exact = "utf8mb4_0900_bin"

// exactly gives the string sql (the argument n) the collation exact; a
// NULL has none (its character set is binary: 1253).
func exactly(sql string, n expr.Node) string {
	if lit, ok := expr.Unparen(n).(*expr.Literal); ok && lit.Kind == expr.LitNull {
		return sql
	}
	return sql + " COLLATE " + exact
}

// AddInterval renders x + INTERVAL 'n unit'. A result beyond the years 1
// to 9999 is NULL, as the PostgreSQL rendering makes it: DATE_ADD would
// give NULL in a query but fail (1441) in a statement that writes, so it
// runs only on the values whose result is in range (the checker bounds n
// so that the bound is one).
func AddInterval(x string, n int64, unit string) string {
	iv := func(n int64) string { return "INTERVAL " + strconv.FormatInt(n, 10) + " " + strings.ToUpper(unit) }
	cond := x + " <= DATE_ADD(CAST('9999-12-31 23:59:59.999999' AS DATETIME(6)), " + iv(-n) + ")"
	if n < 0 {
		cond = x + " >= DATE_ADD(CAST('0001-01-01 00:00:00' AS DATETIME(6)), " + iv(-n) + ")"
	}
	return "(CASE WHEN " + cond + " THEN DATE_ADD(" + x + ", " + iv(n) + ") END)"
}

// overflow is a term that is 0 while cond is false and fails (1690) when
// it is true, as PostgreSQL fails a value out of a type's range (22003).
func overflow(cond string) string {
	return "((" + cond + ") * 9223372036854775807 * 2)"
}

// CastTo renders the cast of x (of kind from) to kind to (type typ).
func CastTo(x string, from, to expr.Kind, typ string) string {
	switch to {
	case expr.KindDate:
		return "CAST(" + x + " AS DATE)"
	case expr.KindTime:
		return "CAST(" + x + " AS DATETIME(6))"
	case expr.KindNumeric:
		// TiDB clips a value that does not fit to the largest that does.
		ps := strings.TrimPrefix(strings.TrimPrefix(typ, "decimal"), "numeric")
		var p, s int
		fmt.Sscanf(ps, "(%d,%d)", &p, &s)
		limit := "1" + strings.Repeat("0", p-s)
		// Compared without ABS, which overflows BIGINT's least value (1690).
		r := "ROUND(" + x + ", " + strconv.Itoa(s) + ")"
		return "(CAST(" + x + " AS DECIMAL" + ps + ") + " + overflow("("+r+" >= "+limit+" OR "+r+" <= -"+limit+")") + ")"
	}
	switch typ {
	case "integer":
		return int4("CAST("+x+" AS SIGNED)", nil)
	case "smallint":
		return "(CAST(" + x + " AS SIGNED) * 281474976710656 DIV 281474976710656)"
	}
	// CAST clips a decimal beyond BIGINT's range.
	if from == expr.KindNumeric {
		return "(CAST(" + x + " AS SIGNED) + " + overflow(x+" >= 9223372036854775807.5 OR "+x+" <= -9223372036854775808.5") + ")"
	}
	return "CAST(" + x + " AS SIGNED)"
}
