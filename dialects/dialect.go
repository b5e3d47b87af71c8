// Package dialects defines what every SQL dialect of schemagen provides.
// Each dialect lives in its own package and knows nothing of the others.
package dialects

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
	"github.com/schemagen/schemagen/dialects/hazard"
)

// Dialect is one database, as a few small parts: its name and the parts
// every command needs. The optional parts (Online, Sessions, Importer and
// the import hooks of importer.go, RuleBook, ObjectDialect, TriggerDialect,
// DataRenderer, ErrorDetailer) may be absent. A dialect is one value: each of
// its parts is that value.
//
// Consumers ask for the part they use:
//   - A consumer takes the one part it calls, and Dialect only when it
//     calls more than one of the required parts (import, lint).
//   - The name travels in Named, which every required part embeds (Gen,
//     Database and so DB, Atlas, Lint): a consumer that holds one names the
//     dialect through it, never from a name passed beside it. One that calls
//     the name alone takes Named.
//   - Optional parts do not embed Named. A consumer that calls one optional
//     part and nothing else takes that part, nil when the dialect has none
//     (internal/online takes Online). One that needs the name, or another
//     part, too takes the part that has them and asks it for the optional
//     part with a type assertion to the part, declared in this package.
//
// dialects/all's TestConsumersTakeParts fails on a function outside
// dialects/ that takes the whole Dialect without being listed there with
// the parts it calls.
type Dialect interface {
	Named
	Gen
	DB
	Atlas
	Lint
}

// Named is a dialect by its name, which every required part embeds.
type Named interface {
	// Name is the dialect's name in schema.hcl, atlas.hcl and generated/.
	Name() string
}

// Gen lowers and renders the model, and reads back what the database prints
// of it.
type Gen interface {
	Named
	// Generate lowers and renders the schema. Errors mean that the model's
	// meaning cannot be kept in this dialect; warnings are kept in Output too.
	Generate(s *compiler.Schema) (*Output, hcl.Diagnostics)
	// ParseExpr reads an expression as this dialect's database reports it
	// (PostgreSQL's pg_get_constraintdef / pg_get_expr text, TiDB's
	// CHECK_CLAUSE text) back into a portable expression over the columns
	// cols knows, or fails when it has no portable form.
	ParseExpr(text string, cols expr.Resolver) (expr.Node, error)
	Describer
}

// DB reaches the dialect's databases: URLs, dev servers, the revisions
// table and the server settings that change what the DDL means.
type DB interface {
	Database
	// Revisions returns the migration history of the database conn is
	// connected to, in the Atlas CLI's revisions table (see Revisions).
	Revisions(conn schema.ExecQuerier) Revisions
	// ServerWarnings reads the server settings under which the generated DDL
	// would not mean what it says (TiDB with CHECKs disabled). It only
	// reads.
	ServerWarnings(ctx context.Context, conn schema.ExecQuerier) ([]ServerWarning, error)
}

// Atlas is the dialect's side of Atlas: its driver, its statement scanner
// and the states it stores.
type Atlas interface {
	Named
	// OpenAtlas returns the Atlas driver for a connection (*sql.DB, *sql.Conn
	// or *sql.Tx) to a database of this dialect, seeing everything the
	// dialect's DDL can declare.
	OpenAtlas(conn schema.ExecQuerier) (migrate.Driver, error)
	// ScanStmts splits a migration file or DDL script into statements as the
	// Atlas CLI's driver for this dialect does. Every command that reads a
	// migration directory splits it with this one scanner.
	ScanStmts(input string) ([]*migrate.Stmt, error)
	// UseExprs sets on the objects of s, a state inspected from a database
	// of this dialect, the expression texts x holds for them, so that
	// statements planned from s hold the generated DDL's text rather than the
	// text the database printed back.
	UseExprs(s *schema.Schema, x *Exprs)
	// MarshalState and UnmarshalState store an inspected schema as Atlas's
	// HCL and read it back, such that it diffs as the original does.
	MarshalState(s *schema.Schema) ([]byte, error)
	UnmarshalState(b []byte) (*schema.Schema, error)
	// Volatile reports whether an inspected attribute says nothing a diff
	// compares and can differ between two databases of one schema: it
	// identifies the object in one database only (an OID) or changes with
	// the data (an AUTO_INCREMENT counter, CREATE TABLE text holding one).
	Volatile(a schema.Attr) bool
}

