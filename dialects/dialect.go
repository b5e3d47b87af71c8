// Package dialects defines what every SQL dialect of schemagen provides.
// Each dialect lives in its own package and knows nothing of the others.
package dialects

import (
	"context"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/schema"
	"github.com/hashicorp/hcl/v2"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
)

// Dialect lowers the neutral model to one database's DDL.
type Dialect interface {
	// Name is the dialect's name in schema.hcl, atlas.hcl and generated/.
	Name() string
	// Generate lowers and renders the schema. Errors mean that the model's
	// meaning cannot be kept in this dialect; warnings are kept in Output too.
	Generate(s *compiler.Schema) (*Output, hcl.Diagnostics)
	// OpenAtlas returns the Atlas driver for a connection (*sql.DB, *sql.Conn
	// or *sql.Tx) to a database of this dialect, seeing everything the
	// dialect's DDL can declare.
	OpenAtlas(conn schema.ExecQuerier) (migrate.Driver, error)
	// Renormalizes reports whether the text the database reports for an
	// expression can change again when that text is executed (PostgreSQL
	// rewrites `x IN (...)` once more, for example): two databases built from
	// different texts of one expression may then report different texts.
	// Migrations avoid it by holding the model's text (see Exprs).
	Renormalizes() bool
	// ScanStmts splits a migration file or DDL script into statements as the
	// Atlas CLI's driver for this dialect does. Every command that reads a
	// migration directory splits it with this one scanner.
	ScanStmts(input string) ([]*migrate.Stmt, error)
	// UseExprs sets on the objects of s, a state inspected from a database
	// of this dialect, the expression texts x holds for them, so that
	// statements planned from s hold the generated DDL's text rather than the
	// text the database printed back.
	UseExprs(s *schema.Schema, x *Exprs)
	// Revisions returns the migration history of the database conn is
	// connected to, in the Atlas CLI's revisions table (see Revisions).
	Revisions(conn schema.ExecQuerier) Revisions
	// MarshalState and UnmarshalState store an inspected schema as Atlas's
	// HCL and read it back, such that it diffs as the original does.
	MarshalState(s *schema.Schema) ([]byte, error)
	UnmarshalState(b []byte) (*schema.Schema, error)
	// ServerWarnings reads the server settings under which the generated DDL
	// would not mean what it says (TiDB with CHECKs disabled), one sentence
	// each. It only reads.
	ServerWarnings(ctx context.Context, conn schema.ExecQuerier) ([]string, error)
	// ParseExpr reads an expression as this dialect's database reports it (PostgreSQL's pg_get_constraintdef / pg_get_expr text, TiDB's CHECK_CLAUSE text) back into a portable expression over the columns cols knows, or fails when it has no portable form.
	ParseExpr(text string, cols expr.Resolver) (expr.Node, error)
}

// Output is one dialect's rendering of a schema.
type Output struct {
	SQL       []byte
	Decisions []Decision
	// Exprs are the expressions SQL holds, as it writes them.
	Exprs *Exprs
}

// Exprs are the expressions of rendered DDL as it writes them, by table and
// object name. A database prints expressions back normalised, and may
// normalise its printed text into yet another text when it runs it again
// (PostgreSQL): a migration builds what the generated DDL builds only when
// it holds these texts.
type Exprs struct {
	Checks   map[ObjectName]string // by check name
	Defaults map[ObjectName]string // by column name
	// IndexParts are an index's parts, "" for a column; by index name.
	IndexParts map[ObjectName][]string
	Predicates map[ObjectName]string // by index name
	// RawIndexes are the statements, as the model gives them, of the
	// indexes the model declares by raw SQL; by index name.
	RawIndexes map[ObjectName]string
}

// ObjectName names an object of a table.
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
	Table  string // empty for schema-level decisions
	Object string // "column id", "index x", "check y"
	Kind   DecisionKind
	Text   string
}

func (d Decision) String() string {
	var b strings.Builder
	if d.Object != "" {
		b.WriteString(d.Object + ": ")
	}
	b.WriteString(d.Text)
	if d.Kind != Lowered {
		fmt.Fprintf(&b, " [%s]", d.Kind)
	}
	return b.String()
}

// Header is the first lines of every generated file.
func Header(dialect string) string {
	return fmt.Sprintf("-- Generated from schema.hcl by schemagen for %s. Do not edit:\n-- change schema.hcl and run `schemagen generate`.\n", dialect)
}

// Group is the decisions of one table that share their text and kind, over
// the objects they apply to ("created_at, updated_at: timestamp as ...").
type Group struct {
	Table   string
	Objects []string
	Kind    DecisionKind
	Text    string
}

func (g Group) String() string {
	objects := strings.Join(g.Objects, ", ")
	// "column a, column b" reads better as "columns a, b".
	if kind, _, ok := strings.Cut(g.Objects[0], " "); ok && len(g.Objects) > 1 {
		names := make([]string, len(g.Objects))
		same := true
		for i, o := range g.Objects {
			k, name, _ := strings.Cut(o, " ")
			same = same && k == kind
			names[i] = name
		}
		if same {
			plural := kind + "s"
			if strings.HasSuffix(kind, "x") {
				plural = kind + "es"
			}
			objects = plural + " " + strings.Join(names, ", ")
		}
	}
	d := Decision{Object: objects, Kind: g.Kind, Text: g.Text}
	return d.String()
}

// Grouped groups consecutive decisions by table, then by text and kind, in
// the order each first appears.
func Grouped(decisions []Decision) []Group {
	var out []Group
	for i := 0; i < len(decisions); {
		j := i
		for j < len(decisions) && decisions[j].Table == decisions[i].Table {
			j++
		}
		start := len(out)
		for _, d := range decisions[i:j] {
			k := -1
			for n := start; n < len(out); n++ {
				if out[n].Text == d.Text && out[n].Kind == d.Kind {
					k = n
					break
				}
			}
			if k < 0 {
				out = append(out, Group{Table: d.Table, Kind: d.Kind, Text: d.Text})
				k = len(out) - 1
			}
			if d.Object != "" {
				out[k].Objects = append(out[k].Objects, d.Object)
			}
		}
		i = j
	}
	return out
}
