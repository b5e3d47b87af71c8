package lower

import (
	"slices"
	"strings"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/rules"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// vectorDistance is the distance function of TiDB's VECTOR INDEX that each
// pgvector operator class orders by; TiDB indexes no inner product.
var vectorDistance = map[string]string{
	"vector_cosine_ops": "VEC_COSINE_DISTANCE",
	"vector_l2_ops":     "VEC_L2_DISTANCE",
}

// isVectorMethod reports whether m is one of pgvector's index methods.
func isVectorMethod(m string) bool {
	m = strings.ToLower(m)
	return m == "hnsw" || m == "ivfflat"
}

// vectorIndex lowers an index with pgvector's hnsw or ivfflat method:
// TiDB's VECTOR INDEX over the distance function of its operator class,
// USING HNSW (TiDB's only vector index). It refuses, at the index, what
// TiDB cannot index: several parts, an expression, a vector without a
// dimension, an inner-product class.
func (l *lowerer) vectorIndex(t *compiler.Table, idx *compiler.Index) (*sqltext.Index, bool) {
	object := t.Ref(compiler.KindIndex, idx.Name)
	p := idx.Parts[0]
	var c *compiler.Column
	if p.Expr == nil {
		c = t.Column(p.Column)
	}
	fn := vectorDistance[strings.ToLower(p.OpClass())]
	switch {
	case len(idx.Parts) != 1 || c == nil || c.Type.Kind != compiler.TypeVector:
		l.rec.Errorf(idx.Range, "Vector index TiDB cannot build", "Index %q uses %s: TiDB's VECTOR INDEX covers one vector column; leave it out of TiDB: tidb { skip = true }.", idx.Name, idx.Method())
		return nil, false
	case len(c.Type.Args) == 0:
		l.rec.Errorf(idx.Range, "Vector index TiDB cannot build", "Index %q uses %s over %q, a vector without a dimension: TiDB's VECTOR INDEX needs vector(n). Give the column its dimension, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, idx.Method(), c.Name)
		return nil, false
	case fn == "":
		l.rec.Errorf(p.Range, "Vector index TiDB cannot build", "Index %q orders by %q: TiDB's VECTOR INDEX takes vector_cosine_ops (VEC_COSINE_DISTANCE) or vector_l2_ops (VEC_L2_DISTANCE) only; leave it out of TiDB: tidb { skip = true }.", idx.Name, p.OpClass())
		return nil, false
	case idx.Unique || idx.Where != nil:
		l.rec.Errorf(idx.Range, "Vector index TiDB cannot build", "Index %q uses %s: TiDB's VECTOR INDEX is neither unique nor partial.", idx.Name, idx.Method())
		return nil, false
	case idx.Invisible:
		l.rec.Errorf(idx.InvisibleRange, "Vector index TiDB cannot build", "Index %q uses %s: TiDB cannot make a VECTOR INDEX invisible; leave visible out, or the index out of TiDB: tidb { skip = true }.", idx.Name, idx.Method())
		return nil, false
	}
	li := &sqltext.Index{Name: idx.Overrides.NameIn(Name, idx.Name), Comment: idx.Comment, Kind: "VECTOR",
		Parts: []string{"(" + fn + "(" + lexical.Ident(c.Name) + "))"}, Exprs: []string{fn + "(" + lexical.Ident(c.Name) + ")"},
		Clauses: []string{"USING HNSW"}}
	l.rec.Decide(object, dialects.Lowered, "%s (%s) as VECTOR INDEX ((%s(%s))) USING HNSW: TiDB's vector index, built by TiFlash", idx.Method(), p.OpClass(), fn, c.Name)
	if len(idx.Storage) > 0 {
		l.rec.Decide(object, dialects.Omitted, "storage parameters left out: TiDB's HNSW index takes none")
	}
	l.indexOptions(t, idx, li)
	return li, true
}

// indexOptions explains what TiDB does with an index's include,
// nulls_distinct and storage, and writes INVISIBLE.
func (l *lowerer) indexOptions(t *compiler.Table, idx *compiler.Index, li *sqltext.Index) bool {
	object := t.Ref(compiler.KindIndex, idx.Name)
	if len(idx.Include) > 0 {
		l.rec.Decide(object, dialects.Omitted, "include (%s) left out: TiDB has no non-key columns in an index, a query reads them from the row (the key and its uniqueness stay as they are)", strings.Join(idx.Include, ", "))
	}
	if idx.NullsNotDistinct {
		// A key column is never NULL in the index when it is NOT NULL, or
		// when the predicate picks only rows where it is not.
		nullable := false
		nn := expr.NotNullOn(idx.Where)
		for _, p := range idx.Parts {
			if c := t.Column(p.Column); p.Expr != nil || c == nil || c.Null && !slices.Contains(nn, p.Column) {
				nullable = true
			}
		}
		if nullable {
			l.rec.Errorf(idx.NullsRange, "NULLS NOT DISTINCT on TiDB", "Unique index %q compares NULL keys as equal (nulls_distinct = false); TiDB's unique keys never compare NULLs, so it would store the duplicates PostgreSQL refuses. Make its columns null = false, or leave the index out of TiDB: tidb { skip = true }.", idx.Name)
			return false
		}
		l.rec.Decide(object, dialects.Lowered, "nulls_distinct = false left out: no key column of the rows it indexes is NULL, so there is no NULL key to compare")
	}
	if len(idx.Storage) > 0 && li.Kind == "" {
		l.rec.Decide(object, dialects.Omitted, "storage parameters left out: TiDB's indexes take none")
	}
	if idx.Invisible {
		if fk := cascadeIndexed(l.schema, t, idx); fk != nil {
			l.rec.Errorf(idx.InvisibleRange, "Invisible index a foreign key acts through", "Index %q is led by the columns of foreign key %q, which has a referential action (CASCADE, SET NULL): TiDB runs the action through the first index led by those columns, visible or not, and refuses an invisible one (error 1176, Key %q doesn't exist), so every DELETE or UPDATE of the referenced rows fails there while PostgreSQL runs it. Leave visible out, or leave the index out of TiDB: tidb { skip = true }.", idx.Name, fk.Name, idx.Name)
			return false
		}
		li.Clauses = append(li.Clauses, "INVISIBLE")
	}
	return true
}

// cascadeIndexed returns a foreign key of t on TiDB with a referential
// action whose columns, in TiDB's order, lead idx's key as plain columns
// (found by the differential tester, seed 4242, model 4242012789). TiDB
// runs a CASCADE or SET NULL as a statement with USE INDEX of the first
// index of the table led by them (model.FindIndexByColumns), visible or
// not; the order of indexes depends on when each was created, so any such
// index may be that one (TestInvisibleCascadeIndex). RESTRICT and NO
// ACTION read the index directly and work.
func cascadeIndexed(s *compiler.Schema, t *compiler.Table, idx *compiler.Index) *compiler.ForeignKey {
	partial := idx.Unique && idx.Where != nil && !nullFreeKey(idx)
	var lead []string
	for _, p := range idx.Parts {
		if p.Expr != nil || partial && caseWrapped(idx, p) {
			break
		}
		lead = append(lead, p.Column)
	}
	for _, fk := range t.ForeignKeys {
		if fk.Overrides.Skipped(Name) || actions[fk.OnDelete] == "" && actions[fk.OnUpdate] == "" || len(fk.Columns) > len(lead) {
			continue
		}
		cols := fk.Columns
		if order, ok := rules.ForeignKeyTarget(s, Name, limits, fk); ok && order != nil {
			cols = make([]string, len(order))
			for i, j := range order {
				cols[i] = fk.Columns[j]
			}
		}
		if slices.EqualFunc(cols, lead[:len(cols)], strings.EqualFold) {
			return fk
		}
	}
	return nil
}
