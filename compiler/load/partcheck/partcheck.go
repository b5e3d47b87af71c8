// Package partcheck checks the parts and keys of a partitioned table
// against what PostgreSQL and TiDB refuse, or would take with another
// meaning, for the loader's validation.
package partcheck

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
)

// Report reports an error of the model at rng.
type Report func(rng hcl.Range, summary, format string, args ...any)

// Parts checks the parts of a range or list partitioning: names, bounds of
// the column's kind, increasing (range) or disjoint (list), one rest last.
//
// named checks a part's name as the model's other names are checked, and
// report reports an error at its range.
func Parts(s *compiler.Schema, t *compiler.Table, c *compiler.Column, integer bool, named func(name, what string, rng hcl.Range) bool, report Report) {
	p := t.Partition
	seen := map[string]bool{}
	values := map[any]string{}
	var last any
	for i, part := range p.Parts {
		if !named(part.Name, "partition part", part.Range) {
			continue
		}
		if len(part.Name) > 63 {
			report(part.Range, "Invalid partition", "Part name %q is longer than 63 bytes, PostgreSQL's limit for the table it is there.", part.Name)
		}
		if seen[part.Name] {
			report(part.Range, "Invalid partition", "Table %q has two parts named %q.", t.Name, part.Name)
		}
		seen[part.Name] = true
		if s.Table(part.Name) != nil {
			report(part.Range, "Invalid partition", "Part %q of table %q is named like a table: on PostgreSQL each part is a table of that name.", part.Name, t.Name)
		}
		if part.Rest && i != len(p.Parts)-1 {
			report(part.Range, "Invalid partition", "The part with rest = true is the last.")
		}
		if p.Type == compiler.PartitionRange && part.Values != nil || p.Type == compiler.PartitionList && part.LessThan != nil {
			report(part.Range, "Invalid partition", "A part of a range partitioning has less_than, one of a list partitioning values.")
			continue
		}
		for _, b := range append([]any{part.LessThan}, part.Values...) {
			if b == nil {
				continue
			}
			if !boundFits(c, integer, b, part.Range, report) {
				continue
			}
			if p.Type == compiler.PartitionList {
				if prev, dup := values[b]; dup {
					report(part.Range, "Invalid partition", "Value %v of part %q is also part %q's; a value goes to one part.", b, part.Name, prev)
				}
				values[b] = part.Name
			}
		}
		if p.Type == compiler.PartitionRange && part.LessThan != nil {
			if last != nil && !compiler.BoundLess(last, part.LessThan) {
				report(part.Range, "Invalid partition", "The less_than of part %q is not more than the part's before it: range parts go in increasing order.", part.Name)
			}
			last = part.LessThan
		}
	}
}

// boundFits reports whether bound b is of column c's kind, reporting it
// at rng when not.
func boundFits(c *compiler.Column, integer bool, b any, rng hcl.Range, report Report) bool {
	switch b := b.(type) {
	case int64:
		if integer {
			return true
		}
	case string:
		if c.Type.Kind != compiler.TypeVarchar && c.Type.Kind != compiler.TypeChar && integer {
			break // the bounds of a function's partitioning are whole numbers
		}
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
	if k := c.Type.Kind; integer && k != compiler.TypeSmallint && k != compiler.TypeInt && k != compiler.TypeBigint {
		report(rng, "Invalid partition", "Bound %#v does not fit: the partition key, the year or month of column %s, is a whole number.", b, c.Name)
		return false
	}
	report(rng, "Invalid partition", "Bound %#v does not fit column %s (%s): write a whole number for an integer column, \"YYYY-MM-DD\" for a date, \"YYYY-MM-DD hh:mm:ss\" for a datetime.", b, c.Name, c.Type)
	return false
}

// Keys checks that every unique key of a partitioned table holds
// its partition column: both databases refuse one that does not (TiDB
// error 1503), as neither can check it across the parts.
func Keys(t *compiler.Table, report Report) {
	col := t.Partition.Column
	if f := t.Partition.Function; f != "" {
		why := fmt.Sprintf("table %q is partitioned by %s(%s), an expression, and PostgreSQL refuses a unique key on such a table (0A000: unique constraints cannot be used when partition keys include expressions)", t.Name, f, col)
		if pk := t.PrimaryKey; pk != nil {
			report(pk.Range, "Invalid partition", "A primary key: %s. Drop the key, or partition by the column.", why)
		}
		for _, u := range t.Uniques {
			report(u.Range, "Invalid partition", "Unique constraint %q: %s. Drop it, or partition by the column.", u.Name, why)
		}
		for _, idx := range t.Indexes {
			if idx.Unique {
				report(idx.Range, "Invalid partition", "Unique index %q: %s. Make it non-unique, or partition by the column.", idx.Name, why)
			}
		}
		return
	}
	why := "both databases refuse a unique key without the partition column (TiDB error 1503): neither can check it across the parts"
	if pk := t.PrimaryKey; pk != nil && !slices.Contains(pk.Columns, col) {
		report(pk.Range, "Invalid partition", "The primary key of table %q does not hold %q, its partition column; %s. Add it to the key.", t.Name, col, why)
	}
	for _, u := range t.Uniques {
		if !slices.Contains(u.Columns, col) {
			report(u.Range, "Invalid partition", "Unique constraint %q of table %q does not hold %q, its partition column; %s. Add it to the key.", u.Name, t.Name, col, why)
		}
	}
	for _, idx := range t.Indexes {
		switch {
		case idx.Unique && !slices.ContainsFunc(idx.Parts, func(p *compiler.IndexPart) bool { return p.Expr == nil && p.Column == col }):
			report(idx.Range, "Invalid partition", "Unique index %q of table %q does not hold column %q, its partition column; %s. Add it to the index.", idx.Name, t.Name, col, why)
		case idx.Unique && idx.Where != nil:
			// TiDB has no partial index: its unique key is over generated
			// columns (CASE WHEN where THEN column END), which it does not
			// count as the partition column.
			report(idx.WhereRange, "Invalid partition", "Unique index %q of table %q has a where, and the table is partitioned: TiDB, which has no partial index, holds it over generated columns computed from %q, and refuses those as the partition column (error 8264: Global Index is needed). Drop the where, or partition the table by no column of the index.", idx.Name, t.Name, col)
		}
	}
}
