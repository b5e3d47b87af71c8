package dialects

import (
	"context"

	"ariga.io/atlas/sql/schema"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
)

// Importer reads what a database of the dialect reports back into neutral
// forms, for `schemagen import`. Each returns ok = false where no neutral
// form means the same; the caller then keeps the dialect's own SQL.
type Importer interface {
	// NeutralType maps an inspected column type, and returns the dialect's
	// own spelling of it for messages and overrides. With ok = false,
	// neutral is still the type the other dialects get (an integer wide
	// enough for an unsigned or serial column, else text).
	NeutralType(t *schema.ColumnType) (neutral compiler.Type, raw string, ok bool)
	// NeutralDefault maps an inspected column default for a column of
	// neutral type t, and returns the dialect's SQL of it.
	NeutralDefault(x schema.Expr, t compiler.Type) (d *compiler.Default, raw string, ok bool)
	// Implicit reports indexes the database made by itself (TiDB's indexes
	// for foreign keys), which the model does not declare.
	Implicit(t *schema.Table, idx *schema.Index) bool
	// ModelTerms reports whether the dialect's types are the model's own
	// terms where the dialects differ (PostgreSQL's uuid, timestamptz,
	// jsonb are richer): a merge of two imports starts from its reading.
	ModelTerms() bool
	// ReadIndex reads what the dialect's attributes of an inspected index
	// say.
	ReadIndex(idx *schema.Index) IndexFacts
	// InspectAdvice is what to do about an error inspecting a database
	// (msg), as a phrase to put before it, or "".
	InspectAdvice(msg string) string
}

// IndexFacts are what the dialect's attributes of an inspected index say.
type IndexFacts struct {
	// OpClasses are the parts' operator classes, "" for the default; nil
	// when there are none.
	OpClasses []string
	// Using is the index method, "" for the default one.
	Using string
	// Predicate is a partial index's condition as the database prints it.
	Predicate    string
	HasPredicate bool
	// Unique: the index is a unique constraint's, not an index of its own.
	Unique bool
	// Own are the index's clauses the model has no construct for
	// (PostgreSQL's INCLUDE, NULLS NOT DISTINCT), as the database writes
	// them: the dialect keeps its own statement of the index.
	Own []string
	// Include are the index's non-key columns, NullsNotDistinct a unique
	// index's NULLS NOT DISTINCT, Storage its storage parameters as
	// name and value (each a whole number, true or false), Invisible
	// whether the optimizer leaves it unused: the model's index options.
	Include          []string
	NullsNotDistinct bool
	Storage          [][2]string
	Invisible        bool
	// VectorColumn is the column of a vector index that the database
	// indexes through a distance function (TiDB's VECTOR INDEX over
	// VEC_COSINE_DISTANCE(col)), read as Using and OpClasses over that
	// column.
	VectorColumn string
}

// The import hooks: optional parts of a dialect that the importer asks for,
// each for one thing only some databases need read back.

// IndexCatalog is what a database's catalog says of an index beyond what
// Atlas inspects.
type IndexCatalog struct {
	// Statement creates the index (or adds the constraint that owns it) as
	// the database prints it, without the schema's name.
	Statement string
	// Own are its clauses the model has no construct for (PostgreSQL: a
	// part's COLLATE, WITH (fillfactor = 70), DEFERRABLE), as in IndexFacts.
	Own []string
	// Invalid says why the database neither uses nor enforces the index
	// (PostgreSQL: a CREATE INDEX CONCURRENTLY that failed); "" when it is
	// valid.
	Invalid string
}

// IndexReader is implemented by dialects whose catalog holds what Atlas
// does not read of an index: it reads every index of the schema at once,
// by table and index name.
type IndexReader interface {
	ReadIndexes(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]IndexCatalog, error)
}

// KeyTyper is implemented by dialects that cannot index some neutral
// types (TiDB: text): the type a column of neutral type t gets there when
// a key or index uses it, and whether t is one.
type KeyTyper interface {
	KeyType(t compiler.Type) (compiler.Type, bool)
}

