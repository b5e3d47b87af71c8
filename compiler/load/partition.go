package load

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
)

// partition reads a table's `partition { type, column, count, part ... }`.
func (l *loader) partition(t *compiler.Table, b *hcl.Block) {
	if t.Partition != nil {
		l.errorf(b.DefRange, "Duplicate partition", "Table %q already has a partition block at %s.", t.Name, t.Partition.Range)
		return
	}
	p := &compiler.Partition{Range: b.DefRange, ColumnRange: b.DefRange, TypeRange: b.DefRange, CountRange: b.DefRange}
	content, diags := b.Body.Content(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "type", Required: true}, {Name: "column", Required: true}, {Name: "count"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "part", LabelNames: []string{"name"}}},
	})
	l.diags = append(l.diags, diags...)
	if a := content.Attributes["type"]; a != nil {
		p.Type, p.TypeRange = l.str(a), a.Expr.Range()
		switch p.Type {
		case compiler.PartitionRange, compiler.PartitionList, compiler.PartitionHash:
		default:
			l.errorf(a.Expr.Range(), "Invalid partition", "type is \"range\", \"list\" or \"hash\".")
		}
	}
	if a := content.Attributes["column"]; a != nil {
		p.Column, p.ColumnRange = l.str(a), a.Expr.Range()
	}
	if a := content.Attributes["count"]; a != nil {
		p.CountRange = a.Expr.Range()
		if v, ok := l.value(a, cty.Number, "a whole number"); ok {
			n, acc := v.AsBigFloat().Int64()
			if !v.AsBigFloat().IsInt() || acc != big.Exact || n < 1 || n > 1024 {
				l.errorf(a.Expr.Range(), "Invalid partition", "count is the number of hash parts, from 1 to 1024.")
			}
			p.Count = int(n)
		}
	}
	for _, pb := range content.Blocks {
		part := &compiler.PartitionPart{Name: pb.Labels[0], Range: pb.LabelRanges[0]}
		attrs := l.attrs(pb, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "less_than"}, {Name: "values"}, {Name: "rest"}}})
		if a := attrs["less_than"]; a != nil {
			part.LessThan = l.boundValue(a)
		}
		if a := attrs["values"]; a != nil {
			v, ok := l.value(a, cty.DynamicPseudoType, "a list of values")
			if ok && (v.Type().IsTupleType() || v.Type().IsListType()) && v.LengthInt() > 0 {
				for it := v.ElementIterator(); it.Next(); {
					_, e := it.Element()
					part.Values = append(part.Values, l.bound(a, e))
				}
			} else if ok {
				l.errorf(a.Expr.Range(), "Invalid partition", "values is a non-empty list of the values of the part's rows, such as [1, 2] or [\"eu\", \"us\"].")
			}
		}
		if a := attrs["rest"]; a != nil {
			part.Rest = l.boolean(a)
		}
		n := 0
		for _, set := range []bool{attrs["less_than"] != nil, attrs["values"] != nil, part.Rest} {
			if set {
				n++
			}
		}
		if n != 1 {
			l.errorf(pb.DefRange, "Invalid partition", "A part has one of less_than (range), values (list) or rest = true (the rows no other part takes).")
		}
		p.Parts = append(p.Parts, part)
	}
	t.Partition = p
}

// boundValue reads a partition bound: a whole number or a string.
func (l *loader) boundValue(a *hcl.Attribute) any {
	v, ok := l.value(a, cty.DynamicPseudoType, "a whole number or a string")
	if !ok {
		return nil
	}
	return l.bound(a, v)
}

func (l *loader) bound(a *hcl.Attribute, v cty.Value) any {
	switch {
	case v.IsNull() || !v.IsKnown():
	case v.Type() == cty.String:
		return v.AsString()
	case v.Type() == cty.Number:
		if n, acc := v.AsBigFloat().Int64(); v.AsBigFloat().IsInt() && acc == big.Exact {
			return n
		}
	}
	l.errorf(a.Expr.Range(), "Invalid partition", "A bound of %s is a whole number or a string.", a.Name)
	return nil
}

