// Package datacheck holds the checks of the data language (compiler/expr's
// data statements) that CHECKs and index expressions do not need: its
// functions, casts and batches, each refused where the databases would
// give different results (docs/data-migrations.md). It sets expr.DataChecks
// when linked in.
package datacheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schemagen/schemagen/compiler/expr"
)

// MaxPad is the longest result of lpad and rpad: TiDB gives NULL beyond
// its max_allowed_packet where PostgreSQL builds the string.
const MaxPad = 10000

// IntConst returns the value of an integer literal, with its sign.
func IntConst(n expr.Node) (int64, bool) {
	neg := false
	if m, ok := expr.Unparen(n).(*expr.Neg); ok {
		neg, n = true, m.X
	}
	lit, ok := expr.Unparen(n).(*expr.Literal)
	if !ok || lit.Kind != expr.LitNumber {
		return 0, false
	}
	v := lit.Value
	if neg {
		v = "-" + v
	}
	i, err := strconv.ParseInt(strings.Replace(v, "--", "", 1), 10, 64)
	return i, err == nil
}

// Int4Const reports whether n is an integer literal within PostgreSQL's
// integer, which a function's integer argument needs no range check for.
func Int4Const(n expr.Node) bool {
	v, ok := IntConst(n)
	return ok && v >= -1<<31 && v < 1<<31
}

// StringConst returns the value of a string literal.
func StringConst(n expr.Node) (string, bool) {
	lit, ok := expr.Unparen(n).(*expr.Literal)
	if !ok || lit.Kind != expr.LitString {
		return "", false
	}
	return lit.Value, true
}

func init() {
	expr.DataChecks.Call = call
	expr.DataChecks.Cast = cast
	expr.DataChecks.Batch = batch
	expr.DataChecks.Pinned = pinned
	expr.DataChecks.Scalar = scalar
}