// TypeReader is implemented by dialects that read some types back as
// another neutral type they render alike (TiDB's DATETIME(6) is timestamp(6)
// and datetime): SameType reports whether a renders as b does.
type TypeReader interface {
	SameType(a, b compiler.Type) bool
}

// CaseKeyer is implemented by dialects that lower a partial unique index
// through generated columns CASE WHEN <predicate> THEN <part> END: CaseKey
// reads such a column's expression, as the database reports it, into the
// predicate and the part over the columns cols knows (ok = false for
// another expression, or parts without a portable form); CaseKeyType gives
// the type the dialect gives the column for value n ("" when it cannot
// lower n).
type CaseKeyer interface {
	CaseKey(gen string, cols expr.Resolver) (when, then expr.Node, ok bool)
	CaseKeyType(t *compiler.Table, n expr.Node) string
}

// ShapeReader is implemented by dialects whose CHECKs may test a text
// shape that a neutral type guarantees on the other databases (TiDB's
// uuid_check: a uuid column's REGEXP of a uuid's shape): which column check
// n of table t, in the model read so far, tests so, and the shape of which
// type.
type ShapeReader interface {
	Shape(t *compiler.Table, n expr.Node) (Shape, bool)
}

// Shape is a CHECK's test that Column holds the text shape of a value of
// neutral type Type.
type Shape struct {
	Column string
	Type   compiler.TypeKind
}

// DeferrableReader is implemented by dialects whose foreign keys can be
// deferred, which Atlas does not inspect: it returns, by table and key name,
// whether each deferrable key is initially deferred.
type DeferrableReader interface {
	DeferrableKeys(ctx context.Context, conn schema.ExecQuerier) (map[[2]string]bool, error)
}

// CheckTexter is implemented by dialects that store a CHECK's text as
// written: it returns the text to write for the database to store stored
// again, and whether the portable expression n would be stored differently.
type CheckTexter interface {
	CheckText(stored string, n expr.Node) (string, bool)
}

// ColumnClauser is implemented by dialects whose columns can carry what the
// model has no attribute for (identity, AUTO_INCREMENT, a generated
// expression): the SQL that follows the column's type, which the import then
// keeps in a raw type override, with why.
type ColumnClauser interface {
	ColumnClause(c *schema.Column) (sql, why string)
}

// IdentityReader is implemented by dialects whose columns can be numbered by
// the database: the identity that column c of table t is, or nil.
type IdentityReader interface {
	Identity(t *schema.Table, c *schema.Column) *compiler.Identity
}

// LayoutReader is implemented by dialects that lay tables out over their
// storage (TiDB): whether table t's primary key is clustered (nil for the
// server's default), and its row ids' shard bits and pre-split regions.
type LayoutReader interface {
	Layout(t *schema.Table) (clustered *bool, shardRowIDBits, preSplitRegions int)
}

// TTLReader is implemented by dialects whose tables may expire rows
// (TiDB's TTL): table t's, nil for none, with the server's defaults left
// out.
type TTLReader interface {
	TTL(t *schema.Table) *compiler.TTL
}

// PartitionReader is implemented by dialects whose inspection reads how a
// table is partitioned: table t's partition, nil for none.
type PartitionReader interface {
	Partition(t *schema.Table) *compiler.Partition
}

// IdentityNoter is implemented by dialects whose identities may be numbered
// otherwise than the model's: what a reviewer must know of table t's.
type IdentityNoter interface {
	IdentityNote(t *schema.Table) string
}

// OnUpdater is implemented by dialects whose columns carry on_update in
// their definition (TiDB's ON UPDATE CURRENT_TIMESTAMP): it reports whether
// c is set on update as the model's on_update = now() sets a column of
// neutral type t.
type OnUpdater interface {
	OnUpdate(c *schema.Column, t compiler.Type) bool
}

// OnUpdateReader is implemented by dialects that set on_update columns by
// objects of their own (PostgreSQL's triggers): it marks the columns of
// tables that such objects, as the dialect makes them, set on update, and
// describes the objects it does not recognise, by table.
type OnUpdateReader interface {
	ReadOnUpdate(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table) (map[string][]string, error)
}