// Online is implemented by dialects that know the hazards of what they plan
// on tables holding rows, and how to plan it without stalling writes.
type Online interface {
	// PlanStmts plans Atlas's changes (drv's, from SchemaDiff) one table
	// change per statement, each with its hazards. online selects the forms
	// that keep writes going; opts are passed to drv.PlanChanges.
	PlanStmts(ctx context.Context, drv migrate.Driver, changes []schema.Change, online bool, opts ...migrate.PlanOption) ([]hazard.Stmt, error)
	// StmtForm reads how statement i of a migration file does what its
	// changes say (the statements before it set the session it runs in).
	StmtForm(stmts []string, i int) hazard.Form
	// Hazards are the hazards of a statement in form f, which made changes
	// (read by replaying it) to tables that held rows before. PlanStmts
	// gives its statements the hazards this maps the form it chose to.
	Hazards(changes []schema.Change, f hazard.Form) []hazard.Hazard
	// HazardCodes describes every code Hazards and PlanStmts report.
	HazardCodes() []hazard.Code
	// Resume prepares the session conn to run todo, the statements of a
	// file that an earlier apply did not finish, after skipped, the ones it
	// did: it removes what a statement killed mid-way left behind (an
	// invalid index) and restores the session settings skipped made. It
	// returns how many of todo's first statements the server finished after
	// all (an index built CONCURRENTLY whose apply was interrupted), so that
	// they are recorded as applied instead of run again.
	Resume(ctx context.Context, conn schema.ExecQuerier, skipped, todo []string) (int, error)
	// Unfinished lists, one sentence each, what interrupted online
	// statements left behind in the database (invalid indexes, constraints
	// not validated).
	Unfinished(ctx context.Context, conn schema.ExecQuerier) ([]string, error)
	// Prechecks runs the pre-check queries of statements and describes the
	// rows they find, one sentence each: rows the statements would fail on.
	Prechecks(ctx context.Context, conn schema.ExecQuerier, queries []string) ([]string, error)
	// ExplainError returns advice for a statement's error (a lock timeout),
	// or "".
	ExplainError(err error) string
}

// Sessions is implemented by dialects whose server stops, on request from
// another session, the statement a session runs: an interrupted migrate
// apply stops its statement on the server, not only in the client.
type Sessions interface {
	// SessionID is the server's id of the session conn.
	SessionID(ctx context.Context, conn schema.ExecQuerier) (int64, error)
	// CancelStatement asks the server, through another session, to cancel
	// the statement session id runs; the session stays open.
	CancelStatement(ctx context.Context, other schema.ExecQuerier, id int64) error
	// EndSession ends session id, for a statement that outlives its cancel.
	EndSession(ctx context.Context, other schema.ExecQuerier, id int64) error
}

// Output is one dialect's rendering of a schema.
type Output struct {
	SQL       []byte
	Decisions []Decision
	// Exprs are the expressions SQL holds, as it writes them.
	Exprs *Exprs
	// Render returns what SQL writes for each object (nil from a dialect
	// that does not tell); made when asked, so that generate pays nothing
	// for it.
	Render func() *Rendered
}

// Exprs are the expressions of rendered DDL as it writes them, by table and
// object name. A database prints expressions back normalised, and may
// normalise its printed text into yet another text when it runs it again
// (PostgreSQL): a migration builds what the generated DDL builds only when
// it holds these texts.
type Exprs struct {
	Checks   map[ObjectName]string // by check name
	Defaults map[ObjectName]string // by column name
	// Generated are generated columns' expressions, by column name.
	Generated map[ObjectName]string
	// Collations are what string columns compare with, where the DDL
	// names it, by column name.
	Collations map[ObjectName]string
	// IndexParts are an index's parts, "" for a column; by index name.
	IndexParts map[ObjectName][]string
	Predicates map[ObjectName]string // by index name
	// RawIndexes are the statements, as the model gives them, of the
	// indexes the model declares by raw SQL; by index name.
	RawIndexes map[ObjectName]string
	// Renames are the renames the model asks for (renamed_from), which a
	// migration makes instead of a drop and an add: tables first, then
	// columns (ToTable is the column's table, by its new name).
	Renames []Rename
	// Extensions are the extensions the DDL creates first, by name, in the
	// model's order.
	Extensions []string
	// Raw are the model's raw statements for this dialect, in the model's
	// order, as the DDL runs them.
	Raw []RawStmt
	// After are, by table, the statements the DDL runs after the table's
	// (PostgreSQL's on_update function and trigger, Objects.Triggers).
	After map[string][]string
}

// RawStmt is a raw statement of the model in one dialect.
type RawStmt struct {
	Name string
	SQL  string // trimmed, without its final semicolon
	// BeforeTables: run before the tables (position = "before_tables").
	BeforeTables bool
}

