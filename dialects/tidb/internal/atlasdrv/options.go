package atlasdrv

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"
)

// AutoRandom is a column's AUTO_RANDOM(ShardBits, RangeBits), which Atlas's
// MySQL driver neither inspects nor plans.
type AutoRandom struct {
	schema.Attr
	ShardBits, RangeBits int
}

// AutoIDCache is a table's AUTO_ID_CACHE: how many AUTO_INCREMENT ids one
// TiDB server takes at a time (1: one by one, in INSERT order).
type AutoIDCache struct {
	schema.Attr
	N int64
}

// Clustered is whether TiDB stores a table's rows by its primary key (an
// attribute of the primary key).
type Clustered struct {
	schema.Attr
	V bool
}

// ShardRowIDBits and PreSplitRegions are a table's SHARD_ROW_ID_BITS and
// PRE_SPLIT_REGIONS.
type (
	ShardRowIDBits struct {
		schema.Attr
		N int
	}
	PreSplitRegions struct {
		schema.Attr
		N int
	}
)

// ClusteredOf returns whether t's primary key is clustered, and whether the
// inspection knows (a table without a primary key has none).
func ClusteredOf(t *schema.Table) (clustered, known bool) {
	if t.PrimaryKey == nil {
		return false, false
	}
	for _, a := range t.PrimaryKey.Attrs {
		if c, ok := a.(*Clustered); ok {
			return c.V, true
		}
	}
	return false, false
}

// LayoutOf returns t's SHARD_ROW_ID_BITS and PRE_SPLIT_REGIONS.
func LayoutOf(t *schema.Table) (shard, split int) {
	for _, a := range t.Attrs {
		switch a := a.(type) {
		case *ShardRowIDBits:
			shard = a.N
		case *PreSplitRegions:
			split = a.N
		}
	}
	return shard, split
}

// AutoRandomOf returns c's AUTO_RANDOM, or nil.
func AutoRandomOf(c *schema.Column) *AutoRandom {
	for _, a := range c.Attrs {
		if r, ok := a.(*AutoRandom); ok {
			return r
		}
	}
	return nil
}

// AutoIDCacheOf returns t's AUTO_ID_CACHE, 0 where the table has none (the
// server's batches).
func AutoIDCacheOf(t *schema.Table) int64 {
	for _, a := range t.Attrs {
		if c, ok := a.(*AutoIDCache); ok {
			return c.N
		}
	}
	return 0
}

// SHOW CREATE TABLE prints the options in TiDB's version comments:
// /*T![auto_rand] AUTO_RANDOM(5) */, AUTO_RANDOM(6, 54) where the range is
// not 64, and /*T![auto_id_cache] AUTO_ID_CACHE=100 */.
var (
	autoRandomCol = regexp.MustCompile("(?m)^\\s*`((?:[^`]|``)+)`[^\\n]*?AUTO_RANDOM\\((\\d+)(?:,\\s*(\\d+))?\\)")
	autoIDCacheN  = regexp.MustCompile(`AUTO_ID_CACHE\s*=\s*(\d+)`)
	// PRIMARY KEY (`id`) /*T![clustered_index] NONCLUSTERED */, and
	// /*T! SHARD_ROW_ID_BITS=4 PRE_SPLIT_REGIONS=2 */ among the options.
	clusteredKey = regexp.MustCompile(`(?m)^\s*PRIMARY KEY \(.*\)\s*/\*T!\[clustered_index\] (CLUSTERED|NONCLUSTERED) \*/`)
	shardBits    = regexp.MustCompile(`SHARD_ROW_ID_BITS\s*=\s*(\d+)`)
	preSplit     = regexp.MustCompile(`PRE_SPLIT_REGIONS\s*=\s*(\d+)`)
)

