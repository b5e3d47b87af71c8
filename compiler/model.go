// Package compiler is the dialect-neutral model of schema.hcl (Schema,
// Table, Column, Type, ...), with what every consumer asks of it: the order
// tables are created in, the canonical HCL a model is written back as
// (Write, for schemagen fmt and import), and the subjects diagnostics name.
// Reading schema.hcl into the model and validating it is package
// compiler/load. It knows no SQL dialect: the dialects/ packages lower the
// model.
package compiler

import (
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler/expr"
)

// Schema is the neutral model of one schema.hcl (or several files).
type Schema struct {
	// Extensions are the database extensions the model needs, in the order
	// declared; each dialect creates them before anything else, or has none.
	Extensions []*Extension
	// Enums are the model's enum types (`enum "NAME" { values = [...] }`),
	// in the order declared.
	Enums  []*Enum
	Tables []*Table
	Raw    []*Raw
	// Dialect holds the `dialect "NAME" { ... }` settings, decoded by each dialect.
	Dialect map[string]*DialectSettings
	// Files maps file names to their parsed form, for diagnostics with snippets.
	Files map[string]*hcl.File
	// Exports are the exports of the model that generate keeps current
	// (`export "FORMAT" { path = "..." }`), in the order declared.
	Exports []*Export

	byName map[string]*Table
}

// DialectSettings is a `dialect "NAME"` block, left for the dialect to decode.
type DialectSettings struct {
	Name  string
	Attrs hcl.Attributes
	Range hcl.Range
}

