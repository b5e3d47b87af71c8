package load

import (
	"fmt"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/load/partcheck"
)

// partition reads a table's `partition { type, column, count, part ... }`.
func (l *loader) partition(t *compiler.Table, b *hcl.Block) {
	if t.Partition != nil {
		l.errorf(b.DefRange, "Duplicate partition", "Table %q already has a partition block at %s.", t.Name, t.Partition.Range)
		return
	}
	p := &compiler.Partition{Range: b.DefRange, ColumnRange: b.DefRange, TypeRange: b.DefRange, CountRange: b.DefRange, FunctionRange: b.DefRange}
	content, diags := b.Body.Content(&hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "type", Required: true}, {Name: "column", Required: true}, {Name: "function"}, {Name: "count"}},
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
	if a := content.Attributes["function"]; a != nil {
		p.Function, p.FunctionRange = l.str(a), a.Expr.Range()
		if p.Function != compiler.PartitionYear && p.Function != compiler.PartitionMonth {
			l.errorf(a.Expr.Range(), "Invalid partition", "function is \"year\" or \"month\" (of a date or datetime column), the only functions both databases partition by with one meaning.")
		}
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
		if p.Type == compiler.PartitionHash && n != 0 || p.Type != compiler.PartitionHash && n != 1 {
			l.errorf(pb.DefRange, "Invalid partition", "A part has one of less_than (range), values (list) or rest = true (the rows no other part takes); a hash part has none.")
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
	function := p.Function != ""
	switch {
	case function && k != compiler.TypeDate && k != compiler.TypeDatetime:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is %s; function %q takes a date or datetime column.", t.Name, c.Name, c.Type, p.Function)
	case c.Generated != nil:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is generated; PostgreSQL refuses a generated column in a partition key.", t.Name, c.Name)
	case c.Null && p.Type != compiler.PartitionHash:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is null = true; a range or list partition column is NOT NULL: TiDB puts a NULL in the first range part (PostgreSQL refuses the row) and the two place NULLs in list parts otherwise.", t.Name, c.Name)
	case c.Identity != nil && c.Identity.Unordered && p.Type != compiler.PartitionHash:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is an identity with ordered = false; its ids are scattered 64-bit numbers on TiDB (AUTO_RANDOM) and 1, 2, 3... on PostgreSQL, so a row would go to other %s parts on each, or to none. Partition by hash, or by another column.", t.Name, c.Name, p.Type)
	case function:
	case p.Type == compiler.PartitionHash && !integer:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is %s; a hash partition column is smallint, int or bigint (TiDB hashes integers only, error 1659).", t.Name, c.Name, c.Type)
	case p.Type == compiler.PartitionRange && !integer && k != compiler.TypeDate && k != compiler.TypeDatetime:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is %s; a range partition column is smallint, int, bigint, date or datetime (TiDB's RANGE COLUMNS takes no timestamp, and strings are ordered by each database's collation).", t.Name, c.Name, c.Type)
	case p.Type == compiler.PartitionList && !integer && k != compiler.TypeVarchar && k != compiler.TypeChar:
		v.errorf(p.ColumnRange, "Invalid partition", "Column %s.%s is %s; a list partition column is smallint, int, bigint, varchar or char.", t.Name, c.Name, c.Type)
	}
	if p.Type == compiler.PartitionHash {
		// PostgreSQL's parts of a hash partitioning are tables named
		// <table>_p<i> (dialects/postgres/internal/lower.HashPartName),
		// or as its part blocks name them, by remainder.
		for i := range p.Count {
			if name := fmt.Sprintf("%s_p%d", t.Name, i); len(p.Parts) == 0 && (v.s.Table(name) != nil || len(name) > 63) {
				v.errorf(p.CountRange, "Invalid partition", "Part %d of table %q is table %q on PostgreSQL, which is another table's name or longer than 63 bytes; rename the table, or name the parts with part blocks.", i, t.Name, name)
				break
			}
		}
		if p.Count == 0 {
			v.errorf(p.TypeRange, "Invalid partition", "A hash partitioning has count, its number of parts.")
		}
		if len(p.Parts) > 0 && len(p.Parts) != p.Count {
			v.errorf(p.Parts[0].Range, "Invalid partition", "A hash partitioning's part blocks name its parts (PostgreSQL's tables), in remainder order: %d blocks for count = %d.", len(p.Parts), p.Count)
		}
	} else {
		if p.Count != 0 {
			v.errorf(p.CountRange, "Invalid partition", "count is a hash partitioning's; a %s partitioning has part blocks.", p.Type)
		}
		if len(p.Parts) == 0 {
			v.errorf(p.TypeRange, "Invalid partition", "A %s partitioning has at least one part block.", p.Type)
		}
	}
	// The year or month of a date is a whole number: the bounds are too.
	partcheck.Parts(v.s, t, c, integer || function, v.chars, v.errorf)
	partcheck.Keys(t, v.errorf)
}
