package atlasdrv

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/internal/stmtlex"
)

// Partition is a table's PARTITION BY as SHOW CREATE TABLE prints it,
// which Atlas's MySQL driver neither inspects nor plans: Method is "RANGE
// COLUMNS", "LIST COLUMNS", "RANGE", "LIST" or "HASH", Key the column's
// name, Func the function of it the key is ("YEAR", "MONTH"; "" for the
// column itself), Count a hash's number of parts, Parts the others' parts
// in order.
type Partition struct {
	schema.Attr `json:"-"`
	Method      string `json:"method"`
	Key         string `json:"key"`
	Func        string `json:"func,omitempty"`
	Count       int    `json:"count,omitempty"`
	Parts       []Part `json:"parts,omitempty"`
}

// Part is one part: its name and its definition after the name ("VALUES
// LESS THAN ('2025-01-01')", "VALUES IN (1,2)", "DEFAULT").
type Part struct {
	Name string `json:"name"`
	Def  string `json:"def"`
}

// PartitionOf returns t's partitioning, or nil.
func PartitionOf(t *schema.Table) *Partition {
	for _, a := range t.Attrs {
		if p, ok := a.(*Partition); ok {
			return p
		}
	}
	return nil
}

var (
	// PARTITION BY RANGE COLUMNS(`d`)\n(PARTITION `p0` VALUES LESS THAN ('2025-01-01'),\n PARTITION ...)
	// or PARTITION BY HASH (`id`) PARTITIONS 4, after the table's options.
	// PARTITION BY RANGE (YEAR(`d`))\n(PARTITION `p0` VALUES LESS THAN (2025), ...)
	// or PARTITION BY HASH (MONTH(`d`)) PARTITIONS 4, by a function.
	partitionBy = regexp.MustCompile("(?s)\\nPARTITION BY (RANGE COLUMNS|LIST COLUMNS|RANGE|LIST|HASH) ?\\((?:`((?:[^`]|``)+)`|((?i:YEAR|MONTH))\\(`((?:[^`]|``)+)`\\))\\)(?: PARTITIONS (\\d+))?(?:\\n\\((.*)\\))?$")
	partDef     = regexp.MustCompile("^PARTITION `((?:[^`]|``)+)` (.*)$")
)

// readPartition sets t's partitioning from its CREATE TABLE text, and
// drops the CREATE_OPTIONS "partitioned" Atlas read from
// information_schema (which its planner would write into a CREATE TABLE).
func readPartition(t *schema.Table, create string) {
	t.Attrs = slicesDeleteCreateOption(t.Attrs, "partitioned")
	m := partitionBy.FindStringSubmatch(create)
	if m == nil {
		return
	}
	p := &Partition{Method: m[1], Key: strings.ReplaceAll(m[2]+m[4], "``", "`"), Func: strings.ToUpper(m[3])}
	if m[5] != "" {
		p.Count, _ = strconv.Atoi(m[5])
	}
	if m[6] != "" {
		for _, line := range strings.Split(m[6], ",\n ") {
			if d := partDef.FindStringSubmatch(strings.TrimSpace(line)); d != nil {
				p.Parts = append(p.Parts, Part{Name: strings.ReplaceAll(d[1], "``", "`"), Def: d[2]})
			}
		}
	}
	schema.ReplaceOrAppend(&t.Attrs, p)
}

func slicesDeleteCreateOption(attrs []schema.Attr, v string) []schema.Attr {
	out := attrs[:0:0]
	for _, a := range attrs {
		if o, ok := a.(*mysql.CreateOptions); ok && strings.EqualFold(strings.TrimSpace(o.V), v) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// Clause is p as a PARTITION BY clause, as TiDB prints it.
func (p *Partition) Clause() string {
	key := ident(p.Key)
	if p.Func != "" {
		key = p.Func + "(" + key + ")"
	}
	if p.Method == "HASH" {
		return "PARTITION BY HASH (" + key + ") PARTITIONS " + strconv.Itoa(p.Count)
	}
	if p.Func != "" {
		key = " (" + key + ")"
	} else {
		key = "(" + key + ")"
	}
	defs := make([]string, len(p.Parts))
	for i, part := range p.Parts {
		defs[i] = "PARTITION " + ident(part.Name) + " " + part.Def
	}
	return "PARTITION BY " + p.Method + key + "\n(" + strings.Join(defs, ",\n ") + ")"
}

// String is p as its clause on one line, for drift's reports.
func (p *Partition) String() string {
	if p == nil || p.Method == "" {
		return "no partitioning"
	}
	return strings.ReplaceAll(p.Clause(), "\n", " ")
}

// PartAdded and PartDropped are a part of a table's partitioning added
// (ALTER TABLE ... ADD PARTITION) or dropped (DROP PARTITION, with its
// rows); PartitionRefused a change of the partitioning TiDB cannot make in
// place, which the planner refuses with Reason.
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
		From, To *Partition
		Reason   string
	}
)

