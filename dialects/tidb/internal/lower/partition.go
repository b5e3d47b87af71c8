package lower

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// partition lowers a table's partitioning to TiDB's PARTITION BY: RANGE
// COLUMNS and LIST COLUMNS over the column (dates and strings as well as
// integers), HASH over an integer column with its number of parts.
func (l *lowerer) partition(t *compiler.Table, lt *sqltext.Table) {
	p := t.Partition
	if p == nil {
		return
	}
	lt.Partition = PartitionClause(p)
	l.rec.About(t.Name, compiler.KindTable, "")
	l.rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Lowered, "partition as PARTITION BY %s: the rows are stored by part, a query that names %s reads only the parts it needs, and a part can be added or dropped (with its rows) without touching the others", strings.ToUpper(p.Type), keyOf(p))
}

// keyOf is what p partitions by, for explain: the column, or the
// function of it.
func keyOf(p *compiler.Partition) string {
	if p.Function != "" {
		return p.Function + "(" + p.Column + ")"
	}
	return p.Column
}

// PartitionClause is p as TiDB's PARTITION BY clause, as TiDB prints it
// back in SHOW CREATE TABLE.
func PartitionClause(p *compiler.Partition) string {
	col := lexical.Ident(p.Column)
	method := strings.ToUpper(p.Type) + " COLUMNS"
	if p.Function != "" {
		// RANGE (YEAR(`day`)): an expression's partitioning has no
		// COLUMNS, and its bounds are whole numbers.
		col, method = "("+strings.ToUpper(p.Function)+"("+col+"))", strings.ToUpper(p.Type)+" "
	} else {
		col = "(" + col + ")"
	}
	if p.Type == compiler.PartitionHash {
		return fmt.Sprintf("PARTITION BY HASH %s PARTITIONS %d", col, p.Count)
	}
	parts := make([]string, len(p.Parts))
	for i, part := range p.Parts {
		parts[i] = PartDef(p.Type, part)
	}
	return fmt.Sprintf("PARTITION BY %s%s\n(%s)", method, col, strings.Join(parts, ",\n "))
}

// PartDef is one part's definition in PARTITION BY or ADD PARTITION.
func PartDef(typ string, part *compiler.PartitionPart) string {
	def := "PARTITION " + lexical.Ident(part.Name)
	switch {
	case part.Rest && typ == compiler.PartitionRange:
		return def + " VALUES LESS THAN (MAXVALUE)"
	case part.Rest:
		return def + " DEFAULT"
	case typ == compiler.PartitionRange:
		return def + " VALUES LESS THAN (" + Literal(part.LessThan) + ")"
	}
	vals := make([]string, len(part.Values))
	for i, v := range part.Values {
		vals[i] = Literal(v)
	}
	return def + " VALUES IN (" + strings.Join(vals, ",") + ")"
}

// Literal is a partition bound as a TiDB literal.
func Literal(v any) string {
	if n, ok := v.(int64); ok {
		return strconv.FormatInt(n, 10)
	}
	s, _ := v.(string)
	return lexical.String(s)
}