// partitionRules checks a table's partition against what PostgreSQL or
// TiDB refuses, or would take with another meaning.
func (v *validator) partitionRules(t *compiler.Table) {
	p := t.Partition
	if p == nil || p.Column == "" {
		return
	}
	c := t.Column(p.Column)
	if c == nil {
		v.columns(t, "partition", []string{p.Column}, []hcl.Range{p.ColumnRange})
		return
	}
	k := c.Type.Kind
	integer := k == compiler.TypeSmallint || k == compiler.TypeInt || k == compiler.TypeBigint
	switch {
	case c.Generated != nil:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is generated; PostgreSQL refuses a generated column in a partition key.", t.Name, c.Name)
	case c.Null && p.Type != compiler.PartitionHash:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is null = true; a range or list partition column is NOT NULL: TiDB puts a NULL in the first range part (PostgreSQL refuses the row) and the two place NULLs in list parts otherwise.", t.Name, c.Name)
	case p.Type == compiler.PartitionHash && !integer:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is %s; a hash partition column is smallint, int or bigint (TiDB hashes integers only, error 1659).", t.Name, c.Name, c.Type)
	case p.Type == compiler.PartitionRange && !integer && k != compiler.TypeDate && k != compiler.TypeDatetime:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is %s; a range partition column is smallint, int, bigint, date or datetime (TiDB's RANGE COLUMNS takes no timestamp, and strings are ordered by each database's collation).", t.Name, c.Name, c.Type)
	case p.Type == compiler.PartitionList && !integer && k != compiler.TypeVarchar && k != compiler.TypeChar:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is %s; a list partition column is smallint, int, bigint, varchar or char.", t.Name, c.Name, c.Type)
	}
	if p.Type == compiler.PartitionHash {
		// PostgreSQL's parts of a hash partitioning are tables named
		// <table>_p<i> (dialects/postgres/internal/lower.HashPartName).
		for i := range p.Count {
			if name := fmt.Sprintf("%s_p%d", t.Name, i); v.s.Table(name) != nil || len(name) > 63 {
				v.errorf(p.CountRange, "Invalid partition", "Part %d of table %q is table %q on PostgreSQL, which is another table's name or longer than 63 bytes; rename the table.", i, t.Name, name)
				break
			}
		}
		if p.Count == 0 {
			v.errorf(p.TypeRange, "Invalid partition", "A hash partitioning has count, its number of parts, and no part blocks.")
		}
		for _, part := range p.Parts {
			v.errorf(part.Range, "Invalid partition", "A hash partitioning has count, its number of parts, and no part blocks.")
		}
	} else {
		if p.Count != 0 {
			v.errorf(p.CountRange, "Invalid partition", "count is a hash partitioning's; a %s partitioning has part blocks.", p.Type)
		}
		if len(p.Parts) == 0 {
			v.errorf(p.TypeRange, "Invalid partition", "A %s partitioning has at least one part block.", p.Type)
		}
	}
	v.parts(t, c, integer)
	v.partitionKeys(t)
}

