package read

import (
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/compiler/expr/render"
	"github.com/schemagen/schemagen/dialects"
)

// caseKeyer is declared in dialects, with the other parts of a dialect.
type caseKeyer = dialects.CaseKeyer

// caseColumn is a VIRTUAL generated column CASE WHEN when THEN value END.
type caseColumn struct {
	name        string
	when, value expr.Node
}

// partialKeys reads back a unique index over VIRTUAL generated columns
// CASE WHEN p THEN x END (NULL outside p, so rows outside p never collide),
// the hand-written emulation of a partial unique index, as the unique index
// on the parts x WHERE p it stands for, when generating the model gives the
// dialect the same columns and key again: every generated part has one
// predicate, the type the dialect gives it, and its name, kept as the
// part's override where the dialect would not name or wrap it so.
func (im *Imported) partialKeys(ck caseKeyer, ct *compiler.Table, t *schema.Table, cols expr.Resolver) {
	d := im.Dialect.Name()
	found := map[string]caseColumn{}
	generated := map[string]bool{}
	for _, c := range t.Columns {
		var gen *schema.GeneratedExpr
		for _, a := range c.Attrs {
			if g, ok := a.(*schema.GeneratedExpr); ok {
				gen = g
			}
		}
		generated[c.Name] = gen != nil
		if gen == nil || !strings.EqualFold(gen.Type, "VIRTUAL") || !onlyIndexed(ct, c.Name) {
			continue
		}
		p, x, ok := ck.CaseKey(gen.Expr, cols)
		if !ok || slices.Contains(expr.Columns(p), c.Name) || slices.Contains(expr.Columns(x), c.Name) {
			continue
		}
		if typ := ck.CaseKeyType(ct, x); typ == "" || !strings.EqualFold(typ, c.Type.Raw) {
			continue
		}
		found[c.Name] = caseColumn{name: c.Name, when: p, value: x}
	}
	if len(found) == 0 {
		return
	}
	// A generated column indexed twice is left as it is.
	uses := map[string]int{}
	for _, idx := range ct.Indexes {
		for _, p := range idx.Parts {
			if p.Expr == nil {
				uses[p.Column]++
			}
		}
	}
	for _, idx := range ct.Indexes {
		if !idx.Unique || idx.Where != nil || len(idx.Parts) == 0 {
			continue
		}
		var wrapped []int
		pred, ok := "", true
		for i, p := range idx.Parts {
			cc, is := found[p.Column]
			if p.Expr == nil && generated[p.Column] && !is {
				// Another generated column: the key is not the emulation.
				ok = false
			}
			if p.Expr != nil || !is {
				continue
			}
			if uses[p.Column] != 1 || pred != "" && render.Meaning(cc.when) != pred {
				ok = false
			}
			pred = render.Meaning(cc.when)
			wrapped = append(wrapped, i)
		}
		if !ok || len(wrapped) == 0 {
			continue
		}
		all := len(wrapped) == len(idx.Parts)
		for _, i := range wrapped {
			all = all && unparenColumn(found[idx.Parts[i].Column].value) != ""
		}
		var where expr.Node
		for _, i := range wrapped {
			p := idx.Parts[i]
			cc := found[p.Column]
			where = cc.when
			if p.Overrides == nil {
				p.Overrides = compiler.Overrides{}
			}
			// The dialect wraps expressions and parts that name their
			// column, or every part when none does.
			if col := unparenColumn(cc.value); col != "" {
				p.Column, p.Expr = col, nil
				if !all || cc.name != fmt.Sprintf("%s_%d", idx.Name, i) {
					p.Overrides[d] = &compiler.Override{Dialect: d, Column: cc.name}
				}
			} else {
				p.Column, p.Expr = "", cc.value
				if cc.name != fmt.Sprintf("%s_%d", idx.Name, i) {
					p.Overrides[d] = &compiler.Override{Dialect: d, Column: cc.name}
				}
			}
			ct.Columns = slices.DeleteFunc(ct.Columns, func(x *compiler.Column) bool { return x.Name == cc.name })
			im.Notes[t.Name] = slices.DeleteFunc(im.Notes[t.Name], func(s string) bool { return strings.HasPrefix(s, "column "+cc.name+": ") })
			im.note(t.Name, "column %s: a VIRTUAL generated column CASE WHEN ... THEN ... END that only unique index %s uses, read as its key part %s WHERE %s (a partial unique index)", cc.name, idx.Name, render.String(cc.value), render.String(cc.when))
		}
		idx.Where = where
		idx.WhereSrc = render.String(where)
	}
}

// unparenColumn is the column n is, or "".
func unparenColumn(n expr.Node) string {
	for {
		p, ok := n.(*expr.Paren)
		if !ok {
			break
		}
		n = p.X
	}
	if c, ok := n.(*expr.Column); ok {
		return c.Name
	}
	return ""
}
