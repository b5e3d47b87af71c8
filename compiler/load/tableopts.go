package load

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
)

// ttl reads a table's `ttl { column, interval, unit, enabled, job_interval }`.
func (l *loader) ttl(t *compiler.Table, b *hcl.Block) {
	if t.TTL != nil {
		l.errorf(b.DefRange, "Duplicate ttl", "Table %q already has a ttl block at %s.", t.Name, t.TTL.Range)
		return
	}
	ttl := &compiler.TTL{Range: b.DefRange, ColumnRange: b.DefRange, IntervalRange: b.DefRange, JobIntervalRange: b.DefRange}
	attrs := l.attrs(b, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "column", Required: true}, {Name: "interval", Required: true}, {Name: "unit", Required: true},
		{Name: "enabled"}, {Name: "job_interval"},
	}})
	if a := attrs["column"]; a != nil {
		ttl.Column, ttl.ColumnRange = l.str(a), a.Expr.Range()
	}
	if a := attrs["interval"]; a != nil {
		ttl.IntervalRange = a.Expr.Range()
		if v, ok := l.value(a, cty.Number, "a whole number"); ok {
			n, acc := v.AsBigFloat().Int64()
			if !v.AsBigFloat().IsInt() || acc != 0 || n < 1 || n > 1<<31-1 {
				l.errorf(a.Expr.Range(), "Invalid ttl", "interval is a whole number of units from 1 to 2147483647.")
			}
			ttl.Interval = n
		}
	}
	if a := attrs["unit"]; a != nil {
		ttl.Unit = strings.ToUpper(l.str(a))
		if !slices.Contains(compiler.TTLUnits, ttl.Unit) {
			l.errorf(a.Expr.Range(), "Invalid ttl", "unit is one of %s (any case).", strings.ToLower(strings.Join(compiler.TTLUnits, ", ")))
		}
	}
	if max, ok := compiler.TTLMax[ttl.Unit]; ok && ttl.Interval > max {
		l.errorf(ttl.IntervalRange, "Invalid ttl", "interval is at most %d %s (about 1,000 years): TiDB refuses an interval that reaches back before year 1 from the day the DDL runs (error 1441).", max, strings.ToLower(ttl.Unit))
	}
	if a := attrs["enabled"]; a != nil {
		v := l.boolean(a)
		ttl.Enabled = &v
	}
	if a := attrs["job_interval"]; a != nil {
		ttl.JobInterval, ttl.JobIntervalRange = l.str(a), a.Expr.Range()
		if !compiler.ValidJobInterval(ttl.JobInterval) {
			l.errorf(a.Expr.Range(), "Invalid ttl", "job_interval is a duration such as \"30m\", \"24h\" or \"1h30m\": numbers each followed by m, h or d, as TiDB reads TTL_JOB_INTERVAL (error 1064 otherwise).")
		}
	}
	t.TTL = ttl
}

// ttlRules checks a table's ttl against what TiDB refuses: its column is
// one of the table's date, datetime or timestamp columns (error 8148), and
// a clustered primary key holds no double or float (8153).
func (v *validator) ttlRules(t *compiler.Table) {
	x := t.TTL
	if x == nil || x.Column == "" {
		return
	}
	if pk := t.PrimaryKey; pk != nil && (pk.Clustered == nil || *pk.Clustered) {
		for _, name := range pk.Columns {
			if c := t.Column(name); c != nil && (c.Type.Kind == compiler.TypeDouble || c.Type.Kind == compiler.TypeFloat) {
				v.errorf(x.Range, "Invalid ttl", "Table %q has a ttl and a clustered primary key over %s column %q, which TiDB refuses (error 8153): its TTL jobs delete rows by key and cannot compare floating-point keys exactly; write clustered = false in its primary_key block, or key it otherwise.", t.Name, c.Type, name)
				break
			}
		}
	}
	c := t.Column(x.Column)
	switch {
	case c == nil:
		v.columns(t, "ttl", []string{x.Column}, []hcl.Range{x.ColumnRange})
	case c.Type.Kind != compiler.TypeDate && c.Type.Kind != compiler.TypeDatetime && c.Type.Kind != compiler.TypeTimestamp && c.Type.Kind != compiler.TypeInvalid:
		v.errorf(x.ColumnRange, "Invalid ttl", "Column %s.%s is %s; a ttl's column is a date, datetime or timestamp column (TiDB refuses others, error 8148).", t.Name, c.Name, c.Type)
	}
}

// fkTableRules checks foreign key fk of table t, to table ref, against
// what TiDB refuses of the tables it joins: neither is partitioned (error
// 1506), and a table with a ttl cannot be referenced (error 8152).
func (v *validator) fkTableRules(t *compiler.Table, fk *compiler.ForeignKey, ref *compiler.Table) {
	for _, pt := range []*compiler.Table{t, ref} {
		if pt.Partition != nil {
			v.errorf(fk.Range, "Invalid foreign key", "Foreign key %q joins partitioned table %q (partition at %s): TiDB refuses a foreign key from or to a partitioned table (error 1506). Drop the key, or the partitioning.", fk.Name, pt.Name, pt.Partition.Range)
			return
		}
	}
	if ref.TTL != nil {
		v.errorf(fk.RefRange, "Invalid foreign key", "Foreign key %q of table %q references table %q, which has a ttl (at %s): TiDB refuses a foreign key to a table with TTL (error 8152), as its jobs delete rows without the key's checks. Drop the key, or the ttl.", fk.Name, t.Name, ref.Name, ref.TTL.Range)
	}
}
