package expr

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Resolver tells Analyze which columns exist and of what kind.
type Resolver func(name string) (Kind, bool)

// Analyze resolves column references, checks functions, operand kinds and
// regular expressions, and rewrites JSON type tests into JSONType nodes.
// It returns the rewritten tree and every error found.
func Analyze(n Node, cols Resolver) (Node, []*Error) {
	n, _, errs := AnalyzeKind(n, cols)
	return n, errs
}

// AnalyzeKind is Analyze that also returns the kind of the expression's
// value (KindBool for a condition), for the checks that depend on where the
// expression is used. Analyzing a tree again gives the same tree.
func AnalyzeKind(n Node, cols Resolver) (Node, Kind, []*Error) {
	a := &analyzer{cols: cols}
	n = a.rewrite(n)
	k := a.kind(n)
	return n, k, a.errs
}

type analyzer struct {
	cols Resolver
	errs []*Error
	// data: the expressions of data statements (stmt.go), whose columns
	// resolve in sc against cat.
	data bool
	cat  Catalog
	sc   *scope
	// scalar is the scalar subquery query is about to check.
	scalar *Select
}

func (a *analyzer) errorf(n Node, format string, args ...any) {
	a.errs = append(a.errs, &Error{Offset: n.Offset(), End: n.Offset() + 1, Msg: fmt.Sprintf(format, args...)})
}

// rewrite turns comparisons of json_type(x) with string literals into JSONType.
func (a *analyzer) rewrite(n Node) Node {
	switch n := n.(type) {
	case *Binary:
		n.L, n.R = a.rewrite(n.L), a.rewrite(n.R)
		if n.Op == OpEq || n.Op == OpNe {
			if arg, ok := jsonTypeCall(n.L); ok {
				if t, ok := a.jsonTypeName(n.R); ok {
					return &JSONType{pos(n.Offset()), arg, []string{t}, n.Op == OpNe}
				}
				return n
			}
			if arg, ok := jsonTypeCall(n.R); ok {
				if t, ok := a.jsonTypeName(n.L); ok {
					return &JSONType{pos(n.Offset()), arg, []string{t}, n.Op == OpNe}
				}
			}
		}
	case *In:
		n.X = a.rewrite(n.X)
		if arg, ok := jsonTypeCall(n.X); ok {
			var types []string
			for _, x := range n.List {
				t, ok := a.jsonTypeName(x)
				if !ok {
					return n
				}
				types = append(types, t)
			}
			return &JSONType{pos(n.Offset()), arg, types, n.Not}
		}
		for i, x := range n.List {
			n.List[i] = a.rewrite(x)
		}
	case *Not:
		n.X = a.rewrite(n.X)
	case *Neg:
		n.X = a.rewrite(n.X)
	case *IsNull:
		n.X = a.rewrite(n.X)
	case *Between:
		n.X, n.Lo, n.Hi = a.rewrite(n.X), a.rewrite(n.Lo), a.rewrite(n.Hi)
	case *Call:
		for i, x := range n.Args {
			n.Args[i] = a.rewrite(x)
		}
	case *Paren:
		n.X = a.rewrite(n.X)
	case *Cast:
		n.X = a.rewrite(n.X)
	case *Subquery:
	case *InSelect:
		n.X = a.rewrite(n.X)
	case *Case:
		for i := range n.Whens {
			n.Whens[i].Cond, n.Whens[i].Then = a.rewrite(n.Whens[i].Cond), a.rewrite(n.Whens[i].Then)
		}
		if n.Else != nil {
			n.Else = a.rewrite(n.Else)
		}
	}
	return n
}

func jsonTypeCall(n Node) (Node, bool) {
	c, ok := n.(*Call)
	if !ok || c.Name != "json_type" || len(c.Args) != 1 {
		return nil, false
	}
	return c.Args[0], true
}