// readOptions sets the options of t that its CREATE TABLE text shows.
func readOptions(t *schema.Table, create string) {
	for _, m := range autoRandomCol.FindAllStringSubmatch(create, -1) {
		c, ok := t.Column(strings.ReplaceAll(m[1], "``", "`"))
		if !ok {
			continue
		}
		shard, _ := strconv.Atoi(m[2])
		rng := 64
		if m[3] != "" {
			rng, _ = strconv.Atoi(m[3])
		}
		schema.ReplaceOrAppend(&c.Attrs, &AutoRandom{ShardBits: shard, RangeBits: rng})
	}
	if m := autoIDCacheN.FindStringSubmatch(create); m != nil {
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err == nil {
			schema.ReplaceOrAppend(&t.Attrs, &AutoIDCache{N: n})
		}
	}
	if m := clusteredKey.FindStringSubmatch(create); m != nil && t.PrimaryKey != nil {
		schema.ReplaceOrAppend(&t.PrimaryKey.Attrs, &Clustered{V: m[1] == "CLUSTERED"})
	}
	if m := shardBits.FindStringSubmatch(create); m != nil {
		n, _ := strconv.Atoi(m[1])
		schema.ReplaceOrAppend(&t.Attrs, &ShardRowIDBits{N: n})
	}
	if m := preSplit.FindStringSubmatch(create); m != nil {
		n, _ := strconv.Atoi(m[1])
		schema.ReplaceOrAppend(&t.Attrs, &PreSplitRegions{N: n})
	}
	readTTL(t, create)
	readPartition(t, create)
}

// createStmt returns the CREATE TABLE text Atlas's TiDB inspection keeps
// on t, "" where it has none.
func createStmt(t *schema.Table) string {
	for _, a := range t.Attrs {
		if c, ok := a.(*mysql.CreateStmt); ok {
			return c.S
		}
	}
	return ""
}

// optionsChanges adds to changes what differs in the options of a table
// that exists on both sides: AUTO_RANDOM of a column (a ChangeAttr of the
// column, which the planner refuses) and AUTO_ID_CACHE (a ModifyAttr of
// the table).
func optionsChanges(changes []schema.Change, from, to *schema.Table) []schema.Change {
	var extra []schema.Change
	// A table without AUTO_ID_CACHE on one side has no identity there, a
	// change the identity's own refusal covers.
	if f, t := AutoIDCacheOf(from), AutoIDCacheOf(to); f != t && f > 0 && t > 0 {
		extra = append(extra, &schema.ModifyAttr{From: &AutoIDCache{N: f}, To: &AutoIDCache{N: t}})
	}
	fs, fp := LayoutOf(from)
	ts, tp := LayoutOf(to)
	if fs != ts {
		extra = append(extra, &schema.ModifyAttr{From: &ShardRowIDBits{N: fs}, To: &ShardRowIDBits{N: ts}})
	}
	// SHARD_ROW_ID_BITS = 0 clears PRE_SPLIT_REGIONS too.
	if fp != tp && ts > 0 {
		extra = append(extra, &schema.ModifyAttr{From: &PreSplitRegions{N: fp}, To: &PreSplitRegions{N: tp}})
	}
	extra = append(extra, partitionChanges(from, to)...)
	mt := modifyOf(changes, to.Name)
	if fc, fok := ClusteredOf(from); fok {
		if tc, tok := ClusteredOf(to); tok && fc != tc && !slices.ContainsFunc(changes, isPrimaryKeyChange(to.Name)) {
			extra = append(extra, &schema.ModifyPrimaryKey{From: from.PrimaryKey, To: to.PrimaryKey, Change: schema.ChangeAttr})
		}
	}
	for _, tc := range to.Columns {
		fc, ok := from.Column(tc.Name)
		if !ok || sameAutoRandom(AutoRandomOf(fc), AutoRandomOf(tc)) {
			continue
		}
		if mt != nil {
			if i := slices.IndexFunc(mt.Changes, func(c schema.Change) bool {
				mc, ok := c.(*schema.ModifyColumn)
				return ok && mc.To.Name == tc.Name
			}); i >= 0 {
				mt.Changes[i].(*schema.ModifyColumn).Change |= schema.ChangeAttr
				continue
			}
		}
		extra = append(extra, &schema.ModifyColumn{From: fc, To: tc, Change: schema.ChangeAttr})
	}
	if len(extra) > 0 {
		if mt == nil {
			changes = append(changes, &schema.ModifyTable{T: to, Changes: extra})
		} else {
			mt.Changes = append(mt.Changes, extra...)
		}
	}
	return withTTLChanges(changes, from, to)
}