// call checks a call of one of expr.DataFunctions and returns its kind.
func call(a expr.Checker, n *expr.Call) expr.Kind {
	args := n.Args
	arity := func(lo, hi int) bool {
		if len(args) < lo || len(args) > hi {
			if lo == hi {
				a.Errorf(n, "the function %s takes %d argument(s), not %d", n.Name, lo, len(args))
			} else if hi > 100 {
				a.Errorf(n, "the function %s takes %d or more arguments, not %d", n.Name, lo, len(args))
			} else {
				a.Errorf(n, "the function %s takes %d to %d arguments, not %d", n.Name, lo, hi, len(args))
			}
			for _, x := range args {
				a.Kind(x)
			}
			return false
		}
		return true
	}
	str := func(i int) { a.Want(args[i], expr.KindString, n.Name) }
	integer := func(i int) {
		if k := a.Kind(args[i]); k != expr.KindInteger && k != expr.KindNull && k != expr.KindUnknown {
			a.Errorf(args[i], "the operand of %s must be an integer, not %s", n.Name, k)
		}
	}
	// A literal argument that the dialects cannot render alike.
	literal := func(i int, what string, ok func(string) bool) {
		if v, isStr := StringConst(args[i]); !isStr || !ok(v) {
			a.Errorf(args[i], "%s", what)
		}
	}
	if constant(args...) {
		a.Errorf(n, "the arguments of %s are constants: write its value (PostgreSQL computes it when it plans the statement, and fails there on a value that does not fit even when no row is written; TiDB computes it for each row)", n.Name)
	}
	switch n.Name {
	case "substring":
		if !arity(2, 3) {
			return expr.KindString
		}
		str(0)
		integer(1)
		if len(args) == 3 {
			integer(2)
		}
	case "position":
		if arity(2, 2) {
			str(0)
			str(1)
		}
		return expr.KindInteger
	case "split_part":
		if !arity(3, 3) {
			return expr.KindString
		}
		str(0)
		literal(1, "the delimiter of split_part must be a string literal that is not empty: PostgreSQL splits by '' into one field, TiDB's SUBSTRING_INDEX into none", func(s string) bool { return s != "" })
		a.Kind(args[2])
		if v, ok := IntConst(args[2]); !ok || v == 0 || v > 1000 || v < -1000 {
			a.Errorf(args[2], "the field of split_part must be a whole number from 1 to 1000, or from -1 to -1000 (counted from the end), written as a literal: PostgreSQL refuses 0")
		}
	case "replace":
		if arity(3, 3) {
			str(0)
			str(1)
			str(2)
		}
	case "trim", "ltrim", "rtrim":
		if !arity(1, 2) {
			return expr.KindString
		}
		str(0)
		if len(args) == 2 {
			literal(1, "the characters trim removes must be one character in a string literal: PostgreSQL removes any of a set of characters, TiDB a whole string repeated", func(s string) bool { return utf8.RuneCountInString(s) == 1 })
		}
	case "concat":
		if !arity(1, 1000) {
			return expr.KindString
		}
		for _, x := range args {
			switch k := a.Kind(x); k {
			case expr.KindString, expr.KindUUID, expr.KindInteger, expr.KindNull, expr.KindUnknown, expr.KindEnum:
			default:
				a.Errorf(x, "concat of %s has no portable form: PostgreSQL and TiDB write %s values as different text; concatenate strings, integers and uuids", k, k)
			}
		}
	case "left", "right":
		if arity(2, 2) {
			str(0)
			integer(1)
		}
	case "lpad", "rpad":
		if !arity(2, 3) {
			return expr.KindString
		}
		str(0)
		a.Kind(args[1])
		if v, ok := IntConst(args[1]); !ok || v < 0 || v > MaxPad {
			a.Errorf(args[1], "the length of %s must be a whole number from 0 to %d, written as a literal: beyond TiDB's packet size it gives NULL where PostgreSQL builds the string", n.Name, MaxPad)
		}
		if len(args) == 3 {
			literal(2, "the fill of "+n.Name+" must be a string literal that is not empty: PostgreSQL then leaves the string unpadded, TiDB gives NULL", func(s string) bool { return s != "" })
		}
	case "greatest", "least":
		if !arity(2, 20) {
			return expr.KindUnknown
		}
		k := a.OneKind(n)
		switch k {
		case expr.KindInteger, expr.KindNumeric, expr.KindString, expr.KindTime, expr.KindDate, expr.KindUnknown:
		default:
			a.Errorf(n, "%s of %s values has no portable form: PostgreSQL and TiDB order them differently", n.Name, k)
		}
		return k
	case "date_trunc":
		if !arity(2, 2) {
			return expr.KindTime
		}
		literal(0, "date_trunc truncates to 'day' (in UTC); other units have no portable form here", func(s string) bool { return s == "day" })
		switch k := a.Kind(args[1]); k {
		case expr.KindTime, expr.KindNull, expr.KindUnknown:
		default:
			a.Errorf(args[1], "the operand of date_trunc must be a timestamp, not %s", k)
		}
		return expr.KindTime
	}
	return expr.KindString
}

// constant reports whether the values xs read no column, subquery or
// now().
func constant(xs ...expr.Node) bool {
	c := true
	for _, x := range xs {
		expr.Walk(x, func(n expr.Node) bool {
			switch n := n.(type) {
			case *expr.Column, *expr.Subquery, *expr.Exists, *expr.InSelect:
				c = false
			case *expr.Call:
				if n.Name == "now" {
					c = false
				}
			}
			return c
		})
	}
	return c
}