func (a *analyzer) jsonTypeName(n Node) (string, bool) {
	lit, ok := n.(*Literal)
	if !ok || lit.Kind != LitString {
		return "", false
	}
	if !slices.Contains(JSONTypes, lit.Value) {
		a.errorf(n, "unknown JSON type '%s'; json_type compares with one of '%s'", lit.Value, strings.Join(JSONTypes, "', '"))
	}
	return lit.Value, true
}

func isNumber(k Kind) bool { return k == KindInteger || k == KindNumeric }

func isText(k Kind) bool { return k == KindString || k == KindUUID }

// kind checks n and returns the kind of its value (KindUnknown when unsure).
func (a *analyzer) kind(n Node) Kind {
	switch n := n.(type) {
	case *Column:
		if a.data {
			k, _ := a.resolve(n)
			n.Kind = k
			return k
		}
		k, ok := a.cols(n.Name)
		if !ok {
			a.errorf(n, "unknown column %q", n.Name)
			return KindUnknown
		}
		n.Kind = k
		return k
	case *Literal:
		switch n.Kind {
		case LitString:
			return KindString
		case LitNumber:
			whole, frac, _ := strings.Cut(n.Value, ".")
			if len(strings.TrimLeft(whole, "0"))+len(strings.TrimRight(frac, "0")) > 65 {
				a.errorf(n, "the number has more than 65 significant digits, more than TiDB's DECIMAL holds; shorten it")
			} else if len(strings.TrimRight(frac, "0")) > 30 {
				a.errorf(n, "the number has more than 30 digits after the point, more than TiDB reads (error 8029); round it")
			} else if _, err := strconv.ParseInt(whole, 10, 64); !strings.Contains(n.Value, ".") && err != nil {
				a.errorf(n, "the integer is outside BIGINT's range, where TiDB reads it as unsigned and compares it with signed values differently from PostgreSQL; use a value within -9223372036854775808 to 9223372036854775807")
			}
			if strings.Contains(n.Value, ".") {
				return KindNumeric
			}
			return KindInteger
		case LitBool:
			return KindBool
		}
		return KindNull
	case *Paren:
		return a.kind(n.X)
	case *Not:
		a.want(n.X, KindBool, "NOT")
		return KindBool
	case *Neg:
		if lit, ok := n.X.(*Literal); ok && lit.Kind == LitNumber && lit.Value == "9223372036854775808" {
			return KindInteger // BIGINT's minimum
		}
		a.wantNumber(n.X, "unary -")
		return a.kind(n.X)
	case *IsNull:
		a.kind(n.X)
		return KindBool
	case *In:
		x := a.kind(n.X)
		for _, e := range n.List {
			a.comparable(e, x, a.kind(e), "IN")
			a.literalOf(e, x)
		}
		return KindBool
	case *Between:
		x := a.kind(n.X)
		if x == KindEnum {
			a.errorf(n, "%s", enumOrder)
		}
		a.comparable(n.Lo, x, a.kind(n.Lo), "BETWEEN")
		a.comparable(n.Hi, x, a.kind(n.Hi), "BETWEEN")
		a.literalOf(n.Lo, x)
		a.literalOf(n.Hi, x)
		return KindBool
	case *JSONType:
		a.want(n.X, KindJSON, "json_type")
		return KindBool
	case *Call:
		return a.call(n)
	case *Binary:
		return a.binary(n)
	case *Case:
		return a.caseKind(n)
	case *Exists:
		a.query(n.Sub)
		return KindBool
	case *InSelect:
		x := a.kind(n.X)
		a.query(n.Sub)
		if len(n.Sub.Items) != 1 {
			a.errorf(n.Sub, "the subquery of IN must select one value, not %d", len(n.Sub.Items))
			return KindBool
		}
		if x == KindJSON || n.Sub.Kinds[0] == KindJSON {
			a.errorf(n, "comparing JSON values is not portable (PostgreSQL and TiDB order and compare JSON differently)")
		}
		a.comparable(n.Sub.Items[0], x, n.Sub.Kinds[0], "IN")
		return KindBool
	case *Cast:
		return DataChecks.Cast(a, n)
	case *Subquery:
		a.scalar = n.Sub
		a.query(n.Sub)
		if len(n.Sub.Items) != 1 {
			a.errorf(n, "a scalar subquery must select one value, not %d", len(n.Sub.Items))
			return KindUnknown
		}
		return n.Sub.Kinds[0]
	case *Interval:
		a.errorf(n, "an interval is added to or subtracted from a timestamp: x + INTERVAL '1 day'")
		return KindUnknown
	}
	return KindUnknown
}

