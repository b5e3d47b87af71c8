package proof

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects"
)

// Difference is one way a database differs from the state it should hold.
type Difference struct {
	// Kind is "schema" (what the dialect's Atlas driver diffs: tables,
	// columns, keys, CHECKs, comments, identity, deferrability, extension
	// types), "generated" (a generated column's expression or storage),
	// "column" (what that diff does not look at: a column's type text,
	// collation) or "objects" (extensions, views, triggers).
	Kind string
	What string
	// Table and Column name the column of a "generated" or "column"
	// difference; Found and Want are what it has and should have.
	Table, Column, Found, Want string
}

func (d Difference) String() string { return d.What }

// Side is one state compared: a database's schema, as its dialect's
// Atlas driver inspects it, and the objects it does not (nil for a
// dialect without them).
type Side struct {
	Schema  *schema.Schema
	Objects *dialects.Objects
}

// Differences compares got, a database's state, with want, the state it
// should hold (both inspected by the same dialect, on the same server
// kind), with drv, that dialect's Atlas driver. It is the one comparison of
// migrate diff's proof, drift and the plan oracle: what one sees, all see.
// It sees what Atlas's diff does not: generated columns whose expression
// changed (Atlas's PostgreSQL diff refuses them), a column's type text
// (vector(3) and vector) and collation, and the objects the model
// declares. Both schemas may be changed (generated columns are taken out).
func Differences(ctx context.Context, drv migrate.Driver, got, want Side) ([]Difference, error) {
	out := Details(got.Schema, want.Schema)
	SplitGenerated(got.Schema, want.Schema)
	changes, err := drv.SchemaDiff(got.Schema, want.Schema, schema.DiffNormalized())
	if err != nil {
		return nil, err
	}
	if len(changes) > 0 {
		out = append(out, Difference{Kind: "schema", What: describeChanges(ctx, drv, changes)})
	}
	out = append(out, objectDifferences(got.Objects, want.Objects)...)
	slices.SortStableFunc(out, func(a, b Difference) int { return strings.Compare(a.Kind, b.Kind) })
	return out, nil
}

func generatedText(c *schema.Column) string {
	if g := GeneratedOf(c); g != nil {
		return fmt.Sprintf("AS (%s) %s", g.Expr, g.Type)
	}
	return "no expression"
}

// describeChanges prints changes as the statements that would make them.
func describeChanges(ctx context.Context, drv migrate.Driver, changes []schema.Change) string {
	plan, err := drv.PlanChanges(ctx, "left", changes, func(o *migrate.PlanOptions) {
		o.SchemaQualifier, o.Indent = new(string), "  "
	})
	if err != nil {
		return fmt.Sprintf("%d changes (%v)", len(changes), err)
	}
	var b []string
	for _, c := range plan.Changes {
		b = append(b, c.Cmd)
	}
	return strings.Join(b, "; ")
}

// Details compares, for every column both states have, what the
// dialects' diffs do not look at, or refuse: a generated column's
// expression and storage, the type as the database prints it (TiDB's
// vector(3) and vector), the collation. It changes neither state (drift
// compares with a state it shares).
func Details(got, want *schema.Schema) []Difference {
	var out []Difference
	for _, wt := range want.Tables {
		gt, ok := got.Table(wt.Name)
		if !ok {
			continue
		}
		for _, wc := range wt.Columns {
			gc, ok := gt.Column(wc.Name)
			if !ok || gc.Type == nil || wc.Type == nil {
				continue
			}
			add := func(kind, what, g, w string) {
				out = append(out, Difference{Kind: kind, Table: wt.Name, Column: wc.Name, Found: g, Want: w,
					What: fmt.Sprintf("column %q of table %q: %s %s, want %s", wc.Name, wt.Name, what, g, w)})
			}
			if (IsGenerated(gc) || IsGenerated(wc)) && !(IsGenerated(gc) && IsGenerated(wc) && SameGenerated(gc, wc)) {
				add("generated", "generated", generatedText(gc), generatedText(wc))
			}
			// A state read back from the cache (Atlas's HCL) has no printed
			// type: Atlas's diff compares its type.
			if g, w := typeRaw(gc), typeRaw(wc); g != w && g != "" && w != "" {
				add("column", "type", g, w)
			}
			// A collation is the column's, else its table's: a state read
			// back from the cache leaves out one equal to the table's.
			if g, w := cmp.Or(collation(gc.Attrs), collation(gt.Attrs)), cmp.Or(collation(wc.Attrs), collation(wt.Attrs)); g != w {
				add("column", "collation", fmt.Sprintf("%q", g), fmt.Sprintf("%q", w))
			}
		}
	}
	return out
}