// cast checks a cast and returns the kind it gives.
func cast(a expr.Checker, n *expr.Cast) expr.Kind {
	to := n.To
	if to == expr.KindUnknown {
		to = expr.KindString
	}
	if to != expr.KindString && constant(n.X) {
		a.Errorf(n, "the cast of a constant: write the value (PostgreSQL computes it when it plans the statement, and fails there on a value that does not fit even when no row is written; TiDB computes it for each row)")
	}
	k := a.Kind(n.X)
	ok := k == expr.KindNull || k == expr.KindUnknown || k == to
	why := ""
	switch to {
	case expr.KindString:
		ok = ok || k == expr.KindInteger || k == expr.KindUUID || k == expr.KindEnum || k == expr.KindDate
		why = "PostgreSQL and TiDB write such values as different text"
	case expr.KindInteger:
		ok = ok || k == expr.KindNumeric
		why = "PostgreSQL refuses text that is not a number where TiDB reads its leading digits"
	case expr.KindNumeric:
		ok = ok || k == expr.KindInteger
		why = "cast integers and decimals to decimal(p,s)"
		var p, sc int
		if _, err := fmt.Sscanf(n.Type[strings.Index(n.Type, "(")+1:], "%d,%d)", &p, &sc); err != nil || !strings.Contains(n.Type, "(") || p < 1 || p > 65 || sc < 0 || sc > 30 || sc > p {
			a.Errorf(n, "a cast to %s has no portable form: write decimal(p,s) with p from 1 to 65 and s from 0 to 30, at most p (TiDB's DECIMAL alone is decimal(10,0), PostgreSQL's numeric has no limit)", n.Type)
		}
	case expr.KindDate:
		ok = ok || k == expr.KindTime
		why = "the databases read dates from text differently; cast timestamps"
	case expr.KindTime:
		ok = ok || k == expr.KindDate
		why = "the databases read instants from text differently; cast dates"
	}
	if !ok {
		name := to.String()
		if to == expr.KindString {
			name = "text"
		}
		a.Errorf(n, "a cast of %s to %s has no portable form: %s", k, name, why)
	}
	return to
}

// batch checks BATCH = n: the target's primary key is one column, by
// which the batches walk the table, and running the statement again over
// rows it changed changes nothing more, so that a batch interrupted and
// run again, or the whole statement run again from its start, gives the
// rows running it once gives.
func batch(a expr.Checker, t *expr.TableRef, n, off int, set []expr.Assign) {
	if n == 0 {
		return
	}
	ct := a.Table(t.Name)
	if ct == nil {
		return
	}
	if len(ct.Key) != 1 {
		a.ErrAt(off, "BATCH walks %s by its primary key, which must be one column (it has %d)", t.Name, len(ct.Key))
		return
	}
	switch k := ct.Column(ct.Key[0]).Kind; k {
	case expr.KindInteger, expr.KindUUID:
	default:
		a.ErrAt(off, "BATCH walks %s by its primary key %s, which must be an integer or a uuid (whose least and greatest values both databases order alike), not %s", t.Name, ct.Key[0], k)
	}
	assigned := map[string]bool{}
	for _, as := range set {
		assigned[as.Column.Name] = true
	}
	if assigned[ct.Key[0]] {
		a.ErrAt(off, "a batched UPDATE cannot set the primary key %s, by which the batches walk the table", ct.Key[0])
	}
	for _, as := range set {
		expr.Walk(as.Value, func(x expr.Node) bool {
			switch x := x.(type) {
			case *expr.Column:
				if assigned[x.Name] && ownerIn(x, t) {
					a.Errorf(x, "a batched UPDATE must give the same rows when run again (a batch interrupted is run again): its values cannot read the columns it sets (%s)", x.Name)
				}
			case *expr.Call:
				if x.Name == "now" {
					a.Errorf(x, "a batched UPDATE must give the same rows when run again (a batch interrupted is run again): now() changes between runs")
				}
			case *expr.Subquery, *expr.Exists, *expr.InSelect:
				if reads(x, t.Name) {
					a.Errorf(x, "a batched UPDATE must give the same rows when run again: its values cannot read the table it updates (%s) through a subquery", t.Name)
				}
			}
			return true
		})
	}
}

// ownerIn reports whether the column x, in a value of UPDATE t, is t's.
func ownerIn(x *expr.Column, t *expr.TableRef) bool {
	return x.Table == "" || x.Table == t.Ref()
}

// reads reports whether a subquery below n names the table name.
func reads(n expr.Node, name string) bool {
	found := false
	var sel func(q *expr.Select)
	sel = func(q *expr.Select) {
		if q.From != nil && q.From.Name == name {
			found = true
		}
		for _, j := range q.Joins {
			found = found || j.Table.Name == name
		}
	}
	expr.Walk(n, func(x expr.Node) bool {
		switch x := x.(type) {
		case *expr.Subquery:
			sel(x.Sub)
		case *expr.Exists:
			sel(x.Sub)
		case *expr.InSelect:
			sel(x.Sub)
		}
		return !found
	})
	return found
}