// Table returns the table with the given name, or nil.
// It only reads, so dialects may call it concurrently.
func (s *Schema) Table(name string) *Table {
	if s.byName != nil {
		return s.byName[name]
	}
	for _, t := range s.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Reindex rebuilds the lookup of tables by name (Schema.Table), after
// Tables was built or changed.
func (s *Schema) Reindex() {
	s.byName = make(map[string]*Table, len(s.Tables))
	for _, t := range s.Tables {
		if _, dup := s.byName[t.Name]; !dup {
			s.byName[t.Name] = t
		}
	}
}

// Override is a per-dialect escape hatch on an object (`postgres { ... }`).
// Raw SQL in an override is passed through untranslated.
type Override struct {
	Dialect string
	Skip    bool   // the object does not exist in this dialect
	Type    *Type  // a neutral type for this dialect only (columns)
	RawType string // a raw SQL type (columns)
	Default string // a raw SQL default (columns)
	// Null is the column's nullability in this dialect where a live
	// database holds it otherwise than the model's null (columns).
	Null *bool
	Expr string // a raw SQL expression (checks)
	SQL  string // a raw SQL statement (indexes)
	// Accept lists the lowerings of this object the model acknowledges in
	// this dialect (AcceptPartialIndex, ...): they are still made and
	// explained, but not warned about.
	Accept []string
	// Name is the object's name in this dialect (checks, foreign keys,
	// indexes), where a live database named it otherwise.
	Name string
	// Column names the generated column a dialect indexes in place of an
	// expression key part it cannot index directly (TiDB).
	Column string
	Range  hcl.Range
}

// Overrides are an object's overrides by dialect name.
type Overrides map[string]*Override

// For returns the override for dialect d, or nil.
func (o Overrides) For(d string) *Override { return o[d] }

// Accepts reports whether the model acknowledges the lowering what of the
// object in dialect d.
func (o Overrides) Accepts(d, what string) bool {
	return o[d] != nil && slices.Contains(o[d].Accept, what)
}

// The lowerings a model may acknowledge, by the neutral feature that a
// dialect lacks.
const (
	AcceptPartialIndex = "partial_index" // an index's WHERE
	AcceptOpClass      = "opclass"       // an index part's operator class
	AcceptIndexMethod  = "index_method"  // an index's using
	AcceptDeferrable   = "deferrable"    // a foreign key's deferrable
	// Expressions of a check or index that PostgreSQL and TiDB may evaluate
	// differently, warned about by PostgreSQL's lowering.
	AcceptCharMatch   = "char_match"   // LIKE or a regex over a char(n) column
	AcceptStringOrder = "string_order" // strings ordered by <, >, BETWEEN
	// A NOT NULL enum column without a default, which TiDB fills with the
	// first value where PostgreSQL refuses the row.
	AcceptEnumFirstValue = "enum_first_value"
)

// Acceptable lists the values of accept.
var Acceptable = []string{AcceptPartialIndex, AcceptOpClass, AcceptIndexMethod, AcceptDeferrable, AcceptCharMatch, AcceptStringOrder, AcceptEnumFirstValue}

// NameIn returns the object's name in dialect d: its override's name, else
// name.
func (o Overrides) NameIn(d, name string) string {
	if o[d] != nil && o[d].Name != "" {
		return o[d].Name
	}
	return name
}

// Skipped reports whether the object is left out of dialect d.
func (o Overrides) Skipped(d string) bool { return o[d] != nil && o[d].Skip }

// Table is a table.
type Table struct {
	Name        string
	Comment     string
	Columns     []*Column
	PrimaryKey  *PrimaryKey
	Uniques     []*Unique
	ForeignKeys []*ForeignKey
	Checks      []*Check
	Indexes     []*Index
	Overrides   Overrides
	Range       hcl.Range // the block's label, for messages
	// RenamedFrom is the table's former name (`renamed_from`): a migration
	// renames a table of that name, keeping its rows.
	RenamedFrom string
	// ShardRowIDBits and PreSplitRegions lay a table without a clustered
	// key out over TiDB's storage (`shard_row_id_bits`,
	// `pre_split_regions`): the row ids' high bits scattered over 2^n
	// shards, and 2^n regions made when the table is. 0 when not given.
	ShardRowIDBits, PreSplitRegions int
	// LayoutRange locates them for messages.
	LayoutRange hcl.Range
	// TTL is the table's expiry (`ttl`), nil for none.
	TTL *TTL
	// Partition is how the table's rows are split (`partition`), nil for
	// none.
	Partition *Partition
}

// The ways of partitioning a table.
const (
	PartitionRange = "range"
	PartitionList  = "list"
	PartitionHash  = "hash"
)

// The functions a table can be partitioned by (Partition.Function): the
// year or the month of a date or datetime column, as an integer (TiDB
// YEAR(col) / MONTH(col), PostgreSQL EXTRACT(YEAR FROM col) / EXTRACT(MONTH
// FROM col)).
const (
	PartitionYear  = "year"
	PartitionMonth = "month"
)

// Partition splits a table's rows by the value of Column (`partition`
// block): PostgreSQL's declarative partitioning (PARTITION BY, a table
// PARTITION OF it per part), TiDB's PARTITION BY.
type Partition struct {
	// Type is PartitionRange, PartitionList or PartitionHash.
	Type   string
	Column string
	// Function, when set, partitions by the function of Column
	// (PartitionYear or PartitionMonth) instead of by Column itself: the
	// bounds are then whole numbers, and the table has no unique key
	// (PostgreSQL refuses one when the key is an expression).
	Function      string
	FunctionRange hcl.Range
	// Count is a hash partitioning's number of parts.
	Count int
	// Parts are a range or list partitioning's parts, in order; a hash
	// partitioning's, when it names them (PostgreSQL's tables of its
	// parts, by remainder), have no bound.
	Parts                 []*PartitionPart
	Range, ColumnRange    hcl.Range
	TypeRange, CountRange hcl.Range
}

// PartitionPart is one part of a range or list partitioning (`part`).
type PartitionPart struct {
	Name string
	// LessThan is a range part's upper bound (exclusive), Values a list
	// part's values, each an int64 or a string; Rest is the part of the
	// rows no other takes (a range's MAXVALUE, a list's DEFAULT).
	LessThan any
	Values   []any
	Rest     bool
	Range    hcl.Range
}

// TTL makes TiDB delete a table's rows in background jobs once their
// Column is older than Interval Unit (`ttl` block; TiDB's TTL table
// option). PostgreSQL has no server-side expiry: it is left out there.
type TTL struct {
	Column   string
	Interval int64
	// Unit is the interval's unit, upper case: SECOND, MINUTE, HOUR, DAY,
	// WEEK, MONTH, QUARTER or YEAR.
	Unit string
	// Enabled is TTL_ENABLE, nil for the server's default (on).
	Enabled *bool
	// JobInterval is TTL_JOB_INTERVAL ("24h"), "" for the server's default
	// (1h).
	JobInterval string
	// Range is the block's; ColumnRange, IntervalRange and JobIntervalRange
	// locate its attributes for messages.
	Range, ColumnRange, IntervalRange, JobIntervalRange hcl.Range
}

// Column returns the column with the given name, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Column is a column.
type Column struct {
	Name    string
	Type    Type
	Null    bool
	Default *Default
	// Generated is the column's expression when the database computes it
	// (`as`); nil for a column that holds what is written to it.
	Generated *Generated
	// OnUpdate: the column is set to now() by every UPDATE that changes the
	// row without setting the column (`on_update = now()`).
	OnUpdate      bool
	OnUpdateRange hcl.Range
	Comment       string
	Overrides     Overrides
	Range         hcl.Range
	TypeRange     hcl.Range
	// Identity makes the database number the rows (`identity {}`), nil for
	// a plain column.
	Identity *Identity
	// RenamedFrom is the column's former name (`renamed_from`): a migration
	// renames a column of that name, keeping its values.
	RenamedFrom string
}

// Identity numbers a table's rows: the database gives the column the next
// number when an INSERT leaves it out.
type Identity struct {
	// Start is the first number, 1 unless given.
	Start int64
	// Unordered: the ids are unique but promise no order (`ordered =
	// false`): TiDB spreads them over its storage (AUTO_RANDOM), so that
	// INSERTs do not all write the same region; PostgreSQL still numbers
	// them in order. ShardBits and RangeBits are AUTO_RANDOM's two
	// arguments (the high bits that scatter the ids, the bits of an id),
	// 5 and 64 unless given.
	Unordered bool
	ShardBits int
	RangeBits int
	// Cache is how many ids one TiDB server takes at a time (AUTO_ID_CACHE):
	// 1 (the default) gives ids in INSERT order, more hands each server
	// a batch of its own. PostgreSQL's sequence gives them one by one.
	Cache int64
	Range hcl.Range
}

// Default AUTO_RANDOM arguments: TiDB's own.
const (
	DefaultShardBits = 5
	DefaultRangeBits = 64
)

// NullIn reports whether the column takes NULL in dialect d: its override's
// null there, else the model's.
func (c *Column) NullIn(d string) bool {
	if o := c.Overrides[d]; o != nil && o.Null != nil {
		return *o.Null
	}
	return c.Null
}

// DefaultKind tells which kind of default a column has.
type DefaultKind int

const (
	DefaultString DefaultKind = iota
	DefaultNumber
	DefaultBool
	DefaultNow
	// DefaultUUID is uuid(): a random UUID made by the database.
	DefaultUUID
)

// Generated is a generated column's expression.
type Generated struct {
	Expr   expr.Node
	Source string
	// Stored: the value is kept in the row (stored = true, the default),
	// else computed when read where the dialect can (stored = false).
	Stored bool
	Range  hcl.Range
}

// Default is a portable column default.
type Default struct {
	Kind  DefaultKind
	Value string // decoded string, number text, or "true"/"false"
	Range hcl.Range
}

// PrimaryKey is a table's primary key.
type PrimaryKey struct {
	// Name is the constraint's name in the dialects that name it
	// (PostgreSQL), where a live database named it otherwise than its
	// default (<table>_pkey: a table renamed keeps its key's name); "" for
	// the default.
	Name         string
	Columns      []string
	ColumnRanges []hcl.Range
	Range        hcl.Range
	// Clustered is whether TiDB stores the rows by the key (`clustered`),
	// nil for the server's default (clustered, tidb_enable_clustered_index
	// = ON). PostgreSQL stores rows in a heap either way.
	Clustered      *bool
	ClusteredRange hcl.Range
}

// Unique is a named UNIQUE constraint.
type Unique struct {
	Name         string
	Columns      []string
	ColumnRanges []hcl.Range
	Overrides    Overrides
	Range        hcl.Range
}

// Action is a foreign key's referential action.
type Action string

const (
	NoAction   Action = ""
	Cascade    Action = "cascade"
	Restrict   Action = "restrict"
	SetNull    Action = "set_null"
	SetDefault Action = "set_default"
)

// ForeignKey is a named foreign key.
type ForeignKey struct {
	Name              string
	Columns           []string
	RefTable          string
	RefColumns        []string
	OnDelete          Action
	OnUpdate          Action
	Deferrable        bool
	InitiallyDeferred bool
	Overrides         Overrides
	Range             hcl.Range
	RefRange          hcl.Range
	ColumnRanges      []hcl.Range
	RefColumnRanges   []hcl.Range
}

// Check is a named CHECK constraint.
type Check struct {
	Name      string
	Expr      expr.Node
	Source    string
	Overrides Overrides
	Range     hcl.Range
	// ExprRange locates the expression for messages (zero when absent).
	ExprRange hcl.Range
	// Generated is set on checks the compiler or a dialect added.
	Generated bool
}

// Index is a named index.
type Index struct {
	Name   string
	Unique bool
	Parts  []*IndexPart
	Where  expr.Node
	// Attrs are what some dialects know of the index and the others leave
	// out: its method (IndexMethod).
	Attrs     []Attr
	Overrides Overrides
	Range     hcl.Range
	WhereSrc  string
	// WhereRange locates the predicate for messages.
	WhereRange hcl.Range
	// Comment says what the index is for (the query it serves): kept as
	// PostgreSQL's COMMENT ON INDEX and TiDB's index COMMENT, and exported
	// as the index's purpose.
	Comment string
	// Include are non-key columns the index stores (`include`): PostgreSQL's
	// INCLUDE; TiDB leaves them out (explained).
	Include      []string
	IncludeRange hcl.Range
	// NullsNotDistinct is a unique index's `nulls_distinct = false`:
	// PostgreSQL 15's NULLS NOT DISTINCT, one NULL key at most.
	NullsNotDistinct bool
	NullsRange       hcl.Range
	// Storage are the index's storage parameters (`storage = { ... }`),
	// sorted by name: PostgreSQL's WITH (...), nothing on TiDB (explained).
	Storage      []StorageParam
	StorageRange hcl.Range
	// Invisible is `visible = false`: TiDB's INVISIBLE index, which the
	// optimizer does not use (PostgreSQL has none: explained).
	Invisible      bool
	InvisibleRange hcl.Range
}

// StorageParam is one storage parameter of an index: its name and value as
// written (a number, or true / false).
type StorageParam struct {
	Name, Value string
	Range       hcl.Range
}

// IndexPart is one key part of an index: a column or an expression.
type IndexPart struct {
	Column string
	Expr   expr.Node
	Desc   bool
	// Attrs are what some dialects know of the key part and the others
	// leave out: its operator class (OpClass).
	Attrs []Attr
	// Overrides of an expression part: the generated column's name.
	Overrides Overrides
	Range     hcl.Range
}

// Attr is a fact about an object that only some dialects can keep, in the
// manner of Atlas's schema.Attr: each dialect's rules say whether it keeps
// it (dialects.Rules), and a dialect that cannot leaves it out with a warning
// the model may acknowledge (Accept...).
type Attr interface{ attr() }

// IndexMethod is an index's access method (`using`).
type IndexMethod struct{ Name string }

// OpClass is an index key part's operator class (`opclass`).
type OpClass struct{ Name string }

func (*IndexMethod) attr() {}
func (*OpClass) attr()     {}

// AttrOf returns the attribute of type T among attrs.
func attrOf[T Attr](attrs []Attr) (T, bool) {
	for _, a := range attrs {
		if t, ok := a.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}

// Method is the index's method (IndexMethod), "" for the dialect's default.
func (i *Index) Method() string {
	if m, ok := attrOf[*IndexMethod](i.Attrs); ok {
		return m.Name
	}
	return ""
}

// OpClass is the key part's operator class (OpClass), "" for the default.
func (p *IndexPart) OpClass() string {
	if c, ok := attrOf[*OpClass](p.Attrs); ok {
		return c.Name
	}
	return ""
}

// Extension is a database extension the model needs (`extension "vector" {}`):
// pgvector for vector columns, citext, pg_trgm for trigram indexes.
type Extension struct {
	Name  string
	Range hcl.Range
}

// Enum is a named list of labels; a column of its type holds one of them.
// The labels are ordered as declared (ORDER BY sorts by that order on both
// databases).
type Enum struct {
	Name   string
	Values []string
	Range  hcl.Range // the block's label
	// ValueRanges are the ranges of the values as written.
	ValueRanges []hcl.Range
}

// Enum returns the enum of the given name, or nil.
func (s *Schema) Enum(name string) *Enum {
	for _, e := range s.Enums {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// Export is a file that schemagen generate writes from the model and
// schemagen check compares: the model and what each dialect renders, in
// one of ExportFormats.
type Export struct {
	Format string
	// Path is the file as written; File is it from the current directory
	// (Path is relative to the schema file that declares it).
	Path, File string
	Range      hcl.Range
}

// ExportFormats are the formats of an export block.
var ExportFormats = []string{"json", "typescript"}

// Raw is a raw SQL statement for some dialects (`raw "NAME" { postgres = ... }`),
// for objects that exist in one dialect only.
type Raw struct {
	Name  string
	SQL   map[string]string // by dialect
	After bool              // emitted after the tables (default) or before them
	Range hcl.Range
}

// SourceNames returns the base names of the schema's files, sorted: what the
// generated files say they come from, the same from any directory.
func (s *Schema) SourceNames() []string {
	var names []string
	for name := range s.Files {
		names = append(names, filepath.Base(name))
	}
	slices.Sort(names)
	return slices.Compact(names)
}