// parts checks the parts of a range or list partitioning: names, bounds of
// the column's kind, increasing (range) or disjoint (list), one rest last.
func (v *validator) parts(t *compiler.Table, c *compiler.Column, integer bool) {
	p := t.Partition
	seen := map[string]bool{}
	values := map[any]string{}
	var last any
	for i, part := range p.Parts {
		if !v.chars(part.Name, "partition part", part.Range) {
			continue
		}
		if len(part.Name) > 63 {
			v.errorf(part.Range, "Invalid partition", "Part name %q is longer than 63 bytes, PostgreSQL's limit for the table it is there.", part.Name)
		}
		if seen[part.Name] {
			v.errorf(part.Range, "Invalid partition", "Table %q has two parts named %q.", t.Name, part.Name)
		}
		seen[part.Name] = true
		if v.s.Table(part.Name) != nil {
			v.errorf(part.Range, "Invalid partition", "Part %q of table %q is named like a table: on PostgreSQL each part is a table of that name.", part.Name, t.Name)
		}
		if part.Rest && i != len(p.Parts)-1 {
			v.errorf(part.Range, "Invalid partition", "The part with rest = true is the last.")
		}
		if p.Type == compiler.PartitionRange && part.Values != nil || p.Type == compiler.PartitionList && part.LessThan != nil {
			v.errorf(part.Range, "Invalid partition", "A part of a range partitioning has less_than, one of a list partitioning values.")
			continue
		}
		for _, b := range append([]any{part.LessThan}, part.Values...) {
			if b == nil {
				continue
			}
			if !v.boundFits(c, integer, b, part.Range) {
				continue
			}
			if p.Type == compiler.PartitionList {
				if prev, dup := values[b]; dup {
					v.errorf(part.Range, "Invalid partition", "Value %v of part %q is also part %q's; a value goes to one part.", b, part.Name, prev)
				}
				values[b] = part.Name
			}
		}
		if p.Type == compiler.PartitionRange && part.LessThan != nil {
			if last != nil && !compiler.BoundLess(last, part.LessThan) {
				v.errorf(part.Range, "Invalid partition", "The less_than of part %q is not more than the part's before it: range parts go in increasing order.", part.Name)
			}
			last = part.LessThan
		}
	}
}

// boundFits reports whether bound b is of column c's kind, reporting it
// at rng when not.
func (v *validator) boundFits(c *compiler.Column, integer bool, b any, rng hcl.Range) bool {
	switch b := b.(type) {
	case int64:
		if integer {
			return true
		}
	case string:
		switch c.Type.Kind {
		case compiler.TypeDate:
			if _, err := time.Parse("2006-01-02", b); err == nil {
				return true
			}
		case compiler.TypeDatetime:
			for _, f := range []string{"2006-01-02", "2006-01-02 15:04:05"} {
				if _, err := time.Parse(f, b); err == nil {
					return true
				}
			}
		case compiler.TypeVarchar, compiler.TypeChar:
			return utf8.ValidString(b) && !strings.ContainsRune(b, 0)
		}
	}
	v.errorf(rng, "Invalid partition", "Bound %#v does not fit column %s (%s): write a whole number for an integer column, \"YYYY-MM-DD\" for a date, \"YYYY-MM-DD hh:mm:ss\" for a datetime.", b, c.Name, c.Type)
	return false
}

// partitionKeys checks that every unique key of a partitioned table holds
// its partition column: both databases refuse one that does not (TiDB
// error 1503), as neither can check it across the parts.
func (v *validator) partitionKeys(t *compiler.Table) {
	col := t.Partition.Column
	why := "both databases refuse a unique key without the partition column (TiDB error 1503): neither can check it across the parts"
	if pk := t.PrimaryKey; pk != nil && !slices.Contains(pk.Columns, col) {
		v.errorf(pk.Range, "Invalid partition", "The primary key of table %q does not hold %q, its partition column; %s. Add it to the key.", t.Name, col, why)
	}
	for _, u := range t.Uniques {
		if !slices.Contains(u.Columns, col) {
			v.errorf(u.Range, "Invalid partition", "Unique constraint %q of table %q does not hold %q, its partition column; %s. Add it to the key.", u.Name, t.Name, col, why)
		}
	}
	for _, idx := range t.Indexes {
		if idx.Unique && !slices.ContainsFunc(idx.Parts, func(p *compiler.IndexPart) bool { return p.Expr == nil && p.Column == col }) {
			v.errorf(idx.Range, "Invalid partition", "Unique index %q of table %q does not hold column %q, its partition column; %s. Add it to the index.", idx.Name, t.Name, col, why)
		}
	}
}
