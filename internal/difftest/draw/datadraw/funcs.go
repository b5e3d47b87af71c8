package datadraw

import (
	"fmt"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
)

// The functions, casts and intervals of data migrations, drawn with the
// arguments where the databases differ: positions below 1 and beyond the
// string, negative lengths, empty strings and delimiters of several
// characters, NULL arguments, the ends of the timestamp range.

// intArg draws an integer argument: a column of the scope or a literal
// that is out of range as often as in it.
func (g *dataGen) intArg(scope []ref) string {
	if ints := same(scope, "int"); len(ints) > 0 && g.chance(0.5) {
		return pick(g.rnd, ints)
	}
	return pick(g.rnd, []string{"0", "1", "2", "3", "-1", "-2", "7", "100", "NULL"})
}

func (g *dataGen) strArg(x string, scope []ref) string {
	if strs := same(scope, "str"); len(strs) > 0 && g.chance(0.3) {
		return pick(g.rnd, strs)
	}
	if g.chance(0.8) {
		return x
	}
	return pick(g.rnd, []string{"''", "' a '", "'a-b-c'", "'é'", "NULL"})
}

// strFunc draws a string function of x (a string column) over scope.
func (g *dataGen) strFunc(x string, scope []ref) string {
	s := g.strArg(x, scope)
	switch g.n(13) {
	case 0:
		if g.chance(0.5) {
			return "substring(" + s + ", " + g.intArg(scope) + ")"
		}
		return "substring(" + s + ", " + g.intArg(scope) + ", " + g.intArg(scope) + ")"
	case 1:
		d := pick(g.rnd, []string{"' '", "'-'", "'a'", "'ab'", "'é'", "'x'"})
		n := pick(g.rnd, []string{"1", "2", "3", "-1", "-2"})
		return "split_part(" + s + ", " + d + ", " + n + ")"
	case 2:
		return "replace(" + s + ", " + pick(g.rnd, []string{"''", "'a'", "' '", "'A'", g.strArg(x, scope)}) + ", " + pick(g.rnd, []string{"''", "'-'", "'xyz'"}) + ")"
	case 3, 11:
		side := pick(g.rnd, []string{"", "LEADING ", "TRAILING ", "BOTH "})
		if side == "" && g.chance(0.5) {
			return pick(g.rnd, []string{"trim", "ltrim", "rtrim"}) + "(" + s + ")"
		}
		c := pick(g.rnd, []string{"", "'a' ", "' ' ", "'-' ", "'A' "})
		return "trim(" + side + c + "FROM " + s + ")"
	case 4:
		args := []string{s, g.strArg(x, scope)}
		if g.chance(0.5) {
			args = append(args, g.intArg(scope))
		}
		if us := same(scope, "uuid"); len(us) > 0 && g.chance(0.3) {
			args = append(args, pick(g.rnd, us))
		}
		return "concat(" + strings.Join(args, ", ") + ")"
	case 5:
		return pick(g.rnd, []string{"left", "right"}) + "(" + s + ", " + g.intArg(scope) + ")"
	case 6:
		n := pick(g.rnd, []string{"0", "1", "3", "8"})
		if g.chance(0.3) {
			return pick(g.rnd, []string{"lpad", "rpad"}) + "(" + s + ", " + n + ")"
		}
		return pick(g.rnd, []string{"lpad", "rpad"}) + "(" + s + ", " + n + ", " + pick(g.rnd, []string{"'0'", "'xy'", "'é'"}) + ")"
	case 7:
		return pick(g.rnd, []string{"greatest", "least"}) + "(" + s + ", " + g.strArg(x, scope) + ")"
	case 8:
		if dates := same(scope, "date"); len(dates) > 0 {
			return "CAST(" + pick(g.rnd, dates) + " AS text)"
		}
	case 9:
		return "CASE WHEN position(" + pick(g.rnd, []string{"' '", "'a'", "''"}) + " IN " + s + ") > 0 THEN split_part(" + s + ", ' ', 2) ELSE " + s + " END"
	case 10:
		return s + " || " + g.strFunc(x, scope)
	}
	return "concat(" + s + ", " + g.strArg(x, scope) + ")"
}

// intFunc draws an integer-valued function over scope, x an integer column.
func (g *dataGen) intFunc(x string, scope []ref) string {
	switch g.n(4) {
	case 0:
		if strs := same(scope, "str"); len(strs) > 0 {
			s := pick(g.rnd, strs)
			return "position(" + pick(g.rnd, []string{"'a'", "''", "' '", "'A'", s}) + " IN " + s + ")"
		}
	case 1:
		return pick(g.rnd, []string{"greatest", "least"}) + "(" + x + ", " + g.intArg(scope) + ", " + g.intArg(scope) + ")"
	case 2:
		if decs := same(scope, "dec"); len(decs) > 0 {
			return "CAST(" + pick(g.rnd, decs) + " AS " + pick(g.rnd, []string{"integer", "bigint", "smallint"}) + ")"
		}
	}
	return "CAST(" + x + " AS integer)"
}

// timeFunc draws a timestamp-valued expression, x a timestamp column.
func (g *dataGen) timeFunc(x string, scope []ref) string {
	switch g.n(5) {
	case 0, 4:
		return "date_trunc('day', " + x + ")"
	case 1:
		if dates := same(scope, "date"); len(dates) > 0 {
			return "CAST(" + pick(g.rnd, dates) + " AS timestamp)"
		}
	case 2:
		if ts := same(scope, "timestamp"); len(ts) > 0 {
			return pick(g.rnd, []string{"greatest", "least"}) + "(" + x + ", " + pick(g.rnd, ts) + ")"
		}
	}
	n := pick(g.rnd, []int{1, -1, 2, 30, -400, 10000})
	unit := pick(g.rnd, []string{"microsecond", "second", "minute", "hour", "day", "week", "month", "year"})
	if unit == "year" || unit == "month" || unit == "week" {
		n = max(min(n, 100), -100)
	}
	return x + " + INTERVAL '" + fmt.Sprint(n) + " " + unit + "'"
}

