package postgres

import (
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/datacheck"
)

// int4 renders an integer argument of a function that takes PostgreSQL's
// integer: a value beyond its range fails (22003), as TiDB's rendering
// fails (1690).
func int4(sql string, n expr.Node) string {
	if datacheck.Int4Const(n) {
		return sql
	}
	return "CAST(" + sql + " AS integer)"
}

// notNegative renders a length whose negative values mean 0 (TiDB's
// meaning; PostgreSQL refuses them or counts them from the end).
func notNegative(sql string, n expr.Node) string {
	if v, ok := datacheck.IntConst(n); ok {
		return strconv.FormatInt(max(v, 0), 10)
	}
	x := int4(sql, n)
	return "CASE WHEN " + x + " < 0 THEN 0 ELSE " + x + " END"
}

// Func implements render.DataSyntax; docs/data-migrations.md gives each
// function's meaning.
func (dataSyntax) Func(c *expr.Call, args []string) string {
	a := c.Args
	switch c.Name {
	case "substring":
		if len(args) == 2 {
			return "substr(" + args[0] + ", " + int4(args[1], a[1]) + ")"
		}
		return "substr(" + args[0] + ", " + int4(args[1], a[1]) + ", " + notNegative(args[2], a[2]) + ")"
	case "position":
		return "position(" + args[0] + " IN " + args[1] + ")"
	case "trim", "ltrim", "rtrim":
		side := map[string]string{"trim": "BOTH", "ltrim": "LEADING", "rtrim": "TRAILING"}[c.Name]
		chars := "' '"
		if len(args) == 2 {
			chars = args[1]
		}
		return "trim(" + side + " " + chars + " FROM " + args[0] + ")"
	case "left", "right":
		return c.Name + "(" + args[0] + ", " + notNegative(args[1], a[1]) + ")"
	case "lpad", "rpad":
		if len(args) == 2 {
			args = append(args, "' '")
		}
	case "concat":
		// concat takes any type and writes a char(n) with its padding
		// (bpchar's text); TiDB's CHAR drops trailing spaces, as
		// PostgreSQL's cast to text does. The other string functions
		// take text, to which PostgreSQL casts char(n) itself.
		for i := range args {
			if _, lit := datacheck.StringConst(a[i]); !lit {
				args[i] = "CAST(" + args[i] + " AS text)"
			}
		}
	case "date_trunc":
		return "date_trunc('day', " + args[1] + ", 'UTC')"
	case "greatest", "least":
		if c.Kind == expr.KindString {
			// Bytewise, as TiDB's rendering compares, whatever the database's collation.
			for i := range args {
				args[i] += ` COLLATE "C"`
			}
		}
	}
	return c.Name + "(" + strings.Join(args, ", ") + ")"
}

// AddInterval implements render.DataSyntax: in UTC, as TiDB's DATETIME
// holds it, whatever the session's time zone (a day is not always 24
// hours in another one).
// A result outside the years 1 to 9999, which TiDB's DATETIME holds, is
// NULL, as TiDB gives it.
func (dataSyntax) AddInterval(x string, n int64, unit string) string {
	r := "(((" + x + ") AT TIME ZONE 'UTC' + INTERVAL '" + strconv.FormatInt(n, 10) + " " + unit + "') AT TIME ZONE 'UTC')"
	return "(CASE WHEN " + r + " >= '0001-01-01 00:00:00+00' AND " + r + " < '10000-01-01 00:00:00+00' THEN " + r + " END)"
}

// CastTo implements render.DataSyntax.
func (dataSyntax) CastTo(x string, from, to expr.Kind, typ string) string {
	switch to {
	case expr.KindDate:
		if from == expr.KindTime {
			return "CAST((" + x + ") AT TIME ZONE 'UTC' AS date)"
		}
		return "CAST(" + x + " AS date)"
	case expr.KindTime:
		if from == expr.KindDate {
			return "(CAST(" + x + " AS timestamp) AT TIME ZONE 'UTC')"
		}
		return "CAST(" + x + " AS timestamptz)"
	case expr.KindNumeric:
		return "CAST(" + x + " AS numeric" + strings.TrimPrefix(strings.TrimPrefix(typ, "decimal"), "numeric") + ")"
	}
	return "CAST(" + x + " AS " + typ + ")"
}
