// Package difftest is schemagen's differential tester. Models drawn at
// random (package draw) are compiled with the real pipeline
// (internal/gen), both dialects' DDL is applied to the real PostgreSQL and
// TiDB, the same statements run on both, and every disagreement (a DDL one
// database rejects, a statement the databases treat differently, tables
// that end with different rows) is reported, shrunk to a small model and a
// few statements, and printed as a ready regression test.
//
// This package holds the model (Model), its value space (Edges, Keys), the
// runner (Runner, Replay) and the shrinker. The model is kept as structure
// rather than HCL text so that the shrinker can drop parts of it and render
// it again.
package difftest

import (
	"fmt"
	"slices"
	"strings"
)

// Model is a random model: tables in dependency order (foreign keys point to
// earlier tables).
type Model struct {
	Tables []*Table
	// UUIDCheck and ExactStrings are TiDB's settings, ValueDomains both
	// dialects', as the model writes them: "" leaves the setting out (what
	// a model without a dialect block gets), else "true" or "false".
	UUIDCheck, ExactStrings, ValueDomains string
	// Extensions and Raws are the model's extension and raw blocks; Random
	// never draws them, the plan oracle does.
	Extensions []string
	Raws       []Raw
	// Enums are the model's enum blocks (drawn by enums, see random.go).
	Enums []Enum
}

// Enum is an enum block.
type Enum struct {
	Name   string
	Values []string
}

// Raw is a raw block: a statement per dialect ("" for none).
type Raw struct {
	Name, Postgres, TiDB string
}

// Table is one table of a Model.
type Table struct {
	Name string
	// RenamedFrom is the table's former name (renamed_from); Random never
	// draws it, the plan oracle does.
	RenamedFrom string
	Comment     string
	Cols        []*Col
	PK          []string
	Uniques     []Unique
	Checks      []Check
	Indexes     []Index
	FKs         []FK
	// Clustered is the primary key's clustered ("true", "false"; "" for
	// the server's default); ShardRowIDBits and PreSplitRegions the
	// table's layout options (0: none).
	Clustered                       string
	ShardRowIDBits, PreSplitRegions int
	// PKName is the primary key's name (primary_key { name }), "" for
	// the dialects' own.
	PKName string
	// TTL is the table's ttl block, nil for none.
	TTL *TTL
	// Partition is the table's partition block as written, "" for none.
	Partition string
}

// TTL is a table's ttl: Enabled "true", "false" or "" (the default, on);
// JobInterval "" for the default.
type TTL struct {
	Col, Unit, Enabled, JobInterval string
	Interval                        int
}

// HCL is the ttl block.
func (x *TTL) HCL() string {
	s := fmt.Sprintf("  ttl {\n    column = %q\n    interval = %d\n    unit = %q\n", x.Col, x.Interval, x.Unit)
	if x.Enabled != "" {
		s += "    enabled = " + x.Enabled + "\n"
	}
	if x.JobInterval != "" {
		s += fmt.Sprintf("    job_interval = %q\n", x.JobInterval)
	}
	return s + "  }\n"
}

// Index returns the index of t named name, or nil.
func (t *Table) Index(name string) *Index {
	for i := range t.Indexes {
		if t.Indexes[i].Name == name {
			return &t.Indexes[i]
		}
	}
	return nil
}

// Col is a column; Type is the neutral type as written in HCL.
type Col struct {
	Name    string
	Type    Type
	Null    bool
	Default string // an HCL value, or ""
	// Override is the body of per-dialect blocks, written as is.
	Override string
	Comment  string
	// Now is set on compiled columns whose default is now(): the databases
	// take the time at different instants.
	Now bool
	// Identity numbers the rows from IdentityStart (an identity block);
	// statements leave the column out (see docs/semantics.md).
	Identity      bool
	IdentityStart int64
	// Unordered is an identity with ordered = false (TiDB AUTO_RANDOM),
	// with ShardBits and RangeBits when not TiDB's defaults (0): each
	// database gives its own ids, so rows are compared without them.
	// IdentityCache is the identity's cache (TiDB AUTO_ID_CACHE), when
	// more than 1.
	Unordered            bool
	ShardBits, RangeBits int
	IdentityCache        int64
	// As is a generated column's expression (Virtual: stored = false);
	// statements leave the column out.
	As      string
	Virtual bool
	// OnUpdate is on_update = now() (a time the databases take at
	// different instants, like Now).
	OnUpdate bool
	// Random is set on compiled columns whose default is uuid(): each
	// database makes its own.
	Random bool
	// RenamedFrom is the column's former name (renamed_from); Random never
	// draws it, the plan oracle does.
	RenamedFrom string
}