// withTTLChanges adds the TTL changes of table to (ttlChanges) to its
// ModifyTable in changes: a TTL removed first, one set last.
func withTTLChanges(changes []schema.Change, from, to *schema.Table) []schema.Change {
	before, after := ttlChanges(from, to)
	if before == nil && after == nil {
		return changes
	}
	mt := modifyOf(changes, to.Name)
	if mt == nil {
		mt = &schema.ModifyTable{T: to}
		changes = append(changes, mt)
	}
	if before != nil {
		mt.Changes = append([]schema.Change{before}, mt.Changes...)
	}
	if after != nil {
		mt.Changes = append(mt.Changes, after)
	}
	return changes
}

// isPrimaryKeyChange matches a ModifyTable of table that changes its
// primary key.
func isPrimaryKeyChange(table string) func(schema.Change) bool {
	return func(c schema.Change) bool {
		m, ok := c.(*schema.ModifyTable)
		return ok && m.T.Name == table && slices.ContainsFunc(m.Changes, func(c schema.Change) bool {
			switch c.(type) {
			case *schema.ModifyPrimaryKey, *schema.DropPrimaryKey, *schema.AddPrimaryKey:
				return true
			}
			return false
		})
	}
}

func modifyOf(changes []schema.Change, table string) *schema.ModifyTable {
	for _, c := range changes {
		if m, ok := c.(*schema.ModifyTable); ok && m.T.Name == table {
			return m
		}
	}
	return nil
}

func sameAutoRandom(a, b *AutoRandom) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ShardBits == b.ShardBits && a.RangeBits == b.RangeBits
}

// AutoRandomClause is the column clause of r.
func AutoRandomClause(r *AutoRandom) string {
	return fmt.Sprintf("AUTO_RANDOM(%d, %d)", r.ShardBits, r.RangeBits)
}

// withOptions returns the changes to give Atlas's planner: a table created
// with its options written, which the planner does not know. A column's
// AUTO_RANDOM travels as the column's type (a type the planner prints as
// its text), AUTO_ID_CACHE as a CREATE TABLE option; both on copies, so
// that the states compared keep theirs.
func withOptions(changes []schema.Change) []schema.Change {
	out := make([]schema.Change, len(changes))
	for i, c := range changes {
		out[i] = c
		switch c := c.(type) {
		case *schema.AddTable:
			if t := tableWithOptions(c.T); t != c.T {
				out[i] = &schema.AddTable{T: t, Extra: c.Extra}
			}
		case *schema.ModifyTable:
			var sub []schema.Change
			for _, sc := range c.Changes {
				switch x := sc.(type) {
				case *schema.ModifyColumn:
					if AutoRandomOf(x.To) != nil {
						cp := *x
						cp.To = columnWithOptions(x.To)
						sc = &cp
					}
				case *schema.ModifyAttr:
					switch to := x.To.(type) {
					case *AutoIDCache:
						from, _ := x.From.(*AutoIDCache)
						sc = &schema.ModifyAttr{From: &mysql.CreateOptions{V: fmt.Sprintf("AUTO_ID_CACHE = %d", from.N)}, To: &mysql.CreateOptions{V: fmt.Sprintf("AUTO_ID_CACHE = %d", to.N)}}
					case *ShardRowIDBits:
						from, _ := x.From.(*ShardRowIDBits)
						sc = &schema.ModifyAttr{From: &mysql.CreateOptions{V: fmt.Sprintf("SHARD_ROW_ID_BITS = %d", from.N)}, To: &mysql.CreateOptions{V: fmt.Sprintf("SHARD_ROW_ID_BITS = %d", to.N)}}
					default:
						if c, ok := ttlCreateOptions(x); ok {
							sc = c
						} else if c, ok := partitionCreateOptions(x); ok {
							sc = c
						} else if _, ok := x.To.(*PartitionRefused); ok {
							// Refused by the planner; nothing to write
							// where it is not (drift's fix).
							continue
						}
					}
				}
				sub = append(sub, sc)
			}
			if len(sub) == 0 && len(c.Changes) > 0 {
				out[i] = &schema.ModifyTable{T: c.T}
				continue
			}
			out[i] = &schema.ModifyTable{T: c.T, Changes: sub}
		}
	}
	return out
}