// caseKind checks a CASE: conditions are conditions, and the results are of
// one kind (numbers of any kind count as one; a string literal may be a
// uuid), which it returns. PostgreSQL and TiDB resolve results of mixed
// kinds differently (PostgreSQL refuses most, TiDB makes a string of them),
// so those are refused.
func (a *analyzer) caseKind(n *Case) Kind {
	for _, w := range n.Whens {
		a.want(w.Cond, KindBool, "WHEN")
	}
	result := KindUnknown
	results := n.results()
	kinds := make([]Kind, len(results))
	for i, x := range results {
		k := a.kind(x)
		kinds[i] = k
		if lit, ok := Unparen(x).(*Literal); ok && lit.Kind == LitString {
			continue // checked against the others' kind below
		}
		switch {
		case k == KindUnknown || k == KindNull:
		case result == KindUnknown:
			result = k
		case isNumber(k) && isNumber(result):
			if k == KindNumeric {
				result = k
			}
		case k != result:
			a.errorf(x, "the results of CASE must be of one kind, not %s and %s: PostgreSQL and TiDB resolve mixed kinds differently", result, k)
		}
	}
	for i, x := range results {
		if lit, ok := Unparen(x).(*Literal); ok && lit.Kind == LitString {
			switch {
			case result == KindUnknown:
				result = KindString
			case result == KindString:
			case result == KindUUID:
				a.literalOf(x, result)
			default:
				a.errorf(x, "the results of CASE must be of one kind, not %s and %s: PostgreSQL and TiDB resolve mixed kinds differently", result, kinds[i])
			}
		}
	}
	if result == KindUnknown && len(results) > 0 && !slices.ContainsFunc(kinds, func(k Kind) bool { return k == KindUnknown }) {
		a.errorf(n, "CASE needs a result that is not NULL, which gives its type")
	}
	n.Kind = result
	return result
}

