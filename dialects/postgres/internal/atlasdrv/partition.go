package atlasdrv

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/stmtlex"
)

// Parts are the parts of a partitioned table (tables PARTITION OF it),
// which Atlas v1.2.3 leaves out of its inspection: it reads the parent's
// PARTITION BY (postgres.Partition) and no partition.
type Parts struct {
	schema.Attr
	List []Part
}

// Part is one part: its table's name and its bound as pg_get_expr prints
// it ("FOR VALUES FROM (MINVALUE) TO ('2025-01-01')", "DEFAULT").
// Partitioned: the part is itself partitioned (never the model's, which
// partitions once; a database changed by hand), so that PostgreSQL builds
// no index of it CONCURRENTLY.
type Part struct {
	Name        string `json:"name"`
	Bound       string `json:"bound"`
	Partitioned bool   `json:"partitioned,omitempty"`
}

// PartsOf returns t's parts, nil for none.
func PartsOf(t *schema.Table) []Part {
	for _, a := range t.Attrs {
		if p, ok := a.(*Parts); ok {
			return p.List
		}
	}
	return nil
}

const partsQuery = `SELECT p.relname, c.relname, pg_get_expr(c.relpartbound, c.oid), c.relkind = 'p' FROM pg_inherits i
JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
JOIN pg_namespace n ON n.oid = p.relnamespace
WHERE c.relispartition AND c.relkind IN ('r', 'p') AND n.nspname = COALESCE(NULLIF($1, ''), current_schema())
ORDER BY p.relname, c.relname`