// NotNullReader is implemented by dialects whose NOT NULL is a constraint
// of its own, with a name and a state (PostgreSQL 18): notes, by table, on
// those that the model's null = false does not make as they are.
type NotNullReader interface {
	ReadNotNulls(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table) (map[string][]string, error)
}

// OwnChecker is implemented by dialects that add CHECKs of their own to
// keep a construct's meaning (TiDB's range of time columns): it reports
// whether check c of table t, in the model read so far, is one.
type OwnChecker interface {
	OwnCheck(t *compiler.Table, c *schema.Check) bool
	// OwnChecks names the CHECKs the lowering adds to t, with the column
	// each keeps: a column without its CHECK in the database is not the
	// neutral construct.
	OwnChecks(t *compiler.Table) map[string]string
}

// GeneratedTexter is implemented by dialects that print a generated
// column's expression as written: PortableGenerated reports whether text,
// the expression of a column of type typ (as the dialect spells it),
// prints as the portable expression read from it would.
type GeneratedTexter interface {
	PortableGenerated(typ, text string) bool
}

// GeneratedKeyer is implemented by dialects that index some expressions
// through a VIRTUAL generated column: the column's type for expression n of
// table t, or "" when the dialect indexes n otherwise.
type GeneratedKeyer interface {
	GeneratedKeyType(t *compiler.Table, n expr.Node) string
}

// SerialFixer is implemented by dialects where Atlas reads some columns as
// serials that are not (PostgreSQL: a nextval default of a sequence the
// column does not own): it turns them back into their integer and default.
// Its notes, per table, name what a serial kept as one makes otherwise than
// the database has it (a sequence no column owns).
type SerialFixer interface {
	FixSerials(ctx context.Context, conn schema.ExecQuerier, tables []*schema.Table) (map[string][]string, error)
}

// RawObjectReader is implemented by dialects whose databases hold objects
// the model has no construct for (sequences, functions, triggers): each
// with the statement that creates it, and a description of each object it
// cannot create, saying why.
type RawObjectReader interface {
	ReadRawObjects(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table) ([]RawObject, []string, error)
}

// SettingsInferrer is implemented by dialects whose settings a model read
// back must write (TiDB's uuid_check and exact_strings, false where the
// database was made without them), from the model and the tables read: the
// settings, and notes for the summary.
type SettingsInferrer interface {
	InferSettings(s *compiler.Schema, inspected map[string]*schema.Table) (map[string]cty.Value, []string)
}

// RawTypeNoter is implemented by dialects that say why a type with a
// neutral type close to it stays the dialect's own (an unsigned integer,
// TiDB's TIMESTAMP): the phrase, or "" for a type with no neutral type.
type RawTypeNoter interface {
	RawTypeWhy(t *schema.ColumnType) string
}

// OnUpdateFolder is implemented by dialects that set on_update columns in
// their definition but not for raw types: the raw type with it.
type OnUpdateFolder interface {
	FoldOnUpdate(raw string, t compiler.Type) string
}

// ColumnCollator is implemented by dialects whose columns may have a
// collation of their own, which the model has no attribute for: the
// column's type with it, or "" for a column with its table's.
type ColumnCollator interface {
	CollatedType(t *schema.Table, c *schema.Column) string
}

// RangeReader is implemented by dialects with integer types that the
// neutral type the other dialects get holds, but with more values (TiDB's
// unsigned integers, YEAR): their range, as a portable expression over the
// column, or "".
type RangeReader interface {
	ValueRange(c *schema.Column) string
}

// IdentityFolder is implemented by dialects whose identity is a clause of
// the column's type: the raw type that numbers the column itself.
type IdentityFolder interface {
	FoldIdentity(raw string) string
}

// DomainReader is implemented by dialects that give columns value-domain
// CHECKs (Rules.Domains) under value_domains: their names on a table, with
// their columns, so that an import leaves them to the dialect.
type DomainReader interface {
	DomainChecks(t *compiler.Table) map[string]string
}

// PrimaryKeyNamer is implemented by dialects that name primary keys
// (PostgreSQL): the name of t's primary key where it is not the one the
// database gives by default, else "".
type PrimaryKeyNamer interface {
	PrimaryKeyName(t *schema.Table) string
}