// typeRaw is a column's type as the database printed it.
func typeRaw(c *schema.Column) string { return strings.ToLower(c.Type.Raw) }

func collation(attrs []schema.Attr) string {
	for _, a := range attrs {
		if c, ok := a.(*schema.Collation); ok {
			return c.V
		}
	}
	return ""
}

// objectDifferences compares what Atlas does not inspect; nil Objects
// (a dialect without them) compare equal.
func objectDifferences(got, want *dialects.Objects) []Difference {
	if got == nil || want == nil {
		return nil
	}
	var out []Difference
	if !slices.Equal(got.Extensions, want.Extensions) {
		out = append(out, Difference{Kind: "objects", What: fmt.Sprintf("extensions %q, want %q", got.Extensions, want.Extensions)})
	}
	for _, v := range slices.Sorted(maps.Keys(want.Views)) {
		g, ok := got.Views[v]
		switch {
		case !ok:
			out = append(out, Difference{Kind: "objects", What: fmt.Sprintf("view %q is missing", v)})
		case g != want.Views[v]:
			out = append(out, Difference{Kind: "objects", What: fmt.Sprintf("view %q is %q, want %q", v, g, want.Views[v])})
		}
	}
	for _, v := range slices.Sorted(maps.Keys(got.Views)) {
		if _, ok := want.Views[v]; !ok {
			out = append(out, Difference{Kind: "objects", What: fmt.Sprintf("view %q is not the model's", v)})
		}
	}
	for _, n := range slices.Sorted(maps.Keys(want.Triggers)) {
		g, ok := got.Triggers[n]
		switch {
		case !ok:
			out = append(out, Difference{Kind: "objects", What: fmt.Sprintf("trigger %q is missing", n)})
		case g != want.Triggers[n]:
			out = append(out, Difference{Kind: "objects", What: fmt.Sprintf("trigger %q is %+v, want %+v", n, g, want.Triggers[n])})
		}
	}
	for _, n := range slices.Sorted(maps.Keys(got.Triggers)) {
		if _, ok := want.Triggers[n]; !ok {
			out = append(out, Difference{Kind: "objects", What: fmt.Sprintf("trigger %q is not the model's", n)})
		}
	}
	return out
}

// SplitGenerated takes out of both states the columns that become
// generated, or get another expression or stored setting, which Atlas
// refuses to diff (PostgreSQL's driver: "changing the generation expression
// ... is not supported") or plan: they are dropped and added again, their
// values computed again, by table name.
func SplitGenerated(current, desired *schema.Schema) map[string][]*schema.Column {
	out := map[string][]*schema.Column{}
	for _, dt := range desired.Tables {
		ct, ok := current.Table(dt.Name)
		if !ok {
			continue
		}
		for _, dc := range slices.Clone(dt.Columns) {
			cc, ok := ct.Column(dc.Name)
			if !ok || !IsGenerated(dc) || IsGenerated(cc) && SameGenerated(cc, dc) {
				continue
			}
			out[dt.Name] = append(out[dt.Name], cc, dc)
			ct.Columns = slices.DeleteFunc(ct.Columns, func(c *schema.Column) bool { return c == cc })
			dt.Columns = slices.DeleteFunc(dt.Columns, func(c *schema.Column) bool { return c == dc })
		}
	}
	return out
}

// SameGenerated reports whether two generated columns, both as a database
// printed them, have the same expression and stored setting.
func SameGenerated(a, b *schema.Column) bool {
	ga, gb := GeneratedOf(a), GeneratedOf(b)
	return ga != nil && gb != nil && ga.Expr == gb.Expr && strings.EqualFold(ga.Type, gb.Type)
}

// GeneratedOf is a column's generation expression, nil for a plain column.
func GeneratedOf(c *schema.Column) *schema.GeneratedExpr {
	for _, a := range c.Attrs {
		if g, ok := a.(*schema.GeneratedExpr); ok {
			return g
		}
	}
	return nil
}

// IsGenerated reports whether a column is generated.
func IsGenerated(c *schema.Column) bool {
	for _, a := range c.Attrs {
		if _, ok := a.(*schema.GeneratedExpr); ok {
			return true
		}
	}
	return false
}