// inspectParts puts Parts on the partitioned tables of s.
func (d *atlasDriver) inspectParts(ctx context.Context, s *schema.Schema) error {
	if !slices.ContainsFunc(s.Tables, func(t *schema.Table) bool { return partitionOf(t) != nil }) {
		return nil
	}
	rows, err := d.conn.QueryContext(ctx, partsQuery, s.Name)
	if err != nil {
		return fmt.Errorf("postgres: querying partitions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var parent, name, bound string
		var partitioned bool
		if err := rows.Scan(&parent, &name, &bound, &partitioned); err != nil {
			return err
		}
		t, ok := s.Table(parent)
		if !ok {
			continue
		}
		ps, ok := partsAttr(t)
		if !ok {
			ps = &Parts{}
			t.Attrs = append(t.Attrs, ps)
		}
		ps.List = append(ps.List, Part{Name: name, Bound: bound, Partitioned: partitioned})
	}
	return rows.Err()
}

func partsAttr(t *schema.Table) (*Parts, bool) {
	for _, a := range t.Attrs {
		if p, ok := a.(*Parts); ok {
			return p, true
		}
	}
	return nil, false
}

func partitionOf(t *schema.Table) *postgres.Partition {
	for _, a := range t.Attrs {
		if p, ok := a.(*postgres.Partition); ok {
			return p
		}
	}
	return nil
}

// PartitionKey is t's PARTITION BY key as "RANGE (d)", "" for none.
func PartitionKey(t *schema.Table) string {
	p := partitionOf(t)
	if p == nil {
		return ""
	}
	var cols []string
	for _, pp := range p.Parts {
		if pp.C != nil {
			cols = append(cols, pp.C.Name)
		} else if x, ok := pp.X.(*schema.RawExpr); ok {
			cols = append(cols, "("+x.X+")")
		} else {
			cols = append(cols, "("+fmt.Sprint(pp.X)+")")
		}
	}
	return p.T + " (" + strings.Join(cols, ", ") + ")"
}

// PartAdded and PartDropped are a part added (CREATE TABLE ... PARTITION
// OF) or dropped (DROP TABLE, with its rows); PartitionRefused a change
// of the partitioning that cannot be made in place, refused with Change.
type (
	PartAdded struct {
		schema.Attr
		Part Part
	}
	PartDropped struct {
		schema.Attr
		Part Part
	}
	PartitionRefused struct {
		schema.Attr
		Change string
	}
)

// partitionDiff strips the partition keys of the tables on both sides from
// Atlas's diff (which fails on a changed key, "drop and add is required",
// saying nothing of what to write) and returns a function that puts them
// back and adds the changes of the partitionings to changes.
func partitionDiff(from, to []*schema.Table) (finish func(changes []schema.Change) []schema.Change) {
	saved := map[*schema.Table][]schema.Attr{}
	byName := map[string]*schema.Table{}
	for _, f := range from {
		byName[schemaName(f)+"\x00"+f.Name] = f
	}
	for _, t := range to {
		f := byName[schemaName(t)+"\x00"+t.Name]
		if f == nil {
			continue
		}
		for _, x := range []*schema.Table{f, t} {
			if _, done := saved[x]; !done && partitionOf(x) != nil {
				saved[x] = x.Attrs
				x.Attrs = slices.DeleteFunc(slices.Clone(x.Attrs), func(a schema.Attr) bool { _, ok := a.(*postgres.Partition); return ok })
			}
		}
	}
	return func(changes []schema.Change) []schema.Change {
		for x, attrs := range saved {
			x.Attrs = attrs
		}
		return withTableChanges(changes, from, to, func(f, t *schema.Table, modify func(create bool) *schema.ModifyTable) {
			if cs := partChanges(f, t); len(cs) > 0 {
				mt := modify(true)
				mt.Changes = append(mt.Changes, cs...)
			}
		})
	}
}

// partChanges are the changes of a table's partitioning: parts added and
// dropped where the key stays; anything else refused.
func partChanges(f, t *schema.Table) []schema.Change {
	fk, tk := PartitionKey(f), PartitionKey(t)
	refuse := func(change string) []schema.Change {
		return []schema.Change{&schema.ModifyAttr{From: &PartitionRefused{}, To: &PartitionRefused{Change: change}}}
	}
	switch {
	case fk == "" && tk == "":
		return nil
	case fk == "":
		return refuse("partitioning an existing table")
	case tk == "":
		return refuse("removing the partitioning of a table")
	case fk != tk:
		return refuse(fmt.Sprintf("changing the partition key from %s to %s", fk, tk))
	}
	bounds := map[string]string{}
	for _, p := range PartsOf(t) {
		bounds[p.Name] = p.Bound
	}
	var drops, rebounds, adds []schema.Change
	was := map[string]bool{}
	for _, p := range PartsOf(f) {
		was[p.Name] = true
		switch b, ok := bounds[p.Name]; {
		case !ok:
			drops = append(drops, &schema.ModifyAttr{From: &PartAdded{Part: p}, To: &PartDropped{Part: p}})
		case b != p.Bound && upper(b) != "" && upper(b) == upper(p.Bound):
			// A range part whose lower bound moves, the part before it
			// dropped (or added): detached and attached again.
			rebounds = append(rebounds, &schema.ModifyAttr{From: &PartAdded{Part: p}, To: &PartRebound{Part: Part{Name: p.Name, Bound: b}}})
		case b != p.Bound:
			return refuse("changing the bound of part " + p.Name)
		}
	}
	for _, p := range PartsOf(t) {
		if !was[p.Name] {
			adds = append(adds, &schema.ModifyAttr{From: &PartDropped{Part: p}, To: &PartAdded{Part: p}})
		}
	}
	return append(append(drops, rebounds...), adds...)
}

// upper is the upper bound of a range part's bound, "" for another.
func upper(bound string) string {
	if i := strings.LastIndex(bound, " TO ("); i >= 0 && strings.HasPrefix(bound, "FOR VALUES FROM (") {
		return bound[i:]
	}
	return ""
}

// PartRebound is a range part given another lower bound (DETACH PARTITION
// and ATTACH PARTITION ... FOR VALUES ...).
type PartRebound struct {
	schema.Attr
	Part Part
}

// partStmt is the statement of a part added or dropped, "" for another
// change.
func partStmt(t *schema.Table, c schema.Change, qualifier *string) ([]*migrate.Change, bool) {
	m, ok := c.(*schema.ModifyAttr)
	if !ok {
		return nil, false
	}
	q := schemaName(t)
	if qualifier != nil {
		q = *qualifier
	}
	name := func(n string) string {
		if q != "" {
			return ident(q) + "." + ident(n)
		}
		return ident(n)
	}
	switch x := m.To.(type) {
	case *PartAdded:
		return []*migrate.Change{{Cmd: fmt.Sprintf("CREATE TABLE %s PARTITION OF %s %s", name(x.Part.Name), name(t.Name), x.Part.Bound), Comment: fmt.Sprintf("add part %q of table %q", x.Part.Name, t.Name)}}, true
	case *PartDropped:
		return []*migrate.Change{{Cmd: "DROP TABLE " + name(x.Part.Name), Comment: fmt.Sprintf("drop part %q of table %q with its rows", x.Part.Name, t.Name)}}, true
	case *PartRebound:
		return []*migrate.Change{
			{Cmd: fmt.Sprintf("ALTER TABLE %s DETACH PARTITION %s", name(t.Name), name(x.Part.Name)), Comment: fmt.Sprintf("detach part %q of table %q to bound it again", x.Part.Name, t.Name)},
			{Cmd: fmt.Sprintf("ALTER TABLE %s ATTACH PARTITION %s %s", name(t.Name), name(x.Part.Name), x.Part.Bound), Comment: fmt.Sprintf("attach part %q of table %q %s", x.Part.Name, t.Name, x.Part.Bound)},
		}, true
	}
	return nil, false
}

// extractKey is a partition key of the year or month of a column as
// pg_get_expr prints it: EXTRACT(year FROM day).
var extractKey = regexp.MustCompile(`^\(?EXTRACT\((year|month) FROM ("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\)\)?$`)

// Model is t's partitioning as the model's partition, nil for none or for
// one the model cannot hold (a key of several columns or an expression
// other than EXTRACT(year|month FROM column)):
// range parts in the order of their bounds, each from the one before it
// (MINVALUE for the first), and a hash partitioning's modulus as its
// count.
func Model(t *schema.Table) *compiler.Partition {
	p := partitionOf(t)
	if p == nil || len(p.Parts) != 1 {
		return nil
	}
	out := &compiler.Partition{Type: strings.ToLower(p.T)}
	switch x, _ := p.Parts[0].X.(*schema.RawExpr); {
	case p.Parts[0].C != nil:
		out.Column = p.Parts[0].C.Name
	case x != nil && extractKey.MatchString(x.X):
		m := extractKey.FindStringSubmatch(x.X)
		out.Function, out.Column = m[1], m[2]
		if strings.HasPrefix(m[2], `"`) {
			out.Column = strings.ReplaceAll(m[2][1:len(m[2])-1], `""`, `"`)
		}
	default:
		return nil
	}
	// A numeric key's bounds print quoted: ('2025') for EXTRACT, and
	// ('0') for a bigint or smallint column (PostgreSQL prints only an
	// integer's plain; plan oracle seed 61616, evolution 61616184981,
	// where import left such a table out).
	whole := out.Function != ""
	if c := p.Parts[0].C; c != nil && c.Type != nil {
		_, whole = c.Type.Type.(*schema.IntegerType)
	}
	hashNames := map[int]string{}
	for _, part := range PartsOf(t) {
		b := part.Bound
		mp := &compiler.PartitionPart{Name: part.Name}
		switch {
		case out.Type == compiler.PartitionHash:
			var mod, rem int
			if _, err := fmt.Sscanf(strings.ToLower(b), "for values with (modulus %d, remainder %d)", &mod, &rem); err == nil {
				out.Count = mod
				hashNames[rem] = part.Name
			}
			continue
		case b == "DEFAULT" || strings.HasSuffix(b, "TO (MAXVALUE)"):
			mp.Rest = true
		case strings.HasPrefix(b, "FOR VALUES IN (") && strings.HasSuffix(b, ")"):
			mp.Values = stmtlex.Literals(strings.TrimSuffix(strings.TrimPrefix(b, "FOR VALUES IN ("), ")"), false)
		default:
			if i := strings.LastIndex(b, " TO ("); i >= 0 && strings.HasSuffix(b, ")") {
				if vs := stmtlex.Literals(b[i+5:len(b)-1], false); len(vs) == 1 {
					mp.LessThan = vs[0]
				}
			}
		}
		if whole {
			mp.LessThan = wholeNumber(mp.LessThan)
			for i, v := range mp.Values {
				mp.Values[i] = wholeNumber(v)
			}
		}
		out.Parts = append(out.Parts, mp)
	}
	// Hash parts named otherwise than <table>_p<remainder> are named by
	// part blocks, in remainder order.
	for i := range out.Count {
		if hashNames[i] != fmt.Sprintf("%s_p%d", t.Name, i) {
			for j := range out.Count {
				out.Parts = append(out.Parts, &compiler.PartitionPart{Name: hashNames[j]})
			}
			break
		}
	}
	// A list's DEFAULT part is its last (the query orders parts by name).
	slices.SortStableFunc(out.Parts, func(a, b *compiler.PartitionPart) int {
		switch {
		case a.Rest == b.Rest:
			return 0
		case a.Rest:
			return 1
		}
		return -1
	})
	if out.Type == compiler.PartitionRange {
		slices.SortStableFunc(out.Parts, func(a, b *compiler.PartitionPart) int {
			switch {
			case a.Rest != b.Rest && a.Rest:
				return 1
			case a.Rest != b.Rest:
				return -1
			case compiler.BoundLess(a.LessThan, b.LessThan):
				return -1
			case compiler.BoundLess(b.LessThan, a.LessThan):
				return 1
			}
			return 0
		})
	}
	return out
}

// wholeNumber is v as an int64 where it is the text of one, else v.
func wholeNumber(v any) any {
	if s, ok := v.(string); ok {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
	}
	return v
}

// stateLine starts the comment lines a stored state keeps each
// partitioned table's parts in, after Atlas's HCL (which leaves them out).
const stateLine = "# schemagen postgres parts "

type stateParts struct {
	Table string `json:"table"`
	Parts []Part `json:"parts"`
}

// MarshalParts writes the parts of s's tables as comment lines to append
// to its stored state.
func MarshalParts(s *schema.Schema) ([]byte, error) {
	var b []byte
	for _, t := range s.Tables {
		if ps := PartsOf(t); len(ps) > 0 {
			j, err := json.Marshal(stateParts{Table: t.Name, Parts: ps})
			if err != nil {
				return nil, err
			}
			b = append(append(append(b, stateLine...), j...), '\n')
		}
	}
	return b, nil
}

// UnmarshalParts sets on s the parts the comment lines of a stored state
// hold.
func UnmarshalParts(s *schema.Schema, b []byte) error {
	for _, l := range strings.Split(string(b), "\n") {
		j, ok := strings.CutPrefix(l, stateLine)
		if !ok {
			continue
		}
		var o stateParts
		if err := json.Unmarshal([]byte(j), &o); err != nil {
			return fmt.Errorf("stored state: %w", err)
		}
		t, ok := s.Table(o.Table)
		if !ok {
			return fmt.Errorf("stored state: parts of a table it does not hold, %q", o.Table)
		}
		schema.ReplaceOrAppend(&t.Attrs, &Parts{List: o.Parts})
	}
	return nil
}