// pinned refuses UPDATE ... FROM unless each row of the target meets at
// most one row of the other tables: when it meets several, each database
// writes one of them, not the same one. A table is pinned when the
// conditions compare every column of its primary key or of a unique key
// with = to a value of the tables before it (the target first) or a
// constant.
func pinned(a expr.Checker, u *expr.Update) {
	pin(a, map[string]bool{u.Table.Ref(): true}, u.From, u.Where, func(ref *expr.TableRef, key, before string) {
		a.ErrAt(ref.Offset(), "each row of %s must meet at most one row of %s (else each database writes another): compare its primary key (%s) or a unique key with = to columns of %s or constants, in WHERE or its ON", u.Table.Name, ref.Name, key, before)
	})
}

// scalar refuses a scalar subquery that may find more than one row: TiDB
// may evaluate it, and fail, where PostgreSQL does not (for the rows an
// UPDATE does not match), so it is pinned as UPDATE ... FROM is, to the
// values of the queries around it.
func scalar(a expr.Checker, q *expr.Select) {
	if q.From == nil {
		return
	}
	known := map[string]bool{"": true}
	for _, r := range a.Outer() {
		known[r] = true
	}
	pin(a, known, q, q.Where, func(ref *expr.TableRef, key, _ string) {
		a.ErrAt(ref.Offset(), "a scalar subquery must find at most one row (TiDB may fail on more where PostgreSQL does not look): compare the primary key (%s) or a unique key of %s with = to values of the query around it, of the tables before it, or constants", key, ref.Name)
	})
}

// pin checks that each table of from (its FROM, then its joins) meets at
// most one row for each row of the tables known: conditions of where (or
// of its own ON) compare every column of its primary key or of a unique
// key with = to values of the tables before it or constants.
func pin(a expr.Checker, known map[string]bool, from *expr.Select, where expr.Node, refuse func(ref *expr.TableRef, key, before string)) {
	conds := conjuncts(where, nil)
	refs := []*expr.TableRef{from.From}
	ons := [][]expr.Node{nil}
	left := []bool{false}
	for _, j := range from.Joins {
		refs = append(refs, j.Table)
		ons = append(ons, conjuncts(j.On, nil))
		left = append(left, j.Left)
	}
	for i, ref := range refs {
		t := a.Table(ref.Name)
		if t == nil {
			return
		}
		eqs := map[string]bool{}
		cs := ons[i]
		if !left[i] {
			cs = append(slices.Clip(conds), cs...)
		}
		for _, c := range cs {
			b, ok := expr.Unparen(c).(*expr.Binary)
			if !ok || b.Op != expr.OpEq {
				continue
			}
			for _, side := range [][2]expr.Node{{b.L, b.R}, {b.R, b.L}} {
				col, ok := expr.Unparen(side[0]).(*expr.Column)
				if ok && a.Owner(col) == ref.Ref() && over(a, side[1], known) {
					eqs[col.Name] = true
				}
			}
		}
		keys := append([][]string{t.Key}, t.Uniques...)
		if !slices.ContainsFunc(keys, func(k []string) bool {
			return len(k) > 0 && !slices.ContainsFunc(k, func(c string) bool { return !eqs[c] })
		}) {
			var before []string
			for r := range known {
				if r != "" {
					before = append(before, r)
				}
			}
			slices.Sort(before)
			key := strings.Join(t.Key, ", ")
			if key == "" {
				key = "a unique key"
			}
			refuse(ref, key, strings.Join(before, ", "))
		}
		known[ref.Ref()] = true
	}
}

// conjuncts appends the terms of the AND chain n to out.
func conjuncts(n expr.Node, out []expr.Node) []expr.Node {
	if n == nil {
		return out
	}
	if b, ok := expr.Unparen(n).(*expr.Binary); ok && b.Op == expr.OpAnd {
		return conjuncts(b.R, conjuncts(b.L, out))
	}
	return append(out, n)
}

// over reports whether x reads only columns of the tables known, without
// subqueries.
func over(a expr.Checker, x expr.Node, known map[string]bool) bool {
	ok := true
	expr.Walk(x, func(n expr.Node) bool {
		switch n := n.(type) {
		case *expr.Column:
			ok = ok && known[a.Owner(n)]
		case *expr.Exists, *expr.InSelect, *expr.Subquery:
			ok = false
		}
		return ok
	})
	return ok
}