// ObjectName is a key of Exprs: an object of rendered DDL, or of a state
// inspected from a database, by its table and its name in the database, of
// the kind its map holds (a check, a column, an index). It is not a
// compiler.ObjectRef, which names an object of the model by the model's
// name: these are the database's names (a name override's; the CHECKs a
// dialect adds, such as uuid_check's, are no object of the model), looked
// up by the names Atlas inspects, and the map says the kind.
type ObjectName struct{ Table, Name string }

// DecisionKind classifies a lowering decision.
type DecisionKind int

const (
	// Lowered: the neutral form maps to a different construct here.
	Lowered DecisionKind = iota
	// Overridden: the model gave raw SQL or a type for this dialect.
	Overridden
	// Omitted: a feature or object is left out here (with a warning when it
	// changes behaviour).
	Omitted
	// Added: the dialect adds an object to keep a guarantee of the model.
	Added
)

var kindNames = [...]string{"lowered", "override", "omitted", "added"}

func (k DecisionKind) String() string { return kindNames[k] }

// Decision explains one lowering decision for `schemagen explain` and for the
// comments in generated SQL.
type Decision struct {
	// Object is what the decision is about: an object of a table (a
	// column, an index, ...), the table itself (Kind compiler.KindTable,
	// Name ""), or an object of the schema (an extension, an enum, a raw
	// statement: Table "").
	Object compiler.ObjectRef
	Kind   DecisionKind
	// Aspect is what of the object the decision is about.
	Aspect Aspect
	Text   string
	// SQLType is the column type exactly as rendered (DATETIME(3)), for
	// decisions about a column's type; explain shows it.
	SQLType string
}

// Aspect is what of an object a decision is about.
type Aspect int

const (
	// AspectOther: anything but the ones below.
	AspectOther Aspect = iota
	// AspectType: how a column's type is rendered (its type table's note,
	// or a type override).
	AspectType
)

// MarkType sets the rendered type on the decisions about a column's type
// (Aspect AspectType), which a dialect recorded while lowering the column.
func MarkType(ds []Decision, sqlType string) {
	for i := range ds {
		if ds[i].Aspect == AspectType {
			ds[i].SQLType = sqlType
		}
	}
}

func (d Decision) String() string { return decision(ObjectLabel(d.Object), d.Kind, d.Text) }

func decision(object string, kind DecisionKind, text string) string {
	var b strings.Builder
	if object != "" {
		b.WriteString(object + ": ")
	}
	b.WriteString(text)
	if kind != Lowered {
		fmt.Fprintf(&b, " [%s]", kind)
	}
	return b.String()
}

// ObjectLabel is how explain and the comments of generated SQL name an
// object within its table or schema: "column id", "index x", "extension
// vector"; a table by its Name ("" for a decision about the table itself,
// which names nothing).
func ObjectLabel(r compiler.ObjectRef) string {
	if aboutTable(r) {
		return r.Name
	}
	return string(r.Kind) + " " + r.Name
}

// aboutTable reports whether a decision about r is about the table itself
// (a ref without a kind names nothing else).
func aboutTable(r compiler.ObjectRef) bool { return r.Kind == compiler.KindTable || r.Kind == "" }

// Header is the first lines of every generated file; sources are the names
// of the schema files (schema.hcl when none is known).
func Header(dialect string, sources ...string) string {
	from, change := "schema.hcl", "schema.hcl"
	switch {
	case len(sources) == 1:
		from, change = sources[0], sources[0]
	case len(sources) > 1:
		from, change = strings.Join(sources, ", "), "them"
	}
	return fmt.Sprintf("-- Generated from %s by schemagen for %s. Do not edit:\n-- change %s and run `schemagen generate`.\n", from, dialect, change)
}

// Group is the decisions of one table that share their text and kind, over
// the objects they apply to ("created_at, updated_at: timestamp as ...").
type Group struct {
	Table   string
	Objects []compiler.ObjectRef // none for a decision about the table
	Kind    DecisionKind
	Text    string
	SQLType string // set by GroupedExact
}

func (g Group) String() string {
	names := make([]string, len(g.Objects))
	same := len(g.Objects) > 1
	for i, o := range g.Objects {
		names[i] = ObjectLabel(o)
		same = same && !aboutTable(o) && o.Kind == g.Objects[0].Kind
	}
	objects := strings.Join(names, ", ")
	// "column a, column b" reads better as "columns a, b".
	if same {
		for i, o := range g.Objects {
			names[i] = o.Name
		}
		kind := string(g.Objects[0].Kind)
		plural := kind + "s"
		if strings.HasSuffix(kind, "x") {
			plural = kind + "es"
		}
		objects = plural + " " + strings.Join(names, ", ")
	}
	text := g.Text
	if g.SQLType != "" && !containsWord(text, g.SQLType) {
		text += "; exactly " + g.SQLType
	}
	return decision(objects, g.Kind, text)
}