// decFunc draws a cast to the decimal column c's type.
func (g *dataGen) decFunc(c *difftest.Col, scope []ref) string {
	src := append(same(scope, "int"), same(scope, "dec")...)
	if len(src) == 0 || len(c.Type.Args) < 2 {
		return ""
	}
	return fmt.Sprintf("CAST(%s AS decimal(%d,%d))", pick(g.rnd, src), c.Type.Args[0], c.Type.Args[1])
}

// scalar draws a scalar subquery giving a value for column c, which
// compares another table's whole primary key (at most one row).
func (g *dataGen) scalar(c *difftest.Col, scope []ref) string {
	u := g.alias(pick(g.rnd, g.m.Tables))
	var cols []string
	for _, uc := range u.t.Cols {
		if uc.Type.String() == c.Type.String() {
			cols = append(cols, u.col(uc))
		}
	}
	if len(cols) == 0 {
		return ""
	}
	var on []string
	for _, pk := range u.t.PK {
		pc := u.t.Col(pk)
		var cands []string
		for _, r := range scope {
			for _, sc := range r.t.Cols {
				if sc.Type.String() == pc.Type.String() && comparable(sc, pc) {
					cands = append(cands, r.col(sc))
				}
			}
		}
		if len(cands) == 0 && pc.OwnIDs() {
			return "" // no literal finds the same row on both
		}
		if len(cands) == 0 {
			cands = []string{g.lit(pc)}
		}
		on = append(on, u.col(pc)+" = "+pick(g.rnd, cands))
	}
	// Pinned to one row: the checker refuses a subquery that may find more.
	where := strings.Join(on, " AND ")
	if where == "" {
		return ""
	}
	if g.chance(0.3) {
		where += " AND " + g.cond(append([]ref{u}, scope...), 0)
	}
	return "(SELECT " + pick(g.rnd, cols) + " FROM " + dq(u.t.Name) + " " + dq(u.alias) + " WHERE " + where + ")"
}

// updateFrom draws UPDATE t SET ... FROM u WHERE u's whole primary key is
// compared with columns of t, or "" when t has none of their types.
func (g *dataGen) updateFrom(t *difftest.Table) string {
	u := g.alias(pick(g.rnd, g.m.Tables))
	self := ref{t, t.Name}
	var on []string
	for _, pk := range u.t.PK {
		pc := u.t.Col(pk)
		var cands []string
		for _, c := range t.Cols {
			if c.Type.String() == pc.Type.String() && comparable(c, pc) {
				cands = append(cands, self.col(c))
			}
		}
		if len(cands) == 0 {
			return ""
		}
		on = append(on, u.col(pc)+" = "+pick(g.rnd, cands))
	}
	if len(on) == 0 {
		return ""
	}
	scope := []ref{self, u}
	var sets []string
	used := map[string]bool{}
	for range 1 + g.n(2) {
		c := pick(g.rnd, t.Cols)
		if used[c.Name] || c.As != "" || g.keyCol(t, c.Name) {
			continue
		}
		used[c.Name] = true
		sets = append(sets, dq(c.Name)+" = "+g.value(c, scope))
	}
	if len(sets) == 0 {
		return ""
	}
	where := strings.Join(on, " AND ")
	if g.chance(0.6) {
		where += " AND " + g.cond(scope, 1)
	}
	return "UPDATE " + dq(t.Name) + " SET " + strings.Join(onUpdateSets(g.m, t, sets), ", ") + " FROM " + dq(u.t.Name) + " " + dq(u.alias) + " WHERE " + where
}

// batched draws an UPDATE or DELETE in batches of a few rows, over a table
// whose primary key is one column the batches can walk, or "".
func (g *dataGen) batched(t *difftest.Table) string {
	if len(t.PK) != 1 {
		return ""
	}
	switch colClass(t.Col(t.PK[0])) {
	case "int", "uuid":
	default:
		return ""
	}
	self := []ref{{t, t.Name}}
	batch := fmt.Sprintf(" BATCH = %d", 1+g.n(3))
	if g.chance(0.3) {
		return "DELETE FROM " + dq(t.Name) + " WHERE " + g.cond(self, 1) + batch
	}
	var sets []string
	var assigned []*difftest.Col
	for range 1 + g.n(2) {
		c := pick(g.rnd, t.Cols)
		if c.As != "" || g.keyCol(t, c.Name) || strings.Contains(strings.Join(sets, ","), dq(c.Name)+" =") {
			continue
		}
		assigned = append(assigned, c)
		sets = append(sets, dq(c.Name)+" = "+g.value(c, self))
	}
	// Running the statement again must change nothing more: its values
	// read no column it sets, and no now().
	for i, c := range assigned {
		v := sets[i][len(dq(c.Name))+3:]
		for _, a := range assigned {
			if strings.Contains(v, dq(a.Name)) || strings.Contains(v, "now()") || strings.Contains(v, "SELECT") {
				sets[i] = dq(c.Name) + " = " + g.lit(c)
			}
		}
	}
	if len(sets) == 0 {
		return ""
	}
	return "UPDATE " + dq(t.Name) + " SET " + strings.Join(onUpdateSets(g.m, t, sets), ", ") + " WHERE " + g.cond(self, 1) + batch
}
