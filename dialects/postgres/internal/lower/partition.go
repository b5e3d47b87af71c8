package lower

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// partition lowers a table's partitioning to PostgreSQL's declarative
// partitioning: PARTITION BY on the table, and a table PARTITION OF it per
// part (a hash partitioning's parts are named <table>_p<i>).
func (l *lowerer) partition(t *compiler.Table, lt *sqltext.Table) {
	p := t.Partition
	if p == nil {
		return
	}
	key := lexical.Ident(p.Column)
	if p.Function != "" {
		// EXTRACT(YEAR FROM day), a numeric: PostgreSQL takes it as a
		// partition key without parentheses (a function call).
		key = "EXTRACT(" + strings.ToUpper(p.Function) + " FROM " + key + ")"
	}
	lt.Partition = fmt.Sprintf("PARTITION BY %s (%s)", strings.ToUpper(p.Type), key)
	for _, s := range PartStmts(t.Name, p) {
		lt.After = append(lt.After, s+";")
	}
	l.rec.About(t.Name, compiler.KindTable, "")
	l.rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Lowered, "partition as PARTITION BY %s, each part a table PARTITION OF it: a query that names %s reads only the parts it needs, and a part can be added, or detached and dropped with its rows, without touching the others", strings.ToUpper(p.Type), keyOf(p))
}

// keyOf is what p partitions by, for explain: the column, or the
// function of it.
func keyOf(p *compiler.Partition) string {
	if p.Function != "" {
		return p.Function + "(" + p.Column + ")"
	}
	return p.Column
}

// PartStmts are the CREATE TABLE ... PARTITION OF statements of p's parts.
func PartStmts(table string, p *compiler.Partition) []string {
	var out []string
	if p.Type == compiler.PartitionHash {
		for i := range p.Count {
			name := HashPartName(table, i)
			if i < len(p.Parts) {
				name = p.Parts[i].Name
			}
			out = append(out, fmt.Sprintf("CREATE TABLE %s PARTITION OF %s FOR VALUES WITH (MODULUS %d, REMAINDER %d)", lexical.Ident(name), lexical.Ident(table), p.Count, i))
		}
		return out
	}
	lower := "MINVALUE"
	for _, part := range p.Parts {
		out = append(out, fmt.Sprintf("CREATE TABLE %s PARTITION OF %s %s", lexical.Ident(part.Name), lexical.Ident(table), PartBound(p.Type, part, lower)))
		if part.LessThan != nil {
			lower = Literal(part.LessThan)
		}
	}
	return out
}

// HashPartName is the name of part i of a hash partitioning of table that
// names no part.
func HashPartName(table string, i int) string { return fmt.Sprintf("%s_p%d", table, i) }

// PartBound is one part's bound; lower is the less_than of the range part
// before it (MINVALUE for the first).
func PartBound(typ string, part *compiler.PartitionPart, lower string) string {
	switch {
	case part.Rest && typ == compiler.PartitionRange:
		return "FOR VALUES FROM (" + lower + ") TO (MAXVALUE)"
	case part.Rest:
		return "DEFAULT"
	case typ == compiler.PartitionRange:
		return "FOR VALUES FROM (" + lower + ") TO (" + Literal(part.LessThan) + ")"
	}
	vals := make([]string, len(part.Values))
	for i, v := range part.Values {
		vals[i] = Literal(v)
	}
	return "FOR VALUES IN (" + strings.Join(vals, ", ") + ")"
}

// Literal is a partition bound as a PostgreSQL literal.
func Literal(v any) string {
	if n, ok := v.(int64); ok {
		return strconv.FormatInt(n, 10)
	}
	s, _ := v.(string)
	return lexical.String(s)
}