// containsWord reports whether s has w not followed by more of a type, so
// that DATETIME does not count as DATETIME(3).
func containsWord(s, w string) bool {
	for i := strings.Index(s, w); i >= 0; {
		end := i + len(w)
		if end == len(s) || s[end] != '(' && s[end] != '[' {
			return true
		}
		j := strings.Index(s[end:], w)
		if j < 0 {
			return false
		}
		i = end + j
	}
	return false
}

// Grouped groups consecutive decisions by table, then by text and kind, in
// the order each first appears.
func Grouped(decisions []Decision) []Group { return grouped(decisions, false) }

// GroupedExact is Grouped keeping apart decisions of different rendered
// types, each group with its type: what explain shows.
func GroupedExact(decisions []Decision) []Group { return grouped(decisions, true) }

func grouped(decisions []Decision, exact bool) []Group {
	var out []Group
	for i := 0; i < len(decisions); {
		j := i
		for j < len(decisions) && decisions[j].Object.Table == decisions[i].Object.Table {
			j++
		}
		start := len(out)
		for _, d := range decisions[i:j] {
			k := -1
			for n := start; n < len(out); n++ {
				if out[n].Text == d.Text && out[n].Kind == d.Kind && (!exact || out[n].SQLType == d.SQLType) {
					k = n
					break
				}
			}
			if k < 0 {
				g := Group{Table: d.Object.Table, Kind: d.Kind, Text: d.Text}
				if exact {
					g.SQLType = d.SQLType
				}
				out = append(out, g)
				k = len(out) - 1
			}
			if !aboutTable(d.Object) {
				out[k].Objects = append(out[k].Objects, d.Object)
			}
		}
		i = j
	}
	return out
}

// Rules describe a dialect's limits and naming rules. The shared validation
// (dialects/internal/rules) asks them instead of special-casing a dialect;
// the importer reads the same name scopes.
type Rules struct {
	// Product is the database's name in messages ("PostgreSQL").
	Product string
	// MaxIdent is the longest identifier, in bytes when IdentBytes, else in
	// characters.
	MaxIdent   int
	IdentBytes bool
	// FoldCase: names that differ only in letter case are the same name.
	FoldCase bool
	// TrailingSpace: names may end in a space.
	TrailingSpace bool
	// IdentQuote quotes identifiers in raw SQL; LowerUnquoted: unquoted
	// identifiers there are read in lower case.
	IdentQuote    byte
	LowerUnquoted bool
	// Namespaces are the name scopes; an object kind may be in several.
	Namespaces []compiler.NameScope
	// FKIndexName: an index may have its foreign key's name when the key's
	// columns lead it, as the index the database makes for a key is named
	// (TiDB), although the two kinds otherwise share a name space.
	FKIndexName bool
	// MaxKeyBytes bounds the bytes of one index key (0: no limit the model
	// can reach).
	MaxKeyBytes int
	// MaxCharLength bounds n in char(n), MaxVarcharLength n in varchar(n)
	// (characters); MaxDecimalPrecision and MaxDecimalScale bound p and s in
	// decimal(p,s) (0: no limit the model can reach).
	MaxCharLength, MaxVarcharLength, MaxDecimalPrecision, MaxDecimalScale int
	// MaxColumnComment, MaxTableComment and MaxIndexComment bound
	// comments, in characters (0: no limit the model can reach).
	MaxColumnComment, MaxTableComment, MaxIndexComment int
	// MaxColumns bounds the columns of a table as the database creates it
	// (generated columns a dialect adds included), MaxIndexes its indexes
	// (the primary key and unique constraints included) and MaxKeyParts the
	// columns of one key (index, unique, primary or foreign key); 0: none.
	MaxColumns, MaxIndexes, MaxKeyParts int
	// MaxBigintIdentity is the largest id a bigint identity column gets (0:
	// the type's largest). TiDB's allocator stops one short of 2^63-1.
	MaxBigintIdentity int64
	// CommentBytes: comment limits count bytes, not characters.
	CommentBytes bool
	// IntHandle: a primary key over one integer column is the table's row
	// key and not counted as an index (TiDB's clustered integer key).
	IntHandle bool
	// FKIndexes: the database creates an index for a foreign key whose
	// columns lead no index (TiDB), and it counts towards MaxIndexes.
	FKIndexes bool
	// FKLeadingIndex: a foreign key needs an index of the referenced table
	// led by the referenced columns in the key's order (TiDB, error 1822);
	// otherwise a unique key over them in any order does.
	FKLeadingIndex bool
	// MaxCascadeDepth is the number of levels of rows one statement may
	// cascade through (0: no limit).
	MaxCascadeDepth int
	// Domains hold each neutral type (by name) to one value domain on every
	// database: the CHECK this dialect adds to each column of the type where
	// its database takes values another refuses.
	Domains map[string]Domain
	// Errors are the database's error codes for its limits, by limit
	// ("varchar", "column comment", "table comment", "columns", "indexes",
	// "key parts", "char", "decimal precision", "decimal scale"), for
	// messages.
	Errors map[string]string
	// ExprIndexFunctions are the portable functions an expression index part
	// may call, and ExprIndexOperators the operators (nil: any).
	ExprIndexFunctions map[string]bool
	ExprIndexOperators map[string]bool
	// IndexMethods are the USING methods an index may name, UniqueMethods
	// those a unique index may (nil: the dialect has none and leaves USING
	// out with a warning). OpClasses are the operator classes it knows (nil:
	// none, left out with a warning).
	IndexMethods, UniqueMethods, OpClasses []string
	// SingleColumnMethods are the index methods that take one key part.
	SingleColumnMethods []string
	// MethodTypes lists, for index methods that have default operator
	// classes for some types only, the neutral types they index without an
	// opclass (methods not listed index every type).
	MethodTypes map[string][]string
	// RegexDotNewline: . matches a newline in a regular expression.
	RegexDotNewline bool
	// IgnoresDesc: the database accepts DESC on an index part and builds the
	// part ascending (TiDB); the order of an index never changes a result.
	IgnoresDesc bool
}

