package lower

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
	"github.com/schemagen/schemagen/dialects/tidb/internal/readback"
)

func (l *lowerer) Index(t *compiler.Table, idx *compiler.Index) (*sqltext.Index, bool) {
	object := t.Ref(compiler.KindIndex, idx.Name)
	if o := idx.Overrides.For(Name); o != nil && o.SQL != "" {
		l.rec.Decide(object, dialects.Overridden, "raw statement from the model")
		if idx.Comment != "" {
			// TiDB sets an index's comment only in the statement that
			// creates it.
			l.rec.Decide(object, dialects.Omitted, "comment left out: the raw statement is used as written (write COMMENT in it)")
		}
		return &sqltext.Index{Raw: o.SQL, Of: idx.Name, RawName: idx.Overrides.NameIn(Name, idx.Name)}, true
	}
	if isVectorMethod(idx.Method()) && len(idx.Parts) > 0 {
		return l.vectorIndex(t, idx)
	}
	li := &sqltext.Index{Name: idx.Overrides.NameIn(Name, idx.Name), Unique: idx.Unique, Comment: idx.Comment}
	if !l.indexOptions(t, idx, li) {
		return nil, false
	}
	// A unique index over rows the predicate picks is a unique key over
	// generated columns that are NULL outside the predicate.
	partial := idx.Unique && idx.Where != nil && !nullFreeKey(idx)
	if partial && arithmetic(idx.Where) {
		l.rec.Errorf(idx.WhereRange, "Partial index predicate that can fail", "TiDB has no partial indexes; schemagen computes the predicate of unique index %q in generated columns there, and its arithmetic (overflow, %% by zero) can fail on one database and not the other. Leave the arithmetic out of the predicate, or leave the index out of TiDB: tidb { skip = true }.", idx.Name)
		return nil, false
	}
	var cols []string
	var ranges []hcl.Range
	for i, p := range idx.Parts {
		part, x := "", ""
		if partial && caseWrapped(idx, p) {
			part = l.partialColumn(t, idx, i, p)
			if p.Expr == nil {
				cols, ranges = append(cols, p.Column), append(ranges, p.Range)
			}
		} else if partial {
			part = lexical.Ident(p.Column)
			cols, ranges = append(cols, p.Column), append(ranges, p.Range)
		} else if p.Expr != nil && idx.Where != nil && arithmetic(p.Expr) {
			// TiDB drops the predicate but would compute the part for every
			// row, where its arithmetic can fail (overflow) for a row
			// PostgreSQL leaves out of the index: computed inside the
			// predicate only, NULL outside it.
			part = l.partialColumn(t, idx, i, p)
			l.rec.Decide(object, dialects.Lowered, "key part %d as a VIRTUAL generated column CASE WHEN <predicate> THEN <part> END: its arithmetic is computed only for rows the predicate picks, as on PostgreSQL", i)
		} else if p.Expr != nil {
			x = sqltext.Expr(Syntax{}, p.Expr)
			part = "(" + x + ")"
			l.explainExpr(t, object, p.Expr)
			// An expression TiDB cannot index directly is indexed through a
			// generated column, as teams do by hand; so is one whose part
			// names its TiDB column (a hand-written one, imported).
			if f := notIndexable(p.Expr); f != "" {
				part, x = l.generatedColumn(t, idx, i, p, f), ""
			} else if o := p.Overrides.For(Name); o != nil && o.Column != "" {
				part, x = l.generatedColumn(t, idx, i, p, ""), ""
			} else {
				l.exprKeyPart(t, idx, p)
			}
		} else {
			part = lexical.Ident(p.Column)
			cols, ranges = append(cols, p.Column), append(ranges, p.Range)
		}
		if p.OpClass() != "" {
			if !idx.Overrides.Accepts(Name, compiler.AcceptOpClass) {
				l.rec.Warnf(p.Range, "Operator class left out", "TiDB has no operator classes; %q of index %q is left out (to acknowledge it: tidb { accept = [%q] }).", p.OpClass(), idx.Name, compiler.AcceptOpClass)
			}
			l.rec.Decide(object, dialects.Omitted, "operator class %s left out", p.OpClass())
		}
		if p.Desc {
			part += " DESC"
		}
		li.Parts = append(li.Parts, part)
		li.Exprs = append(li.Exprs, x)
	}
	l.keyColumns(t, cols, ranges, "index", idx.Range)
	if idx.Method() != "" {
		if !idx.Overrides.Accepts(Name, compiler.AcceptIndexMethod) {
			l.rec.Warnf(idx.Range, "Index method left out", "TiDB has no index methods; USING %s of index %q is left out (to acknowledge it: tidb { accept = [%q] }).", idx.Method(), idx.Name, compiler.AcceptIndexMethod)
		}
		l.rec.Decide(object, dialects.Omitted, "USING %s left out", idx.Method())
	}
	if idx.Where == nil {
		return li, true
	}
	// TiDB has no partial indexes. A unique index whose predicate only
	// excludes rows with NULL in key columns means the same without it,
	// since TiDB's unique indexes never compare NULLs.
	if idx.Unique {
		if partial {
			l.rec.Decide(object, dialects.Lowered, "WHERE %s as a unique key over VIRTUAL generated columns CASE WHEN <predicate> THEN <part> END: NULL outside the predicate, and TiDB's unique keys never compare NULLs", idx.WhereSrc)
			return li, true
		}
		l.rec.Decide(object, dialects.Lowered, "WHERE %s dropped: TiDB unique indexes allow many NULLs, so the plain unique index means the same", idx.WhereSrc)
		return li, true
	}
	if arithmetic(idx.Where) {
		l.rec.Errorf(idx.WhereRange, "Partial index predicate that can fail", "TiDB has no partial indexes and drops the predicate of index %q, but PostgreSQL computes it for every row, and its arithmetic can fail (overflow, %% by zero) and reject the row there only. Leave the arithmetic out of the predicate, or give TiDB its own form: tidb { skip = true }.", idx.Name)
		return nil, false
	}
	if !idx.Overrides.Accepts(Name, compiler.AcceptPartialIndex) {
		l.rec.Warnf(idx.WhereRange, "Partial index made full", "TiDB has no partial indexes; index %q covers all rows there (same results, larger index). To acknowledge it: tidb { accept = [%q] }.", idx.Name, compiler.AcceptPartialIndex)
	}
	l.rec.Decide(object, dialects.Lowered, "WHERE %s dropped: TiDB has no partial indexes, so the index covers all rows", idx.WhereSrc)
	return li, true
}