// OwnIDs reports whether each database gives c ids of its own: an
// unordered identity, or one whose ids TiDB takes in batches.
func (c *Col) OwnIDs() bool {
	return c.Identity && (c.Unordered || c.IdentityCache > 1)
}

// Check is a CHECK with a portable expression (and an optional override block).
type Check struct {
	Name, Expr string
	Override   string
}

// Unique is a unique constraint.
type Unique struct {
	Name string
	Cols []string
	// Override is the body of per-dialect blocks (skip).
	Override string
}

// Index is an index over columns or expressions.
type Index struct {
	Name   string
	Unique bool
	Cols   []string // "expr:..." for an expression part
	Where  string
	Using  string
	// Comment is the index's comment (its purpose).
	Comment string
	// The index options (issue 33): non-key columns, NULLS NOT DISTINCT,
	// storage parameters as HCL ("{ fillfactor = 70 }"), visible = false.
	Include          []string
	NullsNotDistinct bool
	Storage          string
	Invisible        bool
	// Override is the body of per-dialect blocks (a non-unique index may
	// be left out of one dialect without changing what rows mean).
	Override string
}

// FK is a foreign key.
type FK struct {
	Name               string
	Cols               []string
	RefTable           string
	RefCols            []string
	OnDelete, OnUpdate string
	// Deferrable (PostgreSQL only; TiDB leaves it out, acknowledged) and
	// InitiallyDeferred; Random never draws them, the plan oracle does.
	Deferrable, InitiallyDeferred bool
}

// Type is a neutral column type.
type Type struct {
	Name string // uuid, text, varchar, ..., enum
	Args []int
	// Enum and Values are an enum type's name and values.
	Enum   string
	Values []string
}

func (t Type) String() string {
	if t.Name == "enum" {
		return "enum." + t.Enum
	}
	if len(t.Args) == 0 {
		return t.Name
	}
	s := make([]string, len(t.Args))
	for i, a := range t.Args {
		s[i] = fmt.Sprint(a)
	}
	return t.Name + "(" + strings.Join(s, ",") + ")"
}