// Domain is a CHECK that keeps a column of a neutral type to the values
// every database takes.
type Domain struct {
	// Suffix names the CHECK: <table>_<column>_<suffix>_ck.
	Suffix string
	// Check is the CHECK's expression, %[1]s the quoted column.
	Check string
	// Why is the difference it removes, for schemagen explain.
	Why string
}

// DomainCheckName is the name of the CHECK of domain dom on a column,
// fitted into the dialect's identifier limit.
func (r *Rules) DomainCheckName(table, column string, dom Domain) string {
	return FitName(table+"_"+column+"_"+dom.Suffix+"_ck", r.MaxIdent)
}

// FitName fits a name a dialect makes up into max bytes, deterministically:
// a longer name keeps its start and ends in a hash of the whole.
func FitName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	cut := max - 9
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut] + "_" + hex.EncodeToString(sum[:4])
}

// BoolSetting reads a `dialect "NAME" { setting = true }` setting that is
// true or false.
func BoolSetting(dialect string, a *hcl.Attribute) (bool, *hcl.Diagnostic) {
	v, d := a.Expr.Value(nil)
	if d.HasErrors() || v.IsNull() || v.Type() != cty.Bool {
		return false, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid setting (" + dialect + ")", Detail: a.Name + " must be true or false.", Subject: a.Expr.Range().Ptr()}
	}
	return v.True(), nil
}

// Limit names a limit of the database in messages: "TiDB's limit, error
// 1070" or "PostgreSQL's limit".
func (r *Rules) Limit(name string) string {
	if code := r.Errors[name]; code != "" {
		return r.Product + "'s limit, error " + code
	}
	return r.Product + "'s limit"
}

// RuleBook is implemented by dialects that describe their rules.
type RuleBook interface {
	Rules() *Rules
}

// Fold returns the form of name that r compares.
func (r *Rules) Fold(name string) string {
	if r.FoldCase {
		return strings.ToLower(name)
	}
	return name
}

// ErrorDetailer is a dialect whose database errors carry more than their
// message: PostgreSQL's DETAIL (which value collided) and HINT lines.
type ErrorDetailer interface {
	// ErrorDetail returns those lines ("DETAIL: ...", "HINT: ..."), or "".
	ErrorDetail(err error) string
}

// ErrorDetail is what e, a dialect's ErrorDetailer part (nil when it has
// none), adds to a database error err, or "".
func ErrorDetail(e ErrorDetailer, err error) string {
	if e != nil && err != nil {
		return e.ErrorDetail(err)
	}
	return ""
}

// DataRenderer is implemented by dialects that render portable data
// migrations (compiler/expr's data statements).
type DataRenderer interface {
	// RenderData renders analyzed data statements over the tables cat
	// knows, one SQL statement each, without the final semicolon. x are the
	// expressions (CHECKs, defaults, generated columns) of those tables as
	// the dialect's DDL writes them.
	RenderData(stmts []expr.Stmt, cat expr.Catalog, x *Exprs) []string
}