// nullFreeKey reports whether idx's predicate only requires plain key
// columns to be non-null: TiDB's unique indexes never compare NULLs, so the
// index means the same without it.
func nullFreeKey(idx *compiler.Index) bool {
	nn := expr.NotNullOn(idx.Where)
	ok := nn != nil
	for _, c := range nn {
		ok = ok && containsPlain(idx, c)
	}
	return ok
}

// caseWrapped reports whether key part p of a partial unique index is
// lowered through a generated column on TiDB: an expression, or a part that
// names its TiDB column, or every part when none is either. One NULL in a
// key is enough for rows outside the predicate never to collide, so plain
// column parts beside a generated one stay as they are, as teams write it
// by hand (UNIQUE KEY (tenant_id, open_email)).
func caseWrapped(idx *compiler.Index, p *compiler.IndexPart) bool {
	named := func(p *compiler.IndexPart) bool {
		o := p.Overrides.For(Name)
		return p.Expr != nil || o != nil && o.Column != ""
	}
	return named(p) || !slices.ContainsFunc(idx.Parts, named)
}

// partialColumn lowers key part i of a partial unique index to a VIRTUAL
// generated column CASE WHEN <predicate> THEN <part> END, as teams emulate
// partial unique indexes by hand on TiDB: rows outside the predicate hold
// NULL there and never collide; rows inside compare their values. The
// column is named as generatedColumn names it, and has the part's type (a
// column's own, collation included) so that values compare as in the column.
func (l *lowerer) partialColumn(t *compiler.Table, idx *compiler.Index, i int, p *compiler.IndexPart) string {
	var value, typ string
	if p.Expr != nil {
		l.explainExpr(t, t.Ref(compiler.KindIndex, idx.Name), p.Expr)
		value, typ = sqltext.Expr(Syntax{}, p.Expr), l.exactString(GeneratedType(t, p.Expr))
		if typ == "" && idx.Where != nil && integerArithmetic(t, p.Expr) {
			// PostgreSQL computes it in bigint too (int and smallint are
			// read as bigint in arithmetic), so it overflows alike.
			typ = "BIGINT"
		}
	} else if c := t.Column(p.Column); c != nil {
		value = lexical.Ident(p.Column)
		if ct, known := EffectiveType(c); known {
			typ = l.columnType(ct)
		}
	}
	if typ == "" {
		l.rec.Errorf(p.Range, "Partial index TiDB cannot keep", "TiDB has no partial indexes; schemagen keeps partial index %q there through generated columns CASE WHEN <predicate> THEN <part> END, which need a value of a known type (a column without a raw type override, or a string or integer expression of known length). Leave the index out of TiDB with tidb { skip = true }, or give TiDB its own statement: tidb { sql = \"...\" }.", idx.Name)
		return ""
	}
	where, _ := readback.DotAll(idx.Where)
	if i == 0 {
		l.explainExpr(t, t.Ref(compiler.KindIndex, idx.Name), where)
	}
	name := l.generatedColumnName(t, idx, i, p)
	body := "CASE WHEN " + sqltext.Expr(Syntax{}, where) + " THEN " + value + " END"
	l.generated = append(l.generated, &sqltext.Column{Name: name, Type: typ + " AS (" + body + ") VIRTUAL"})
	return lexical.Ident(name)
}