// partitionChanges are the changes of a table's partitioning: parts
// dropped and added where the method and key stay, a range's only at its
// end; anything else a PartitionRefused.
func partitionChanges(from, to *schema.Table) []schema.Change {
	f, x := PartitionOf(from), PartitionOf(to)
	if f == nil && x == nil {
		return nil
	}
	refuse := func(reason string) []schema.Change {
		return []schema.Change{&schema.ModifyAttr{From: &PartitionRefused{To: f}, To: &PartitionRefused{From: f, To: x, Reason: reason}}}
	}
	switch {
	case f == nil:
		return refuse("partitioning an existing table")
	case x == nil:
		return refuse("removing the partitioning of a table")
	case f.Method != x.Method || f.Key != x.Key || f.Func != x.Func:
		return refuse("changing the partition key from " + f.keyText() + " to " + x.keyText())
	case f.Count != x.Count:
		return refuse("changing the number of hash parts from " + strconv.Itoa(f.Count) + " to " + strconv.Itoa(x.Count))
	}
	kept := map[string]string{}
	for _, p := range x.Parts {
		kept[p.Name] = p.Def
	}
	var changes []schema.Change
	was := map[string]bool{}
	for _, p := range f.Parts {
		was[p.Name] = true
		switch def, ok := kept[p.Name]; {
		case !ok:
			changes = append(changes, &schema.ModifyAttr{From: &PartAdded{Part: p}, To: &PartDropped{Part: p}})
		case def != p.Def:
			return refuse("changing the bound of part " + p.Name)
		}
	}
	// TiDB keeps at least one part of a partitioned table: the last one
	// is not dropped (error 1508), after which the adds fail on the part
	// still there (a range's MAXVALUE part: 1481; a list's DEFAULT part:
	// 8200). A plan replacing every part is refused.
	if len(f.Parts) > 0 && !slices.ContainsFunc(f.Parts, func(p Part) bool { _, ok := kept[p.Name]; return ok }) {
		return refuse("dropping every part of the table (TiDB keeps at least one, error 1508)")
	}
	// Kept parts stay in their order; a range's new parts come after them.
	lastKept := -1
	for i, p := range x.Parts {
		if was[p.Name] {
			lastKept = i
		}
	}
	keptDefault := slices.ContainsFunc(f.Parts, func(p Part) bool { return p.Def == "DEFAULT" && kept[p.Name] == "DEFAULT" })
	for i, p := range x.Parts {
		if was[p.Name] {
			continue
		}
		if keptDefault {
			// TiDB error 8200: a list's parts are added beside its
			// DEFAULT part only by REORGANIZE PARTITION, which moves rows.
			return refuse("adding part " + p.Name + " beside the list's DEFAULT part, which is kept")
		}
		if strings.HasPrefix(f.Method, "RANGE") && i < lastKept {
			return refuse("adding part " + p.Name + " before the range's last kept part")
		}
		changes = append(changes, &schema.ModifyAttr{From: &PartDropped{Part: p}, To: &PartAdded{Part: p}})
	}
	return changes
}

// keyText is p's method and key, "RANGE COLUMNS (day)" or "RANGE
// (YEAR(day))", for messages.
func (p *Partition) keyText() string {
	if p.Func != "" {
		return p.Method + " (" + p.Func + "(" + p.Key + "))"
	}
	return p.Method + " (" + p.Key + ")"
}

// partitionCreateOptions is the ModifyAttr Atlas's planner writes for a
// part added or dropped: ADD PARTITION (...) or DROP PARTITION `p`.
func partitionCreateOptions(x *schema.ModifyAttr) (schema.Change, bool) {
	switch to := x.To.(type) {
	case *PartAdded:
		return &schema.ModifyAttr{From: &mysql.CreateOptions{}, To: &mysql.CreateOptions{V: "ADD PARTITION (PARTITION " + ident(to.Part.Name) + " " + to.Part.Def + ")"}}, true
	case *PartDropped:
		return &schema.ModifyAttr{From: &mysql.CreateOptions{}, To: &mysql.CreateOptions{V: "DROP PARTITION " + ident(to.Part.Name)}}, true
	}
	return nil, false
}

// Model is p as the model's partition, nil for none. A part's bound the
// model cannot hold (an expression) is left as nil, which the compiler
// then refuses at the part.
func (p *Partition) Model() *compiler.Partition {
	if p == nil {
		return nil
	}
	out := &compiler.Partition{Column: p.Key, Count: p.Count, Function: strings.ToLower(p.Func)}
	switch p.Method {
	case "RANGE COLUMNS", "RANGE":
		out.Type = compiler.PartitionRange
	case "LIST COLUMNS", "LIST":
		out.Type = compiler.PartitionList
	default:
		out.Type = compiler.PartitionHash
	}
	for _, part := range p.Parts {
		mp := &compiler.PartitionPart{Name: part.Name}
		switch def := part.Def; {
		case def == "DEFAULT" || def == "VALUES LESS THAN (MAXVALUE)":
			mp.Rest = true
		case strings.HasPrefix(def, "VALUES LESS THAN (") && strings.HasSuffix(def, ")"):
			vals := stmtlex.Literals(strings.TrimSuffix(strings.TrimPrefix(def, "VALUES LESS THAN ("), ")"), true)
			if len(vals) == 1 {
				mp.LessThan = vals[0]
			}
		case strings.HasPrefix(def, "VALUES IN (") && strings.HasSuffix(def, ")"):
			mp.Values = stmtlex.Literals(strings.TrimSuffix(strings.TrimPrefix(def, "VALUES IN ("), ")"), true)
		}
		out.Parts = append(out.Parts, mp)
	}
	return out
}