// tableWithOptions is t, or a copy of t with its options written for
// Atlas's planner.
func tableWithOptions(t *schema.Table) *schema.Table {
	n := AutoIDCacheOf(t)
	shard, split := LayoutOf(t)
	random := slices.ContainsFunc(t.Columns, func(c *schema.Column) bool { return AutoRandomOf(c) != nil })
	ttl, part := TTLOf(t), PartitionOf(t)
	if n == 0 && shard == 0 && split == 0 && !random && ttl == nil && part == nil {
		return t
	}
	cp := *t
	cp.Attrs = slices.DeleteFunc(slices.Clone(t.Attrs), func(a schema.Attr) bool {
		o, ok := a.(*mysql.CreateOptions)
		return ok && autoIDCacheN.MatchString(o.V)
	})
	if n > 0 {
		cp.Attrs = append(cp.Attrs, &mysql.CreateOptions{V: fmt.Sprintf("AUTO_ID_CACHE = %d", n)})
	}
	if shard > 0 {
		cp.Attrs = append(cp.Attrs, &mysql.CreateOptions{V: fmt.Sprintf("SHARD_ROW_ID_BITS = %d", shard)})
	}
	if split > 0 {
		cp.Attrs = append(cp.Attrs, &mysql.CreateOptions{V: fmt.Sprintf("PRE_SPLIT_REGIONS = %d", split)})
	}
	if ttl != nil {
		cp.Attrs = append(cp.Attrs, &mysql.CreateOptions{V: strings.Join(ttlOptions(ttl), " ")})
	}
	if part != nil {
		// Last: PARTITION BY follows the table's options.
		cp.Attrs = append(cp.Attrs, &mysql.CreateOptions{V: "\n" + part.Clause()})
	}
	if random {
		cp.Columns = make([]*schema.Column, len(t.Columns))
		for i, c := range t.Columns {
			cp.Columns[i] = columnWithOptions(c)
		}
	}
	return &cp
}

// columnWithOptions is c, or a copy whose type prints with its AUTO_RANDOM.
func columnWithOptions(c *schema.Column) *schema.Column {
	r := AutoRandomOf(c)
	if r == nil || c.Type == nil {
		return c
	}
	typ, err := mysql.FormatType(c.Type.Type)
	if err != nil {
		return c
	}
	cp := *c
	ct := *c.Type
	ct.Type = &schema.SpatialType{T: typ + " " + AutoRandomClause(r)}
	cp.Type = &ct
	return &cp
}

// stateOptions is what a stored state keeps of the options Atlas's HCL
// leaves out, as JSON in comment lines after it (stateLine).
type stateOptions struct {
	Table       string `json:"table"`
	Column      string `json:"column,omitempty"`
	AutoIDCache int64  `json:"auto_id_cache,omitempty"`
	AutoRandom  []int  `json:"auto_random,omitempty"`
	// Clustered is "CLUSTERED" or "NONCLUSTERED" of the primary key.
	Clustered       string     `json:"clustered,omitempty"`
	ShardRowIDBits  int        `json:"shard_row_id_bits,omitempty"`
	PreSplitRegions int        `json:"pre_split_regions,omitempty"`
	TTL             *TTL       `json:"ttl,omitempty"`
	Partition       *Partition `json:"partition,omitempty"`
	// Index is an invisible index of the table.
	Index string `json:"invisible_index,omitempty"`
}

const stateLine = "# schemagen tidb option "

// MarshalOptions writes s's options as comment lines to append to its
// stored state.
func MarshalOptions(s *schema.Schema) ([]byte, error) {
	var b strings.Builder
	line := func(o stateOptions) error {
		j, err := json.Marshal(o)
		if err != nil {
			return err
		}
		b.WriteString(stateLine + string(j) + "\n")
		return nil
	}
	for _, t := range s.Tables {
		o := stateOptions{Table: t.Name, AutoIDCache: AutoIDCacheOf(t)}
		o.ShardRowIDBits, o.PreSplitRegions = LayoutOf(t)
		if c, known := ClusteredOf(t); known {
			o.Clustered = map[bool]string{true: "CLUSTERED", false: "NONCLUSTERED"}[c]
		}
		o.TTL, o.Partition = TTLOf(t), PartitionOf(t)
		if o.AutoIDCache > 0 || o.ShardRowIDBits > 0 || o.PreSplitRegions > 0 || o.Clustered != "" || o.TTL != nil || o.Partition != nil {
			if err := line(o); err != nil {
				return nil, err
			}
		}
		for _, idx := range t.Indexes {
			if InvisibleOf(idx) {
				if err := line(stateOptions{Table: t.Name, Index: idx.Name}); err != nil {
					return nil, err
				}
			}
		}
		for _, c := range t.Columns {
			if r := AutoRandomOf(c); r != nil {
				if err := line(stateOptions{Table: t.Name, Column: c.Name, AutoRandom: []int{r.ShardBits, r.RangeBits}}); err != nil {
					return nil, err
				}
			}
		}
	}
	return []byte(b.String()), nil
}