// exactString gives a generated VARCHAR the collation exact_strings gives
// the columns it is computed from, so that its values compare as theirs.
func (l *lowerer) exactString(typ string) string {
	if l.set.ExactStrings && strings.HasPrefix(typ, "VARCHAR") {
		return typ + " COLLATE " + ExactCollation
	}
	return typ
}

// columnType is the TiDB type of a column of neutral type typ, with the
// collation exact_strings gives it.
func (l *lowerer) columnType(typ compiler.Type) string {
	s := Type(typ)
	if l.set.ExactStrings && (typ.Kind == compiler.TypeVarchar || typ.Kind == compiler.TypeText) {
		s += " COLLATE " + ExactCollation
	}
	return s
}

// exprKeyPart refuses an expression key part TiDB cannot index directly:
// one that calls a function or operator outside
// tidb_allow_function_for_expression_index (error 8200), or whose value may
// exceed the key size (error 1071). schemagen refuses rather than lowering to
// an indexed generated column, which would add a column that SELECT * shows
// on TiDB only.
func (l *lowerer) exprKeyPart(t *compiler.Table, idx *compiler.Index, p *compiler.IndexPart) {
	bad := ""
	expr.Walk(p.Expr, func(n expr.Node) bool {
		name := ""
		switch n := n.(type) {
		case *expr.Call:
			name = n.Name
		case *expr.JSONType:
			name = "json_type"
		case *expr.Binary:
			if n.Op == expr.OpConcat {
				name = "||"
			}
		}
		if name != "" && !limits.ExprIndexFunctions[name] && bad == "" {
			bad = name
		}
		return true
	})
	if bad == "||" {
		bad = "|| (CONCAT)"
	} else if bad != "" {
		bad += "()"
	}
	if bad != "" {
		l.rec.Errorf(p.Range, "Expression TiDB cannot index", "TiDB does not allow %s in an expression index (error 8200); of the portable functions its expression indexes may call only %s. Index a column instead, give TiDB its own form: tidb { sql = \"CREATE INDEX ...\" }, or leave the index out of TiDB: tidb { skip = true }.", bad, strings.Join(slices.Sorted(maps.Keys(limits.ExprIndexFunctions)), "(), ")+"()")
		return
	}
	// TiDB keeps an expression key part in a hidden column of the type it
	// infers, where decimal arithmetic can overflow (decimal(65,30) + 1)
	// although PostgreSQL's numeric does not.
	if arithmetic(p.Expr) {
		for _, name := range expr.Columns(p.Expr) {
			if c := t.Column(name); c != nil && c.Type.Kind == compiler.TypeDecimal {
				l.rec.Errorf(p.Range, "Expression TiDB cannot index", "TiDB stores the key part of index %q in a hidden column of a type it infers, where arithmetic over decimal column %q can overflow and reject rows PostgreSQL accepts. Index the column itself, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, name)
				return
			}
		}
	}
	// A CASE of strings is as long as its longest result.
	if c, ok := expr.Unparen(p.Expr).(*expr.Case); ok && (c.Kind == expr.KindString || c.Kind == expr.KindUUID) {
		if chars, ok := stringSize(t, c); !ok || 4*chars > limits.MaxKeyBytes {
			l.rec.Errorf(p.Range, "Key too long", "The expression key part of index %q may take more than TiDB's %d bytes (error 1071): a result of its CASE is text or a long varchar. Give the results a varchar(n) with 4 * n <= %d, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, limits.MaxKeyBytes, limits.MaxKeyBytes)
		}
		return
	}
	// lower() and upper() keep their argument's size; other results are small.
	call, ok := expr.Unparen(p.Expr).(*expr.Call)
	if !ok || call.Name != "lower" && call.Name != "upper" {
		return
	}
	size := 0
	for _, name := range expr.Columns(p.Expr) {
		c := t.Column(name)
		if c == nil {
			continue
		}
		typ, known := EffectiveType(c)
		if !known || typ.Kind == compiler.TypeText {
			size = limits.MaxKeyBytes + 1
			break
		}
		size += keyBytes(typ)
	}
	if size > limits.MaxKeyBytes {
		l.rec.Errorf(p.Range, "Key too long", "The expression key part of index %q may take more than TiDB's %d bytes (error 1071): it is over text or a long varchar. Index a varchar(n) column with 4 * n <= %d, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, limits.MaxKeyBytes, limits.MaxKeyBytes)
	}
}

// arithmetic reports whether n computes with +, -, *, %, unary - or abs.
func arithmetic(n expr.Node) bool {
	found := false
	expr.Walk(n, func(x expr.Node) bool {
		switch x := x.(type) {
		case *expr.Binary:
			found = found || x.Op == expr.OpAdd || x.Op == expr.OpSub || x.Op == expr.OpMul || x.Op == expr.OpMod
		case *expr.Neg:
			_, lit := x.X.(*expr.Literal)
			found = found || !lit
		case *expr.Call:
			found = found || x.Name == "abs"
		}
		return !found
	})
	return found
}

// notIndexable returns the first function n calls that TiDB refuses in an
// expression index (CONCAT is how || renders), or "".
func notIndexable(n expr.Node) string {
	found := ""
	expr.Walk(n, func(n expr.Node) bool {
		switch n := n.(type) {
		case *expr.Call:
			if !limits.ExprIndexFunctions[n.Name] && found == "" {
				found = strings.ToUpper(n.Name)
			}
		case *expr.Binary:
			if n.Op == expr.OpConcat && found == "" {
				found = "CONCAT (||)"
			}
		}
		return found == ""
	})
	return found
}

func containsPlain(idx *compiler.Index, col string) bool {
	for _, p := range idx.Parts {
		if p.Expr == nil && p.Column == col {
			return true
		}
	}
	return false
}

// generatedColumn indexes an expression TiDB cannot index directly (it
// calls f; "" when the part names its column) through a VIRTUAL generated
// column, as teams write it by hand on TiDB, and returns the key part.
func (l *lowerer) generatedColumn(t *compiler.Table, idx *compiler.Index, i int, p *compiler.IndexPart, f string) string {
	typ := GeneratedType(t, p.Expr)
	if typ == "" && f == "" {
		l.rec.Errorf(p.Range, "Expression TiDB cannot index", "Key part %s of index %q names its TiDB column, but a generated column needs a string or integer value of known length, which %s has not. Leave out tidb { column = \"...\" } to index the expression directly.", render.String(p.Expr), idx.Name, render.String(p.Expr))
		return ""
	}
	if typ == "" {
		l.rec.Errorf(p.Range, "Expression TiDB cannot index", "TiDB indexes expressions that call only LOWER, UPPER and JSON_TYPE (tidb_allow_function_for_expression_index), else a generated column, which needs a string or integer value of known length; index %q calls %s. Leave it out of TiDB with tidb { skip = true }, or give TiDB its own statement: tidb { sql = \"...\" }.", idx.Name, f)
		return ""
	}
	name := l.generatedColumnName(t, idx, i, p)
	l.generated = append(l.generated, &sqltext.Column{Name: name, Type: l.exactString(typ) + " AS (" + sqltext.Expr(Syntax{}, p.Expr) + ") VIRTUAL"})
	why := "TiDB cannot index " + f + " directly"
	if f == "" {
		why = "the key part names its TiDB column"
	}
	l.rec.Decide(t.Ref(compiler.KindIndex, idx.Name), dialects.Lowered, "%s indexed through the VIRTUAL generated column %s: %s", render.String(p.Expr), name, why)
	return lexical.Ident(name)
}

// generatedColumnName names the generated column of key part i of idx:
// <index>_<i>, unless the part names it, and reports a clash.
func (l *lowerer) generatedColumnName(t *compiler.Table, idx *compiler.Index, i int, p *compiler.IndexPart) string {
	name := fmt.Sprintf("%s_%d", idx.Overrides.NameIn(Name, idx.Name), i)
	if o := p.Overrides.For(Name); o != nil && o.Column != "" {
		name = o.Column
	}
	name = fitName(name)
	if t.Column(name) != nil || slices.ContainsFunc(l.generated, func(c *sqltext.Column) bool { return strings.EqualFold(c.Name, name) }) {
		what := p.Column
		if p.Expr != nil {
			what = render.String(p.Expr)
		}
		l.rec.Errorf(p.Range, "Name clash", "Index %q needs a generated column %q on TiDB for %s, but table %q already has a column of that name; name it: tidb { column = \"...\" } in the on block.", idx.Name, name, what, t.Name)
	}
	return name
}

// generatedType is the TiDB type of a generated column that holds n's
// value, for string values of known length and integers; "" otherwise.
func GeneratedType(t *compiler.Table, n expr.Node) string {
	if size, ok := stringSize(t, n); ok {
		return fmt.Sprintf("VARCHAR(%d)", max(size, 1))
	}
	if integer(t, n) {
		return "BIGINT"
	}
	return ""
}

// stringSize returns the most characters n's string value can have.
func stringSize(t *compiler.Table, n expr.Node) (int, bool) {
	switch n := n.(type) {
	case *expr.Paren:
		return stringSize(t, n.X)
	case *expr.Column:
		c := t.Column(n.Name)
		if c == nil {
			return 0, false
		}
		typ, known := EffectiveType(c)
		switch {
		case !known:
		case typ.Kind == compiler.TypeVarchar || typ.Kind == compiler.TypeChar:
			return typ.Args[0], true
		case typ.Kind == compiler.TypeUUID:
			return 36, true
		}
	case *expr.Literal:
		switch n.Kind {
		case expr.LitString:
			return utf8.RuneCountInString(n.Value), true
		case expr.LitNull:
			return 0, true
		}
	case *expr.Call:
		size, ok := 0, len(n.Args) > 0
		for _, a := range n.Args {
			s, k := stringSize(t, a)
			size, ok = max(size, s), ok && k
		}
		if ok && (n.Name == "lower" || n.Name == "upper" || n.Name == "coalesce") {
			return size, true
		}
	case *expr.Binary:
		if n.Op == expr.OpConcat {
			a, ok1 := stringSize(t, n.L)
			b, ok2 := stringSize(t, n.R)
			return a + b, ok1 && ok2
		}
	case *expr.Case:
		if n.Kind != expr.KindString && n.Kind != expr.KindUUID {
			return 0, false
		}
		size := 0
		for _, x := range caseResults(n) {
			s, ok := stringSize(t, x)
			if !ok {
				return 0, false
			}
			size = max(size, s)
		}
		return size, true
	}
	return 0, false
}

// caseResults are the values a CASE may take.
func caseResults(c *expr.Case) []expr.Node {
	var out []expr.Node
	for _, w := range c.Whens {
		out = append(out, w.Then)
	}
	if c.Else != nil {
		out = append(out, c.Else)
	}
	return out
}

// integer reports whether n's value is an integer (columns, integer
// literals, their coalesce).
func integer(t *compiler.Table, n expr.Node) bool {
	switch n := n.(type) {
	case *expr.Paren:
		return integer(t, n.X)
	case *expr.Column:
		c := t.Column(n.Name)
		if c == nil {
			return false
		}
		typ, known := EffectiveType(c)
		return known && typ.ExprKind() == expr.KindInteger
	case *expr.Literal:
		return n.Kind == expr.LitNumber && !strings.ContainsAny(n.Value, ".eE")
	case *expr.Case:
		if n.Kind != expr.KindInteger {
			return false
		}
		for _, x := range caseResults(n) {
			if lit, ok := x.(*expr.Literal); !(ok && lit.Kind == expr.LitNull) && !integer(t, x) {
				return false
			}
		}
		return true
	case *expr.Call:
		switch n.Name {
		case "char_length":
			return true
		case "abs", "coalesce":
		default:
			return false
		}
		for _, a := range n.Args {
			if !integer(t, a) {
				return false
			}
		}
		return true
	}
	return false
}

// integerArithmetic reports whether n is +, - or * over integers.
func integerArithmetic(t *compiler.Table, n expr.Node) bool {
	switch n := n.(type) {
	case *expr.Paren:
		return integerArithmetic(t, n.X)
	case *expr.Neg:
		return integerArithmetic(t, n.X)
	case *expr.Binary:
		if n.Op == expr.OpAdd || n.Op == expr.OpSub || n.Op == expr.OpMul {
			return integerArithmetic(t, n.L) && integerArithmetic(t, n.R)
		}
		return false
	}
	return integer(t, n)
}