func (a *analyzer) binary(n *Binary) Kind {
	switch n.Op {
	case OpAnd, OpOr:
		a.want(n.L, KindBool, n.Op.String())
		a.want(n.R, KindBool, n.Op.String())
		return KindBool
	case OpAdd, OpSub, OpMul, OpMod:
		if _, ok := n.R.(*Interval); ok && a.data && (n.Op == OpAdd || n.Op == OpSub) {
			if k := a.kind(n.L); k != KindTime && k != KindNull && k != KindUnknown {
				a.errorf(n.L, "an interval is added to a timestamp, not to %s", k)
			}
			return KindTime
		}
		l, r := a.wantNumber(n.L, n.Op.String()), a.wantNumber(n.R, n.Op.String())
		if l == KindNumeric || r == KindNumeric {
			return KindNumeric
		}
		return KindInteger
	case OpConcat:
		a.want(n.L, KindString, "||")
		a.want(n.R, KindString, "||")
		return KindString
	case OpLike, OpNotLike:
		a.want(n.L, KindString, n.Op.String())
		if lit, ok := n.R.(*Literal); ok && lit.Kind == LitString && strings.Contains(lit.Value, `\`) {
			// PostgreSQL and TiDB both treat backslash as LIKE's escape, but TiDB
			// also unescapes it in the string literal; keep patterns unambiguous.
			a.errorf(n.R, "backslash in a LIKE pattern is not portable; use a regular expression instead")
		}
		a.want(n.R, KindString, n.Op.String())
		return KindBool
	case OpRegex, OpNotRegex:
		a.want(n.L, KindString, "regex match")
		lit, ok := n.R.(*Literal)
		if !ok || lit.Kind != LitString {
			a.errorf(n.R, "the pattern of a regex match must be a string literal")
			a.kind(n.R)
			return KindBool
		}
		a.regex(lit)
		return KindBool
	case OpDistinct, OpNotDistinct:
		l, r := a.kind(n.L), a.kind(n.R)
		if l == KindEnum && isStringLit(n.R) || r == KindEnum && isStringLit(n.L) {
			return KindBool
		}
		a.comparable(n.R, l, r, n.Op.String())
		a.literalOf(n.R, l)
		a.literalOf(n.L, r)
		return KindBool
	default: // comparisons
		l, r := a.kind(n.L), a.kind(n.R)
		if l == KindJSON || r == KindJSON {
			a.errorf(n, "comparing JSON values is not portable (PostgreSQL and TiDB order and compare JSON differently); compare json_type(...) or a column instead")
		}
		if (l == KindEnum || r == KindEnum) && n.Op != OpEq && n.Op != OpNe {
			a.errorf(n, "%s", enumOrder)
		}
		if l == KindEnum && isStringLit(n.R) || r == KindEnum && isStringLit(n.L) {
			return KindBool
		}
		a.comparable(n.R, l, r, n.Op.String())
		a.literalOf(n.R, l)
		a.literalOf(n.L, r)
		return KindBool
	}
}

// regex accepts the patterns that mean the same in PostgreSQL's ARE and in
// TiDB, whose REGEXP follows Go's RE2 syntax.
func (a *analyzer) regex(lit *Literal) {
	if lit.Value == "" {
		a.errorf(lit, "an empty regular expression is not portable (PostgreSQL matches every string with it, TiDB refuses it); leave the test out")
		return
	}
	if msg := portableEscapes(lit.Value); msg != "" {
		a.errorf(lit, "regular expression is not portable: %s", msg)
		return
	}
	re, err := syntax.Parse(lit.Value, syntax.Perl)
	if err != nil {
		a.errorf(lit, "regular expression is not portable: %v", err)
		return
	}
	bad := ""
	var walk func(*syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			bad = `\b and \B (PostgreSQL reads \b as backspace)`
		case syntax.OpBeginText, syntax.OpEndText:
			if strings.Contains(lit.Value, `\A`) || strings.Contains(lit.Value, `\z`) {
				bad = `\A and \z (use ^ and $)`
			}
		}
		for _, s := range r.Sub {
			walk(s)
		}
	}
	walk(re)
	if bad == "" && strings.Contains(lit.Value, "(?") {
		bad = "(?...) groups and flags"
	}
	if bad != "" {
		a.errorf(lit, "regular expression is not portable: %s", bad)
	}
}

// portableEscapes checks the parts of a pattern whose meaning PostgreSQL's
// ARE and TiDB's RE2 syntax do not share: escapes other than \d, \D, \n,
// \t, \r, \f, \v and escaped punctuation (\pL, \Q...\E, \x{41}, \w,
// \s: PostgreSQL refuses some, and reads word and space classes by the
// locale, beyond ASCII, where RE2 does not), and character classes other
// than [:digit:] and [:xdigit:], for the same reason.
func portableEscapes(p string) string {
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p):
			c := p[i+1]
			i++
			switch {
			case strings.IndexByte("dDntrfv", c) >= 0:
			case c < 0x80 && !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			case c == 'b' || c == 'B':
				return `\b and \B (PostgreSQL reads \b as backspace)`
			case c == 'A' || c == 'z':
				return `\A and \z (use ^ and $)`
			case c == 'w' || c == 'W' || c == 's' || c == 'S':
				return fmt.Sprintf(`\%c (PostgreSQL's word and space classes follow the locale beyond ASCII, TiDB's do not); write the characters out, such as [A-Za-z0-9_] or [ \t\n\r]`, c)
			default:
				return fmt.Sprintf(`the escape \%c (one database reads it differently or not at all); write the character or a range`, c)
			}
		case strings.HasPrefix(p[i:], "[:"):
			// The class name ends at the first :] after [: ("[:]" is none).
			end := strings.Index(p[i+2:], ":]")
			if end < 0 {
				continue
			}
			class := p[i+2 : i+2+end]
			if class != "digit" && class != "xdigit" {
				return fmt.Sprintf("[:%s:] (PostgreSQL's classes follow the locale beyond ASCII, TiDB's do not); write the characters out, such as [A-Za-z]", class)
			}
			i += end + 3
		case strings.HasPrefix(p[i:], "{,"):
			return "{,n} (PostgreSQL refuses it, TiDB reads it as text); write {0,n}"
		}
	}
	return ""
}

// literalOf checks a string literal compared with a value of kind k: it must
// be a value both databases read the same way.
func (a *analyzer) literalOf(n Node, k Kind) {
	lit, ok := Unparen(n).(*Literal)
	if !ok || lit.Kind != LitString {
		return
	}
	if msg := LiteralProblem(lit.Value, k); msg != "" {
		a.errorf(lit, "%s", msg)
	}
}

// Unparen returns n without the parentheses around it.
func Unparen(n Node) Node {
	for {
		p, ok := n.(*Paren)
		if !ok {
			return n
		}
		n = p.X
	}
}

var (
	uuidText  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	dateText  = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	timeText  = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(\+00(:00)?)?)?$`)
	clockText = regexp.MustCompile(`^([0-9]{2}):([0-5][0-9]):([0-5][0-9])(\.[0-9]{1,6})?$`)
)

// ClockProblem says why s is not a time of day both databases read alike
// ('HH:MM:SS[.ffffff]' from 00:00:00 to 24:00:00, PostgreSQL's range), or "".
func ClockProblem(s string) string {
	m := clockText.FindStringSubmatch(s)
	if m == nil || m[1] > "24" || m[1] == "24" && (m[2] != "00" || m[3] != "00" || strings.Trim(m[4], ".0") != "") {
		return fmt.Sprintf("'%s' is not a time of day both databases take; write it as 'HH:MM:SS' (optionally with up to 6 fractional digits), from '00:00:00' to '24:00:00'", s)
	}
	return ""
}

// LiteralProblem says why the text s is not a portable value of kind k
// (uuid, date or timestamp), or "" when it is one. Both databases read these
// forms alike: lower-case hyphenated UUIDs (PostgreSQL also reads other
// spellings and compares them as the same UUID; TiDB stores text), dates as
// YYYY-MM-DD and instants as YYYY-MM-DD[ HH:MM:SS[.ffffff]] in UTC (+00 may follow, as PostgreSQL prints them).
func LiteralProblem(s string, k Kind) string {
	switch k {
	case KindUUID:
		if !uuidText.MatchString(s) {
			return fmt.Sprintf("'%s' is not a UUID as both databases read it; write it in lower case as 8-4-4-4-12 hexadecimal digits, such as 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'", s)
		}
	case KindDate:
		if !dateText.MatchString(s) || !validDate(s[:10]) {
			return fmt.Sprintf("'%s' is not a date; write a valid date as 'YYYY-MM-DD'", s)
		}
	case KindClock:
		return ClockProblem(s)
	case KindTime:
		if !timeText.MatchString(s) || !validDate(s[:10]) || len(s) > 10 && !validClock(s[11:19]) {
			return fmt.Sprintf("'%s' is not a timestamp; write a valid UTC time as 'YYYY-MM-DD HH:MM:SS' (optionally with up to 6 fractional digits), without a time zone", s)
		}
	}
	return ""
}

func validDate(s string) bool {
	t, err := time.Parse("2006-01-02", s)
	return err == nil && t.Year() >= 1
}

func validClock(s string) bool {
	_, err := time.Parse("15:04:05", s)
	return err == nil
}

func (a *analyzer) call(n *Call) Kind {
	if a.data && n.Name == "now" {
		if len(n.Args) != 0 {
			a.errorf(n, "now() takes no arguments")
		}
		return KindTime
	}
	switch n.Name {
	case "now", "current_timestamp", "random", "gen_random_uuid", "uuid":
		a.errorf(n, "the function %s() is not allowed here: CHECKs and index expressions must give the same result every time", n.Name)
		return KindUnknown
	case "json_type":
		a.errorf(n, "the function json_type can only be compared with =, <> or IN to JSON type names such as 'object'")
		return KindString
	}
	if a.data && DataFunctions[n.Name] {
		n.Kind = DataChecks.Call(a, n)
		return n.Kind
	}
	f, ok := Functions[n.Name]
	if !ok {
		a.errorf(n, "unknown function %s; portable functions are %s", n.Name, strings.Join(functionNames(), ", "))
		for _, x := range n.Args {
			a.kind(x)
		}
		return KindUnknown
	}
	if f.Variadic {
		return a.coalesce(n)
	}
	if len(n.Args) != len(f.Args) {
		a.errorf(n, "the function %s takes %d argument(s), not %d", n.Name, len(f.Args), len(n.Args))
	}
	result := f.Result
	for i, x := range n.Args {
		switch {
		case i >= len(f.Args):
			a.kind(x)
		case f.Args[i] == KindNumeric:
			// abs keeps its argument's kind.
			result = a.wantNumber(x, n.Name)
		default:
			a.want(x, f.Args[i], n.Name)
		}
	}
	return result
}

// coalesce checks that the arguments have one kind (numbers of any kind,
// text and uuid count as one), and returns it: the first argument's that is
// known.
func (a *analyzer) coalesce(n *Call) Kind {
	if len(n.Args) < 2 {
		a.errorf(n, "the function %s takes two or more arguments, not %d", n.Name, len(n.Args))
	}
	result := KindUnknown
	for _, x := range n.Args {
		k := a.kind(x)
		switch {
		case k == KindUnknown || k == KindNull:
		case result == KindUnknown:
			result = k
		case k != result && !(isNumber(k) && isNumber(result)) && !(isText(k) && isText(result)):
			a.errorf(x, "the arguments of %s must be of one kind: %s and %s", n.Name, result, k)
		}
	}
	return result
}

func functionNames() []string {
	var names []string
	for n := range Functions {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// want checks that x has kind k (uuid counts as a string: it is text on TiDB
// and renderers cast it on PostgreSQL).
func (a *analyzer) want(x Node, k Kind, what string) {
	got := a.kind(x)
	if got == KindUnknown || got == KindNull || got == k || k == KindString && isText(got) {
		return
	}
	a.errorf(x, "the operand of %s must be %s, not %s", what, k, got)
}

func (a *analyzer) wantNumber(x Node, what string) Kind {
	got := a.kind(x)
	if got != KindUnknown && got != KindNull && !isNumber(got) {
		a.errorf(x, "the operand of %s must be a number, not %s", what, got)
	}
	return got
}

// enumOrder is why ordering comparisons of enum values are refused.
const enumOrder = "enum values cannot be ordered portably: PostgreSQL orders them by their declaration, TiDB compares an enum with a string as text; compare with =, <> or IN"

func isStringLit(n Node) bool {
	lit, ok := Unparen(n).(*Literal)
	return ok && lit.Kind == LitString
}

func (a *analyzer) comparable(at Node, l, r Kind, what string) {
	if l == KindUnknown || r == KindUnknown || l == KindNull || r == KindNull || l == r {
		return
	}
	// An enum compares with its labels, written as string literals.
	if l == KindEnum && isStringLit(at) {
		return
	}
	if l == KindEnum || r == KindEnum {
		a.errorf(at, "%s compares an enum with %s: PostgreSQL has no such operator; compare with a string literal, or CAST(... AS text) first", what, map[bool]Kind{true: r, false: l}[l == KindEnum])
		return
	}
	if isNumber(l) && isNumber(r) || isText(l) && isText(r) {
		return
	}
	// String literals compare with dates and instants on both dialects.
	if lit, ok := at.(*Literal); ok && lit.Kind == LitString && (l == KindTime || l == KindDate || l == KindClock) {
		return
	}
	a.errorf(at, "%s compares %s with %s", what, l, r)
}