// UnmarshalOptions sets on s the options the comment lines of a stored
// state hold.
func UnmarshalOptions(s *schema.Schema, b []byte) error {
	for _, l := range strings.Split(string(b), "\n") {
		j, ok := strings.CutPrefix(l, stateLine)
		if !ok {
			continue
		}
		var o stateOptions
		if err := json.Unmarshal([]byte(j), &o); err != nil {
			return fmt.Errorf("stored state: %w", err)
		}
		t, ok := s.Table(o.Table)
		if !ok {
			return fmt.Errorf("stored state: options of a table it does not hold, %q", o.Table)
		}
		if o.AutoIDCache > 0 {
			schema.ReplaceOrAppend(&t.Attrs, &AutoIDCache{N: o.AutoIDCache})
		}
		if o.ShardRowIDBits > 0 {
			schema.ReplaceOrAppend(&t.Attrs, &ShardRowIDBits{N: o.ShardRowIDBits})
		}
		if o.PreSplitRegions > 0 {
			schema.ReplaceOrAppend(&t.Attrs, &PreSplitRegions{N: o.PreSplitRegions})
		}
		if o.TTL != nil {
			schema.ReplaceOrAppend(&t.Attrs, o.TTL)
		}
		if o.Partition != nil {
			schema.ReplaceOrAppend(&t.Attrs, o.Partition)
		}
		if o.Clustered != "" && t.PrimaryKey != nil {
			schema.ReplaceOrAppend(&t.PrimaryKey.Attrs, &Clustered{V: o.Clustered == "CLUSTERED"})
		}
		if o.Index != "" {
			idx, ok := t.Index(o.Index)
			if !ok {
				return fmt.Errorf("stored state: options of an index it does not hold, %s.%s", o.Table, o.Index)
			}
			schema.ReplaceOrAppend(&idx.Attrs, &Invisible{})
		}
		if len(o.AutoRandom) == 2 {
			c, ok := t.Column(o.Column)
			if !ok {
				return fmt.Errorf("stored state: options of a column it does not hold, %s.%s", o.Table, o.Column)
			}
			schema.ReplaceOrAppend(&c.Attrs, &AutoRandom{ShardBits: o.AutoRandom[0], RangeBits: o.AutoRandom[1]})
		}
	}
	return nil
}

// clusterKeys writes NONCLUSTERED after each non-clustered primary key in
// the CREATE TABLE planned for its table, which Atlas's planner does not
// write: after the key's definition, which it writes as PRIMARY KEY (`a`,
// `b`). A plan without that text is an error, not a table created with the
// server's default. A clustered key is left to the server's default
// (clustered, as on the dev database it was read from): the dev database
// cannot tell a model's clustered = true from the default, and migrations
// of models without the option stay as they were.
func clusterKeys(plan *migrate.Plan) error {
	for _, c := range plan.Changes {
		add, ok := c.Source.(*schema.AddTable)
		if !ok {
			continue
		}
		clustered, known := ClusteredOf(add.T)
		if !known || clustered {
			continue
		}
		cols := make([]string, len(add.T.PrimaryKey.Parts))
		for i, p := range add.T.PrimaryKey.Parts {
			if p.C == nil {
				return fmt.Errorf("tidb: the primary key of %s has an expression part", add.T.Name)
			}
			cols[i] = "`" + strings.ReplaceAll(p.C.Name, "`", "``") + "`"
		}
		key := "PRIMARY KEY (" + strings.Join(cols, ", ") + ")"
		if strings.Count(c.Cmd, key) != 1 {
			return fmt.Errorf("tidb: the planned CREATE TABLE of %s does not hold %s once, after which its CLUSTERED goes:\n%s", add.T.Name, key, c.Cmd)
		}
		c.Cmd = strings.Replace(c.Cmd, key, key+" NONCLUSTERED", 1)
	}
	return nil
}