// Table returns the table named name, or nil.
func (m *Model) Table(name string) *Table {
	for _, t := range m.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Col returns the column named name, or nil.
func (t *Table) Col(name string) *Col {
	for _, c := range t.Cols {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// HCL renders the model as schema.hcl.
func (m *Model) HCL() string {
	var b strings.Builder
	if m.ValueDomains != "" {
		b.WriteString("dialect \"postgres\" {\n  value_domains = " + m.ValueDomains + "\n}\n\n")
	}
	if m.UUIDCheck != "" || m.ExactStrings != "" || m.ValueDomains != "" {
		b.WriteString("dialect \"tidb\" {\n")
		if m.UUIDCheck != "" {
			b.WriteString("  uuid_check    = " + m.UUIDCheck + "\n")
		}
		if m.ExactStrings != "" {
			b.WriteString("  exact_strings = " + m.ExactStrings + "\n")
		}
		if m.ValueDomains != "" {
			b.WriteString("  value_domains = " + m.ValueDomains + "\n")
		}
		b.WriteString("}\n\n")
	}
	q := func(s string) string { return hclString(s) }
	for _, e := range m.Extensions {
		fmt.Fprintf(&b, "extension %s {}\n\n", q(e))
	}
	list := func(xs []string) string {
		qs := make([]string, len(xs))
		for i, x := range xs {
			qs[i] = q(x)
		}
		return "[" + strings.Join(qs, ", ") + "]"
	}
	for _, e := range m.Enums {
		fmt.Fprintf(&b, "enum %s {\n  values = %s\n}\n\n", q(e.Name), list(e.Values))
	}
	for _, t := range m.Tables {
		fmt.Fprintf(&b, "table %s {\n", q(t.Name))
		if t.RenamedFrom != "" {
			fmt.Fprintf(&b, "  renamed_from = %s\n", q(t.RenamedFrom))
		}
		if t.Comment != "" {
			fmt.Fprintf(&b, "  comment = %s\n", q(t.Comment))
		}
		if t.ShardRowIDBits > 0 {
			fmt.Fprintf(&b, "  shard_row_id_bits = %d\n", t.ShardRowIDBits)
		}
		if t.PreSplitRegions > 0 {
			fmt.Fprintf(&b, "  pre_split_regions = %d\n", t.PreSplitRegions)
		}
		for _, c := range t.Cols {
			fmt.Fprintf(&b, "  column %s {\n    type = %s\n", q(c.Name), c.Type)
			if c.Null {
				b.WriteString("    null = true\n")
			}
			if c.Default != "" {
				fmt.Fprintf(&b, "    default = %s\n", c.Default)
			}
			if c.As != "" {
				fmt.Fprintf(&b, "    as = %s\n", q(c.As))
				if c.Virtual {
					b.WriteString("    stored = false\n")
				}
			}
			if c.OnUpdate {
				b.WriteString("    on_update = now()\n")
			}
			if c.RenamedFrom != "" {
				fmt.Fprintf(&b, "    renamed_from = %s\n", q(c.RenamedFrom))
			}
			switch {
			case c.Identity && (c.IdentityStart > 1 || c.Unordered || c.IdentityCache > 1):
				b.WriteString("    identity {\n")
				if c.IdentityStart > 1 {
					fmt.Fprintf(&b, "      start = %d\n", c.IdentityStart)
				}
				if c.IdentityCache > 1 {
					fmt.Fprintf(&b, "      cache = %d\n", c.IdentityCache)
				}
				if c.Unordered {
					b.WriteString("      ordered = false\n")
				}
				if c.ShardBits > 0 {
					fmt.Fprintf(&b, "      shard_bits = %d\n", c.ShardBits)
				}
				if c.RangeBits > 0 {
					fmt.Fprintf(&b, "      range = %d\n", c.RangeBits)
				}
				b.WriteString("    }\n")
			case c.Identity:
				b.WriteString("    identity {}\n")
			}
			if c.Comment != "" {
				fmt.Fprintf(&b, "    comment = %s\n", q(c.Comment))
			}
			b.WriteString(indent(c.Override, "    "))
			b.WriteString("  }\n")
		}
		if len(t.PK) > 0 {
			clustered := ""
			if t.Clustered != "" {
				clustered = "    clustered = " + t.Clustered + "\n"
			}
			if t.PKName != "" {
				clustered += "    name = " + q(t.PKName) + "\n"
			}
			fmt.Fprintf(&b, "  primary_key {\n    columns = %s\n%s  }\n", list(t.PK), clustered)
		}
		if t.TTL != nil {
			b.WriteString(t.TTL.HCL())
		}
		b.WriteString(t.Partition)
		for _, u := range t.Uniques {
			fmt.Fprintf(&b, "  unique %s {\n    columns = %s\n%s  }\n", q(u.Name), list(u.Cols), indent(u.Override, "    "))
		}
		for _, c := range t.Checks {
			fmt.Fprintf(&b, "  check %s {\n    expr = %s\n%s  }\n", q(c.Name), q(c.Expr), indent(c.Override, "    "))
		}
		for _, fk := range t.FKs {
			fmt.Fprintf(&b, "  foreign_key %s {\n    columns     = %s\n    ref_table   = %s\n    ref_columns = %s\n", q(fk.Name), list(fk.Cols), q(fk.RefTable), list(fk.RefCols))
			if fk.OnDelete != "" {
				fmt.Fprintf(&b, "    on_delete   = %s\n", q(fk.OnDelete))
			}
			if fk.OnUpdate != "" {
				fmt.Fprintf(&b, "    on_update   = %s\n", q(fk.OnUpdate))
			}
			if fk.Deferrable {
				b.WriteString("    deferrable  = true\n")
				if fk.InitiallyDeferred {
					b.WriteString("    initially_deferred = true\n")
				}
				b.WriteString("    tidb {\n      accept = [\"deferrable\"]\n    }\n")
			}
			b.WriteString("  }\n")
		}
		for _, idx := range t.Indexes {
			fmt.Fprintf(&b, "  index %s {\n", q(idx.Name))
			if idx.Unique {
				b.WriteString("    unique = true\n")
			}
			if idx.Using != "" {
				fmt.Fprintf(&b, "    using = %s\n", q(idx.Using))
			}
			plain := true
			for _, p := range idx.Cols {
				plain = plain && !strings.HasPrefix(p, "expr:")
			}
			if plain {
				fmt.Fprintf(&b, "    columns = %s\n", list(idx.Cols))
			} else {
				for _, p := range idx.Cols {
					if e, ok := strings.CutPrefix(p, "expr:"); ok {
						fmt.Fprintf(&b, "    on {\n      expr = %s\n    }\n", q(e))
					} else {
						fmt.Fprintf(&b, "    on {\n      column = %s\n    }\n", q(p))
					}
				}
			}
			if idx.Where != "" {
				fmt.Fprintf(&b, "    where = %s\n", q(idx.Where))
			}
			if idx.Comment != "" {
				fmt.Fprintf(&b, "    comment = %s\n", q(idx.Comment))
			}
			if len(idx.Include) > 0 {
				fmt.Fprintf(&b, "    include = %s\n", list(idx.Include))
			}
			if idx.NullsNotDistinct {
				b.WriteString("    nulls_distinct = false\n")
			}
			if idx.Storage != "" {
				fmt.Fprintf(&b, "    storage = %s\n", idx.Storage)
			}
			if idx.Invisible {
				b.WriteString("    visible = false\n")
			}
			b.WriteString(indent(idx.Override, "    "))
			b.WriteString("  }\n")
		}
		b.WriteString("}\n\n")
	}
	for _, r := range m.Raws {
		fmt.Fprintf(&b, "raw %s {\n", q(r.Name))
		if r.Postgres != "" {
			fmt.Fprintf(&b, "  postgres = %s\n", q(r.Postgres))
		}
		if r.TiDB != "" {
			fmt.Fprintf(&b, "  tidb     = %s\n", q(r.TiDB))
		}
		b.WriteString("}\n\n")
	}
	return b.String()
}

func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(prefix + line + "\n")
	}
	return b.String()
}

// hclString quotes s as an HCL string (no interpolation).
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	// ${ and %{ start templates; $${ and %%{ are their escapes.
	return strings.NewReplacer("${", "$${", "%{", "%%{").Replace(b.String())
}

// Clone returns a deep copy.
func (m *Model) Clone() *Model {
	c := &Model{UUIDCheck: m.UUIDCheck, ExactStrings: m.ExactStrings, ValueDomains: m.ValueDomains, Extensions: slices.Clone(m.Extensions), Raws: slices.Clone(m.Raws), Enums: slices.Clone(m.Enums)}
	for _, t := range m.Tables {
		nt := *t
		nt.Cols = nil
		for _, col := range t.Cols {
			cc := *col
			nt.Cols = append(nt.Cols, &cc)
		}
		nt.PK = append([]string(nil), t.PK...)
		nt.Uniques = append([]Unique(nil), t.Uniques...)
		nt.Checks = append([]Check(nil), t.Checks...)
		nt.Indexes = append([]Index(nil), t.Indexes...)
		nt.FKs = append([]FK(nil), t.FKs...)
		if t.TTL != nil {
			x := *t.TTL
			nt.TTL = &x
		}
		c.Tables = append(c.Tables, &nt)
	}
	return c
}

// quoteIdent writes a column reference of the expression language.
func quoteIdent(s string) string {
	plain := s != "" && strings.ToLower(s) == s && !slices.Contains([]string{"select", "and", "or", "not", "null", "true", "false", "in", "is", "like", "between", "distinct", "from"}, s)
	for i, r := range s {
		plain = plain && (r == '_' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9')
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
