// Package load reads schema.hcl into the neutral model (package compiler)
// and validates it: every block and attribute of the language, with a
// diagnostic that names file, line and column for each mistake, and every
// mistake of a file reported at once (a partly loaded model is validated
// too).
//
// It stands alone because it is the one place that knows the language's
// syntax and rules; the model it builds is what the dialects, the
// importer and the migration workflow use, and none of them needs to know
// how it was read.
package load

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/compiler/expr"
)

// Options configure the compiler. Dialects lists the dialect names that
// override blocks, `dialect` blocks and `raw` statements may name; the compiler
// itself knows none.
type Options struct {
	Dialects []string
}

// Files reads and compiles the given schema files.
func Files(opts Options, paths ...string) (*compiler.Schema, hcl.Diagnostics) {
	p := hclparse.NewParser()
	var diags hcl.Diagnostics
	var files []*hcl.File
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			detail := err.Error()
			if errors.Is(err, os.ErrNotExist) {
				detail = fmt.Sprintf("%s does not exist. Run schemagen in the directory that holds schema.hcl, or pass --schema.", path)
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read schema file", Detail: detail})
			continue
		}
		f, d := p.ParseHCL(src, path)
		diags = append(diags, d...)
		if f != nil {
			files = append(files, f)
		}
	}
	s, d := Parsed(opts, p.Files(), files...)
	return s, append(diags, d...)
}

// Source compiles one schema held in memory, named filename in messages.
func Source(opts Options, filename string, src []byte) (*compiler.Schema, hcl.Diagnostics) {
	p := hclparse.NewParser()
	f, diags := p.ParseHCL(src, filename)
	if diags.HasErrors() {
		return &compiler.Schema{Files: p.Files()}, diags
	}
	s, d := Parsed(opts, p.Files(), f)
	return s, append(diags, d...)
}

// Parsed builds and validates the neutral model from parsed files.
func Parsed(opts Options, all map[string]*hcl.File, files ...*hcl.File) (*compiler.Schema, hcl.Diagnostics) {
	l := &loader{opts: opts, s: &compiler.Schema{Dialect: map[string]*compiler.DialectSettings{}, Files: all}}
	// Enums first: columns of any file name them.
	for _, f := range files {
		l.file = f
		l.enums(f.Body)
	}
	for _, f := range files {
		l.file = f
		l.top(f.Body)
	}
	l.s.Reindex()
	// Validate even a partly loaded model, so that every error shows at once.
	l.diags = append(l.diags, Validate(l.s)...)
	return l.s, l.diags
}

type loader struct {
	opts  Options
	s     *compiler.Schema
	file  *hcl.File
	diags hcl.Diagnostics
}

func (l *loader) errorf(rng hcl.Range, summary, format string, args ...any) {
	l.diags = append(l.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  rng.Ptr(),
	})
}

func (l *loader) overrideBlocks() []hcl.BlockHeaderSchema {
	var bs []hcl.BlockHeaderSchema
	for _, d := range l.opts.Dialects {
		bs = append(bs, hcl.BlockHeaderSchema{Type: d})
	}
	return bs
}

var topSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "table", LabelNames: []string{"name"}},
	{Type: "raw", LabelNames: []string{"name"}},
	{Type: "extension", LabelNames: []string{"name"}},
	{Type: "dialect", LabelNames: []string{"name"}},
	{Type: "enum", LabelNames: []string{"name"}},
	{Type: "export", LabelNames: []string{"format"}},
}}

// enums reads the enum blocks of a file.
func (l *loader) enums(body hcl.Body) {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "enum", LabelNames: []string{"name"}}}})
	for _, b := range content.Blocks {
		l.enum(b)
	}
}

func (l *loader) enum(b *hcl.Block) {
	name := b.Labels[0]
	attrs := l.attrs(b, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "values", Required: true}}})
	e := &compiler.Enum{Name: name, Range: b.LabelRanges[0]}
	if strings.TrimSpace(name) == "" {
		l.errorf(b.LabelRanges[0], "Invalid enum name", "An enum needs a name, such as enum \"order_status\" { values = [\"pending\", \"paid\"] }.")
		return
	}
	if prev := l.s.Enum(name); prev != nil {
		l.errorf(b.LabelRanges[0], "Duplicate enum", "The enum %q is already declared at %s.", name, prev.Range)
		return
	}
	if a := attrs["values"]; a != nil {
		e.ValueRanges = itemRanges(a)
		v, ok := l.value(a, cty.DynamicPseudoType, "a list of strings")
		switch {
		case !ok:
		case !v.Type().IsTupleType() && !v.Type().IsListType() || v.LengthInt() == 0:
			l.errorf(a.Expr.Range(), "Invalid enum values", "values must be a non-empty list of strings, such as [\"pending\", \"paid\"].")
		default:
			e.Values = []string{}
			for it := v.ElementIterator(); it.Next(); {
				_, x := it.Element()
				if x.IsNull() || x.Type() != cty.String {
					l.errorf(a.Expr.Range(), "Invalid enum values", "values must be a list of strings.")
					e.Values = nil
					break
				}
				e.Values = append(e.Values, x.AsString())
			}
		}
	}
	l.s.Enums = append(l.s.Enums, e)
}

// resolveEnum points an enum type at its declaration, or says it has none.
func (l *loader) resolveEnum(t *compiler.Type, rng hcl.Range) {
	if t.Kind != compiler.TypeEnum || t.Enum == nil {
		return
	}
	if e := l.s.Enum(t.Enum.Name); e != nil {
		t.Enum = e
		return
	}
	var names []string
	for _, e := range l.s.Enums {
		names = append(names, e.Name)
	}
	detail := fmt.Sprintf("There is no enum %q.%s Declare it at the top level: enum %q { values = [...] }.", t.Enum.Name, compiler.Suggest(t.Enum.Name, names), t.Enum.Name)
	l.errorf(rng, "Unknown enum", "%s", detail)
	*t = compiler.Type{}
}

func (l *loader) top(body hcl.Body) {
	content, diags := body.Content(topSchema)
	l.diags = append(l.diags, diags...)
	for _, b := range content.Blocks {
		switch b.Type {
		case "table":
			l.table(b)
		case "raw":
			l.raw(b)
		case "extension":
			l.extension(b)
		case "dialect":
			l.dialect(b)
		case "enum":
			// read by enums, before the tables
		case "export":
			l.export(b)
		}
	}
}

func (l *loader) dialect(b *hcl.Block) {
	name := b.Labels[0]
	if !slices.Contains(l.opts.Dialects, name) {
		l.errorf(b.LabelRanges[0], "Unknown dialect", "There is no dialect %q; dialects are %s.", name, strings.Join(l.opts.Dialects, ", "))
		return
	}
	if prev := l.s.Dialect[name]; prev != nil {
		l.errorf(b.DefRange, "Duplicate dialect block", "The dialect %q is already configured at %s.", name, prev.Range)
		return
	}
	attrs, diags := b.Body.JustAttributes()
	l.diags = append(l.diags, diags...)
	l.s.Dialect[name] = &compiler.DialectSettings{Name: name, Attrs: attrs, Range: b.DefRange}
}

func (l *loader) extension(b *hcl.Block) {
	name := b.Labels[0]
	attrs, diags := b.Body.JustAttributes()
	l.diags = append(l.diags, diags...)
	for _, a := range attrs {
		l.errorf(a.NameRange, "Unsupported argument", "An extension block takes no arguments: extension %q {}.", name)
	}
	if strings.TrimSpace(name) == "" {
		l.errorf(b.LabelRanges[0], "Invalid extension name", "An extension needs a name, such as extension \"vector\" {}.")
		return
	}
	for _, e := range l.s.Extensions {
		if e.Name == name {
			l.errorf(b.LabelRanges[0], "Duplicate extension", "The extension %q is already declared at %s.", name, e.Range)
			return
		}
	}
	l.s.Extensions = append(l.s.Extensions, &compiler.Extension{Name: name, Range: b.LabelRanges[0]})
}

var exportSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "path", Required: true}}}

// export reads an export block; its path is relative to the file that
// declares it, so that generate writes the same file from any directory.
func (l *loader) export(b *hcl.Block) {
	content, diags := b.Body.Content(exportSchema)
	l.diags = append(l.diags, diags...)
	format := b.Labels[0]
	if !slices.Contains(compiler.ExportFormats, format) {
		l.errorf(b.LabelRanges[0], "Unknown export format", "There is no export format %q; formats are %s.", format, strings.Join(compiler.ExportFormats, ", "))
		return
	}
	a := content.Attributes["path"]
	if a == nil {
		return
	}
	path := l.str(a)
	if strings.TrimSpace(path) == "" {
		l.errorf(a.Expr.Range(), "Invalid export path", "The path of an export is a file, such as path = \"web/src/schema.ts\".")
		return
	}
	file := path
	if !filepath.IsAbs(path) {
		file = filepath.Join(filepath.Dir(b.DefRange.Filename), path)
	}
	for _, e := range l.s.Exports {
		if filepath.Clean(e.File) == filepath.Clean(file) {
			l.errorf(a.Expr.Range(), "Duplicate export", "The file %s is already the %s export declared at %s.", path, e.Format, e.Range)
			return
		}
	}
	l.s.Exports = append(l.s.Exports, &compiler.Export{Format: format, Path: path, File: file, Range: b.DefRange})
}

func (l *loader) raw(b *hcl.Block) {
	attrs, diags := b.Body.JustAttributes()
	l.diags = append(l.diags, diags...)
	r := &compiler.Raw{Name: b.Labels[0], SQL: map[string]string{}, After: true, Range: b.LabelRanges[0]}
	for name, a := range attrs {
		if name == "position" {
			switch v := l.str(a); v {
			case "before_tables":
				r.After = false
			case "after_tables":
			default:
				l.errorf(a.Expr.Range(), "Invalid raw position", "position is \"before_tables\" or \"after_tables\" (the default).")
			}
			continue
		}
		if !slices.Contains(l.opts.Dialects, name) {
			l.errorf(a.NameRange, "Unsupported argument", "A raw block takes one SQL statement per dialect (%s) and position.", strings.Join(l.opts.Dialects, ", "))
			continue
		}
		r.SQL[name] = l.str(a)
	}
	if len(r.SQL) == 0 {
		l.errorf(b.DefRange, "Empty raw block", "A raw block needs SQL for at least one dialect (%s).", strings.Join(l.opts.Dialects, ", "))
	}
	l.s.Raw = append(l.s.Raw, r)
}

var tableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "comment"}, {Name: "renamed_from"}, {Name: "shard_row_id_bits"}, {Name: "pre_split_regions"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "column", LabelNames: []string{"name"}},
		{Type: "primary_key"},
		{Type: "unique", LabelNames: []string{"name"}},
		{Type: "foreign_key", LabelNames: []string{"name"}},
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "index", LabelNames: []string{"name"}},
		{Type: "ttl"},
		{Type: "partition"},
	},
}

func (l *loader) withOverrides(s *hcl.BodySchema) *hcl.BodySchema {
	c := *s
	c.Blocks = append(slices.Clip(c.Blocks), l.overrideBlocks()...)
	return &c
}

func (l *loader) table(b *hcl.Block) {
	content, diags := b.Body.Content(l.withOverrides(tableSchema))
	l.diags = append(l.diags, diags...)
	t := &compiler.Table{Name: b.Labels[0], Range: b.LabelRanges[0], Overrides: compiler.Overrides{}}
	if a := content.Attributes["comment"]; a != nil {
		t.Comment = l.str(a)
	}
	if a := content.Attributes["renamed_from"]; a != nil {
		t.RenamedFrom = l.renamedFrom(a)
	}
	t.ShardRowIDBits = l.smallWhole(content.Attributes["shard_row_id_bits"], &t.LayoutRange)
	t.PreSplitRegions = l.smallWhole(content.Attributes["pre_split_regions"], &t.LayoutRange)
	// Columns first: constraints may come before the columns they name.
	var generated []*hcl.Attribute
	for _, blk := range content.Blocks {
		if blk.Type == "column" {
			generated = append(generated, l.column(t, blk))
		}
	}
	// Generated expressions may name columns declared after them.
	for i, a := range generated {
		if a != nil {
			g := t.Columns[i].Generated
			g.Expr, g.Source = l.expression(t, a)
		}
	}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "column":
		case "primary_key":
			if t.PrimaryKey != nil {
				l.errorf(blk.DefRange, "Duplicate primary key", "Table %q already has a primary key at %s.", t.Name, t.PrimaryKey.Range)
				continue
			}
			t.PrimaryKey = &compiler.PrimaryKey{Range: blk.DefRange}
			attrs := l.attrs(blk, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "columns", Required: true}, {Name: "clustered"}, {Name: "name"}}})
			if a := attrs["columns"]; a != nil {
				t.PrimaryKey.Columns, t.PrimaryKey.ColumnRanges = l.strList(a), itemRanges(a)
				t.PrimaryKey.Range = a.Expr.Range()
			}
			if a := attrs["clustered"]; a != nil {
				v := l.boolean(a)
				t.PrimaryKey.Clustered, t.PrimaryKey.ClusteredRange = &v, a.Expr.Range()
			}
			if a := attrs["name"]; a != nil {
				if t.PrimaryKey.Name = l.str(a); t.PrimaryKey.Name == "" {
					l.errorf(a.Expr.Range(), "Empty name", "A primary key's name cannot be empty; leave name out for the database's default.")
				}
			}
		case "unique":
			u := &compiler.Unique{Name: blk.Labels[0], Range: blk.LabelRanges[0], Overrides: compiler.Overrides{}}
			content, diags := blk.Body.Content(l.withOverrides(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "columns", Required: true}}}))
			l.diags = append(l.diags, diags...)
			for _, o := range content.Blocks {
				l.override(u.Overrides, o, []hcl.AttributeSchema{{Name: "name"}})
			}
			if a := content.Attributes["columns"]; a != nil {
				u.Columns, u.ColumnRanges = l.strList(a), itemRanges(a)
			}
			t.Uniques = append(t.Uniques, u)
		case "foreign_key":
			l.foreignKey(t, blk)
		case "check":
			l.check(t, blk)
		case "index":
			l.index(t, blk)
		case "ttl":
			l.ttl(t, blk)
		case "partition":
			l.partition(t, blk)
		default:
			l.override(t.Overrides, blk, nil)
		}
	}
	l.s.Tables = append(l.s.Tables, t)
}

func (l *loader) attrs(b *hcl.Block, s *hcl.BodySchema) hcl.Attributes {
	content, diags := b.Body.Content(s)
	l.diags = append(l.diags, diags...)
	return content.Attributes
}

var columnSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "type", Required: true}, {Name: "null"}, {Name: "default"}, {Name: "comment"}, {Name: "renamed_from"},
	{Name: "as"}, {Name: "stored"}, {Name: "on_update"},
}, Blocks: []hcl.BlockHeaderSchema{{Type: "identity"}}}

// renamedFrom reads a former name.
func (l *loader) renamedFrom(a *hcl.Attribute) string {
	v := l.str(a)
	if v == "" && !l.diags.HasErrors() {
		l.errorf(a.Expr.Range(), "Empty name", "renamed_from is the object's former name; it cannot be empty.")
	}
	return v
}

// identity reads an `identity { start = N }` block.
func (l *loader) identity(c *compiler.Column, b *hcl.Block) {
	if c.Identity != nil {
		l.errorf(b.DefRange, "Duplicate identity", "Column %q already has an identity block at %s.", c.Name, c.Identity.Range)
		return
	}
	id := &compiler.Identity{Start: 1, Cache: 1, Range: b.DefRange}
	attrs := l.attrs(b, &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "start"}, {Name: "ordered"}, {Name: "shard_bits"}, {Name: "range"}, {Name: "cache"}}})
	whole := func(name string, least int64, detail string) (int64, bool) {
		a := attrs[name]
		if a == nil {
			return 0, false
		}
		v, ok := l.value(a, cty.Number, "a whole number")
		if !ok {
			return 0, false
		}
		n, acc := v.AsBigFloat().Int64()
		if !v.AsBigFloat().IsInt() || acc != 0 || n < least {
			l.errorf(a.Expr.Range(), "Invalid identity "+name, "%s", detail)
			return 0, false
		}
		return n, true
	}
	if n, ok := whole("start", 1, "start is the first number the identity gives, a whole number of at least 1."); ok {
		id.Start = n
	}
	if n, ok := whole("cache", 1, "cache is how many ids one TiDB server takes at a time (AUTO_ID_CACHE), a whole number of at least 1."); ok {
		id.Cache = n
	}
	if a := attrs["ordered"]; a != nil {
		id.Unordered = !l.boolean(a)
	}
	id.ShardBits, id.RangeBits = compiler.DefaultShardBits, compiler.DefaultRangeBits
	for _, name := range []string{"shard_bits", "range"} {
		a := attrs[name]
		if a == nil {
			continue
		}
		if !id.Unordered {
			l.errorf(a.NameRange, "Invalid identity", "%s applies to an identity with ordered = false (TiDB AUTO_RANDOM); write ordered = false or leave %s out.", name, name)
			continue
		}
		switch name {
		case "shard_bits":
			if n, ok := whole(name, 1, "shard_bits is how many high bits of an id scatter it, a whole number from 1 to 15."); ok {
				id.ShardBits = int(min(n, 1<<20))
			}
		case "range":
			if n, ok := whole(name, 32, "range is how many bits an id has, a whole number from 32 to 64."); ok {
				id.RangeBits = int(min(n, 1<<20))
			}
		}
	}
	if id.Unordered {
		for _, name := range []string{"start", "cache"} {
			if a := attrs[name]; a != nil {
				l.errorf(a.NameRange, "Invalid identity", "An identity with ordered = false (TiDB AUTO_RANDOM) takes no %s: its ids are scattered, not counted from a start in batches.", name)
			}
		}
		id.Start, id.Cache = 1, 1
	}
	c.Identity = id
}

// column loads a column block; it returns the `as` attribute of a generated
// column, whose expression the table parses once all columns are known.
func (l *loader) column(t *compiler.Table, b *hcl.Block) *hcl.Attribute {
	content, diags := b.Body.Content(l.withOverrides(columnSchema))
	l.diags = append(l.diags, diags...)
	c := &compiler.Column{Name: b.Labels[0], Range: b.LabelRanges[0], Overrides: compiler.Overrides{}}
	if a := content.Attributes["type"]; a != nil {
		typ, d := compiler.DecodeType(a.Expr)
		l.diags = append(l.diags, d...)
		l.resolveEnum(&typ, a.Expr.Range())
		c.Type, c.TypeRange = typ, a.Expr.Range()
	}
	if a := content.Attributes["null"]; a != nil {
		c.Null = l.boolean(a)
	}
	if a := content.Attributes["comment"]; a != nil {
		c.Comment = l.str(a)
	}
	if a := content.Attributes["default"]; a != nil {
		c.Default = l.defaultValue(a)
	}
	if a := content.Attributes["renamed_from"]; a != nil {
		c.RenamedFrom = l.renamedFrom(a)
	}
	for _, blk := range content.Blocks {
		if blk.Type == "identity" {
			l.identity(c, blk)
			continue
		}
		l.override(c.Overrides, blk, []hcl.AttributeSchema{{Name: "type"}, {Name: "default"}, {Name: "null"}, {Name: "accept"}})
	}
	as := content.Attributes["as"]
	if as != nil {
		c.Generated = &compiler.Generated{Stored: true, Range: as.Expr.Range()}
	}
	enumFirst := c.Type.Kind == compiler.TypeEnum && !c.Null && c.Default == nil && as == nil
	l.checkAccept("Column", c.Name, c.Overrides, map[string]bool{compiler.AcceptCharMatch: as != nil, compiler.AcceptStringOrder: as != nil, compiler.AcceptEnumFirstValue: enumFirst},
		map[string]string{compiler.AcceptCharMatch: "as (generated expression)", compiler.AcceptStringOrder: "as (generated expression)", compiler.AcceptEnumFirstValue: "NOT NULL enum type without a default"})
	if a := content.Attributes["stored"]; a != nil {
		if as == nil {
			l.errorf(a.NameRange, "Invalid column", "stored applies to a generated column; give it as = \"...\" or leave stored out.")
		} else {
			c.Generated.Stored = l.boolean(a)
		}
	}
	if a := content.Attributes["on_update"]; a != nil {
		call, d := hcl.ExprCall(a.Expr)
		if d.HasErrors() || call.Name != "now" || len(call.Arguments) != 0 {
			l.errorf(a.Expr.Range(), "Invalid on_update", "on_update takes now(): the column is set to the current time by every UPDATE that changes the row without setting it.")
		} else {
			c.OnUpdate, c.OnUpdateRange = true, a.Expr.Range()
		}
	}
	t.Columns = append(t.Columns, c)
	return as
}

func (l *loader) defaultValue(a *hcl.Attribute) *compiler.Default {
	d := &compiler.Default{Range: a.Expr.Range()}
	if call, diags := hcl.ExprCall(a.Expr); !diags.HasErrors() {
		switch {
		case call.Name == "now" && len(call.Arguments) == 0:
			d.Kind = compiler.DefaultNow
		case call.Name == "uuid" && len(call.Arguments) == 0:
			d.Kind = compiler.DefaultUUID
		default:
			l.errorf(a.Expr.Range(), "Invalid default", "The functions a portable default may call are now() and uuid(); for other SQL use a per-dialect override such as postgres { default = \"...\" }.")
			return nil
		}
		return d
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		l.errorf(a.Expr.Range(), "Invalid default", "A portable default is a string, a number, true, false, now() or uuid().")
		return nil
	}
	switch {
	case v.IsNull():
		l.errorf(a.Expr.Range(), "Invalid default", "A column without a default has no default attribute; NULL is not a default.")
		return nil
	case v.Type() == cty.String:
		d.Kind, d.Value = compiler.DefaultString, v.AsString()
	case v.Type() == cty.Number:
		d.Kind, d.Value = compiler.DefaultNumber, v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		d.Kind, d.Value = compiler.DefaultBool, fmt.Sprint(v.True())
	default:
		l.errorf(a.Expr.Range(), "Invalid default", "A portable default is a string, a number, true, false, now() or uuid().")
		return nil
	}
	return d
}

var foreignKeySchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "columns", Required: true}, {Name: "ref_table", Required: true}, {Name: "ref_columns", Required: true},
	{Name: "on_delete"}, {Name: "on_update"}, {Name: "deferrable"}, {Name: "initially_deferred"},
}}

func (l *loader) foreignKey(t *compiler.Table, b *hcl.Block) {
	content, diags := b.Body.Content(l.withOverrides(foreignKeySchema))
	l.diags = append(l.diags, diags...)
	attrs := content.Attributes
	fk := &compiler.ForeignKey{Name: b.Labels[0], Range: b.LabelRanges[0], Overrides: compiler.Overrides{}}
	for _, blk := range content.Blocks {
		l.override(fk.Overrides, blk, []hcl.AttributeSchema{{Name: "name"}, {Name: "accept"}})
	}
	if a := attrs["columns"]; a != nil {
		fk.Columns, fk.ColumnRanges = l.strList(a), itemRanges(a)
	}
	if a := attrs["ref_table"]; a != nil {
		fk.RefTable, fk.RefRange = l.str(a), a.Expr.Range()
	}
	if a := attrs["ref_columns"]; a != nil {
		fk.RefColumns, fk.RefColumnRanges = l.strList(a), itemRanges(a)
	}
	fk.OnDelete = l.action(attrs["on_delete"])
	fk.OnUpdate = l.action(attrs["on_update"])
	if a := attrs["deferrable"]; a != nil {
		fk.Deferrable = l.boolean(a)
	}
	if a := attrs["initially_deferred"]; a != nil {
		fk.InitiallyDeferred = l.boolean(a)
		if fk.InitiallyDeferred && !fk.Deferrable {
			l.errorf(a.Expr.Range(), "Invalid foreign key", "initially_deferred needs deferrable = true.")
		}
	}
	l.checkAccept("Foreign key", fk.Name, fk.Overrides, map[string]bool{compiler.AcceptDeferrable: fk.Deferrable}, map[string]string{compiler.AcceptDeferrable: "deferrable = true"})
	t.ForeignKeys = append(t.ForeignKeys, fk)
}

var actions = []compiler.Action{compiler.Cascade, compiler.Restrict, compiler.SetNull, compiler.SetDefault, "no_action"}

func (l *loader) action(a *hcl.Attribute) compiler.Action {
	if a == nil {
		return compiler.NoAction
	}
	v := compiler.Action(l.str(a))
	if !slices.Contains(actions, v) {
		l.errorf(a.Expr.Range(), "Invalid referential action", "%q is not an action; use one of cascade, restrict, set_null, set_default, no_action.", v)
		return compiler.NoAction
	}
	if v == "no_action" {
		return compiler.NoAction
	}
	return v
}

func (l *loader) check(t *compiler.Table, b *hcl.Block) {
	content, diags := b.Body.Content(l.withOverrides(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "expr"}}}))
	l.diags = append(l.diags, diags...)
	c := &compiler.Check{Name: b.Labels[0], Range: b.LabelRanges[0], Overrides: compiler.Overrides{}}
	a := content.Attributes["expr"]
	if a != nil {
		c.Expr, c.Source = l.expression(t, a)
		c.ExprRange = a.Expr.Range()
	}
	for _, blk := range content.Blocks {
		l.override(c.Overrides, blk, []hcl.AttributeSchema{{Name: "expr"}, {Name: "name"}, {Name: "accept"}})
	}
	// Whether the expression holds what is acknowledged depends on the
	// columns' types, known to the dialect that warns.
	l.checkAccept("Check", c.Name, c.Overrides, map[string]bool{compiler.AcceptCharMatch: true, compiler.AcceptStringOrder: true}, nil)
	if a == nil && !rawEverywhere(l.opts.Dialects, c.Overrides, func(o *compiler.Override) bool { return o.Expr != "" }) {
		// A CHECK without a portable form: every dialect gives raw SQL or
		// leaves it out.
		l.errorf(b.DefRange, "Missing expression", "Check %q needs expr, or for each dialect a raw expr or skip = true.", c.Name)
	}
	t.Checks = append(t.Checks, c)
}

var indexSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "columns"}, {Name: "unique"}, {Name: "where"}, {Name: "using"}, {Name: "comment"},
		{Name: "include"}, {Name: "nulls_distinct"}, {Name: "storage"}, {Name: "visible"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "on"}},
}

var indexPartSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "column"}, {Name: "expr"}, {Name: "desc"}, {Name: "opclass"},
}}

func (l *loader) index(t *compiler.Table, b *hcl.Block) {
	content, diags := b.Body.Content(l.withOverrides(indexSchema))
	l.diags = append(l.diags, diags...)
	idx := &compiler.Index{Name: b.Labels[0], Range: b.LabelRanges[0], Overrides: compiler.Overrides{}}
	if a := content.Attributes["unique"]; a != nil {
		idx.Unique = l.boolean(a)
	}
	if a := content.Attributes["comment"]; a != nil {
		idx.Comment = l.str(a)
	}
	if a := content.Attributes["using"]; a != nil {
		if m := l.str(a); m != "" {
			idx.Attrs = append(idx.Attrs, &compiler.IndexMethod{Name: m})
		}
	}
	if a := content.Attributes["columns"]; a != nil {
		ranges := itemRanges(a)
		for i, name := range l.strList(a) {
			idx.Parts = append(idx.Parts, &compiler.IndexPart{Column: name, Range: ranges[i]})
		}
	}
	if a := content.Attributes["where"]; a != nil {
		idx.Where, idx.WhereSrc = l.expression(t, a)
		idx.WhereRange = a.Expr.Range()
	}
	l.indexOptions(idx, content.Attributes)
	for _, blk := range content.Blocks {
		if blk.Type != "on" {
			l.override(idx.Overrides, blk, []hcl.AttributeSchema{{Name: "sql"}, {Name: "name"}, {Name: "accept"}})
			continue
		}
		if content.Attributes["columns"] != nil {
			l.errorf(blk.DefRange, "Conflicting index parts", "An index lists its parts either in columns or in on blocks, not both.")
			continue
		}
		pc, diags := blk.Body.Content(l.withOverrides(indexPartSchema))
		l.diags = append(l.diags, diags...)
		attrs := pc.Attributes
		part := &compiler.IndexPart{Range: blk.DefRange, Overrides: compiler.Overrides{}}
		for _, o := range pc.Blocks {
			l.override(part.Overrides, o, []hcl.AttributeSchema{{Name: "column"}})
		}
		col, ex := attrs["column"], attrs["expr"]
		switch {
		case (col == nil) == (ex == nil):
			l.errorf(blk.DefRange, "Invalid index part", "An on block names either a column or an expr.")
			continue
		case col != nil:
			part.Column, part.Range = l.str(col), col.Expr.Range()
		default:
			part.Expr, _ = l.expression(t, ex)
			part.Range = ex.Expr.Range()
		}
		if a := attrs["desc"]; a != nil {
			part.Desc = l.boolean(a)
		}
		if a := attrs["opclass"]; a != nil {
			if c := l.str(a); c != "" {
				part.Attrs = append(part.Attrs, &compiler.OpClass{Name: c})
			}
		}
		idx.Parts = append(idx.Parts, part)
	}
	opclass := false
	for _, p := range idx.Parts {
		opclass = opclass || p.OpClass() != ""
	}
	l.checkAccept("Index", idx.Name, idx.Overrides,
		map[string]bool{compiler.AcceptPartialIndex: idx.Where != nil, compiler.AcceptIndexMethod: idx.Method() != "", compiler.AcceptOpClass: opclass,
			compiler.AcceptCharMatch: true, compiler.AcceptStringOrder: true},
		map[string]string{compiler.AcceptPartialIndex: "where", compiler.AcceptIndexMethod: "using", compiler.AcceptOpClass: "operator class"})
	if len(idx.Parts) == 0 && !l.diags.HasErrors() && !rawEverywhere(l.opts.Dialects, idx.Overrides, func(o *compiler.Override) bool { return o.SQL != "" }) {
		l.errorf(b.DefRange, "Index without parts", "Index %q needs columns = [...] or at least one on { ... } block (or, for each dialect, a raw sql or skip = true).", idx.Name)
	}
	t.Indexes = append(t.Indexes, idx)
}

// override decodes a `DIALECT { ... }` block; attrs are what this kind of
// object may override besides skip.
func (l *loader) override(into compiler.Overrides, b *hcl.Block, attrs []hcl.AttributeSchema) {
	s := &hcl.BodySchema{Attributes: append([]hcl.AttributeSchema{{Name: "skip"}}, attrs...)}
	content, diags := b.Body.Content(s)
	l.diags = append(l.diags, diags...)
	if prev := into[b.Type]; prev != nil {
		l.errorf(b.DefRange, "Duplicate override", "There is already a %s override at %s.", b.Type, prev.Range)
		return
	}
	o := &compiler.Override{Dialect: b.Type, Range: b.DefRange}
	for name, a := range content.Attributes {
		switch name {
		case "skip":
			o.Skip = l.boolean(a)
		case "type":
			if v, d := a.Expr.Value(nil); !d.HasErrors() && v.Type() == cty.String {
				o.RawType = v.AsString()
			} else {
				typ, d := compiler.DecodeType(a.Expr)
				l.diags = append(l.diags, d...)
				if typ.Kind == compiler.TypeEnum {
					l.errorf(a.Expr.Range(), "Invalid override type", "An override cannot make a column an enum: give the column type = %s for every dialect, or a raw type here.", typ)
				}
				o.Type = &typ
			}
		case "default":
			o.Default = l.str(a)
		case "null":
			null := l.boolean(a)
			o.Null = &null
		case "expr":
			o.Expr = l.str(a)
		case "sql":
			o.SQL = l.str(a)
		case "accept":
			o.Accept = l.accept(a)
		case "column":
			if o.Column = l.str(a); o.Column == "" {
				l.errorf(a.Expr.Range(), "Empty name", "A generated column's name cannot be empty.")
			}
		case "name":
			if o.Name = l.str(a); o.Name == "" {
				l.errorf(a.Expr.Range(), "Empty name", "A per-dialect name cannot be empty.")
			}
		}
	}
	if len(content.Attributes) == 0 {
		l.errorf(b.DefRange, "Empty override", "A %s block needs skip = true or one of the attributes it can override.", b.Type)
	}
	if o.Skip && len(content.Attributes) > 1 {
		l.errorf(b.DefRange, "Conflicting override", "An override with skip = true takes no other attributes.")
	}
	into[b.Type] = o
}

// accept decodes the lowerings an override acknowledges.
func (l *loader) accept(a *hcl.Attribute) []string {
	v, ok := l.value(a, cty.DynamicPseudoType, "a list of lowerings")
	if !ok {
		return nil
	}
	if !v.Type().IsTupleType() && !v.Type().IsListType() || v.LengthInt() == 0 {
		l.errorf(a.Expr.Range(), "Invalid value", "accept is a non-empty list of lowerings to acknowledge: %s.", quotedList(compiler.Acceptable))
		return nil
	}
	ranges := itemRanges(a)
	var out []string
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		_, e := it.Element()
		if e.IsNull() || e.Type() != cty.String {
			l.errorf(a.Expr.Range(), "Invalid value", "accept is a list of strings: %s.", quotedList(compiler.Acceptable))
			return nil
		}
		s := e.AsString()
		if !slices.Contains(compiler.Acceptable, s) {
			l.errorf(ranges[i], "Unknown lowering", "%q is not a lowering to accept.%s Known lowerings: %s.", s, compiler.Suggest(s, compiler.Acceptable), quotedList(compiler.Acceptable))
			continue
		}
		out = append(out, s)
	}
	return out
}

// checkAccept refuses to acknowledge a lowering of something the object does
// not have, which would hide a warning the model may get later. has tells
// what the object has; what names it in the message.
func (l *loader) checkAccept(kind, name string, o compiler.Overrides, has map[string]bool, what map[string]string) {
	for _, d := range overrideDialects(o) {
		for _, a := range o[d].Accept {
			if _, applies := has[a]; !applies {
				l.errorf(o[d].Range, "Nothing to accept", "%s %q cannot accept %q; %s accepts %s.", kind, name, a, article(strings.ToLower(kind)), quotedList(slices.Sorted(maps.Keys(has))))
				continue
			}
			if !has[a] {
				l.errorf(o[d].Range, "Nothing to accept", "%s %q accepts %q in %s, but it has no %s.", kind, name, a, d, what[a])
			}
		}
	}
}

func article(noun string) string {
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

func overrideDialects(o compiler.Overrides) []string {
	var names []string
	for n := range o {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// expression parses a portable expression attribute and checks it against the
// table's columns, reporting errors at their exact place in the file.
func (l *loader) expression(t *compiler.Table, a *hcl.Attribute) (expr.Node, string) {
	src := l.str(a)
	if l.diags.HasErrors() && src == "" {
		return nil, ""
	}
	ss := newStringSource(l.fileBytes(a.Expr.Range().Filename), a.Expr, src)
	n, err := expr.Parse(src)
	if err != nil {
		var pe *expr.Error
		if errors.As(err, &pe) {
			l.errorf(ss.Range(pe.Offset, pe.End), "Invalid expression", "%s.", upperFirst(pe.Msg))
		}
		return nil, src
	}
	n, errs := expr.Analyze(n, func(name string) (expr.Kind, bool) {
		c := t.Column(name)
		if c == nil {
			return expr.KindUnknown, false
		}
		return c.Type.ExprKind(), true
	})
	for _, e := range errs {
		msg := upperFirst(e.Msg) + "."
		end := e.End
		var name string
		if _, err := fmt.Sscanf(e.Msg, "unknown column %q", &name); err == nil {
			msg = fmt.Sprintf("Unknown column %q in table %q.", name, t.Name)
			if strings.HasPrefix(src[e.Offset:], name) {
				end = e.Offset + len(name)
			}
			var cols []string
			for _, c := range t.Columns {
				cols = append(cols, c.Name)
			}
			msg += compiler.Suggest(name, cols)
		}
		l.errorf(ss.Range(e.Offset, end), "Invalid expression", "%s", msg)
	}
	for _, lit := range enumLabels(t, n) {
		if e, v := lit.enum, lit.lit.Value; !slices.Contains(e.Values, v) {
			l.errorf(ss.Range(lit.lit.Offset(), lit.lit.Offset()+1), "Invalid expression", "'%s' is not a value of enum %s (%s): PostgreSQL refuses the expression, TiDB would compare it as text and never match.", v, e.Name, e.List())
		}
	}
	return n, src
}

type enumLabel struct {
	lit  *expr.Literal
	enum *compiler.Enum
}

// enumLabels returns the string literals that n compares with enum columns
// of t (=, <>, IN, IS DISTINCT FROM), with their enums.
func enumLabels(t *compiler.Table, n expr.Node) []enumLabel {
	var out []enumLabel
	enumOf := func(x expr.Node) *compiler.Enum {
		x = expr.Unparen(x)
		col, ok := x.(*expr.Column)
		if !ok {
			return nil
		}
		if c := t.Column(col.Name); c != nil && c.Type.Kind == compiler.TypeEnum && c.Type.Enum != nil && c.Type.Enum.Values != nil {
			return c.Type.Enum
		}
		return nil
	}
	add := func(e *compiler.Enum, x expr.Node) {
		x = expr.Unparen(x)
		if lit, ok := x.(*expr.Literal); ok && lit.Kind == expr.LitString && e != nil {
			out = append(out, enumLabel{lit, e})
		}
	}
	expr.Walk(n, func(x expr.Node) bool {
		switch x := x.(type) {
		case *expr.Binary:
			add(enumOf(x.L), x.R)
			add(enumOf(x.R), x.L)
		case *expr.In:
			for _, v := range x.List {
				add(enumOf(x.X), v)
			}
		case *expr.Between:
			add(enumOf(x.X), x.Lo)
			add(enumOf(x.X), x.Hi)
		}
		return true
	})
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (l *loader) fileBytes(name string) []byte {
	if f := l.s.Files[name]; f != nil {
		return f.Bytes
	}
	return nil
}

func (l *loader) value(a *hcl.Attribute, want cty.Type, what string) (cty.Value, bool) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		for _, d := range diags {
			if d.Subject == nil {
				d.Subject = a.Expr.Range().Ptr()
			}
		}
		l.diags = append(l.diags, diags...)
		return cty.NilVal, false
	}
	if v.IsNull() || !v.IsKnown() {
		l.errorf(a.Expr.Range(), "Invalid value", "%s must be %s.", a.Name, what)
		return cty.NilVal, false
	}
	if want != cty.DynamicPseudoType && !v.Type().Equals(want) {
		l.errorf(a.Expr.Range(), "Invalid value", "%s must be %s.", a.Name, what)
		return cty.NilVal, false
	}
	return v, true
}

func (l *loader) str(a *hcl.Attribute) string {
	v, ok := l.value(a, cty.String, "a string")
	if !ok {
		return ""
	}
	return v.AsString()
}

// smallWhole reads a whole number from 0 to 15 (a TiDB layout option),
// setting rng to where it is written; 0 when a is nil.
func (l *loader) smallWhole(a *hcl.Attribute, rng *hcl.Range) int {
	if a == nil {
		return 0
	}
	*rng = a.NameRange
	v, ok := l.value(a, cty.Number, "a whole number")
	if !ok {
		return 0
	}
	n, acc := v.AsBigFloat().Int64()
	if !v.AsBigFloat().IsInt() || acc != 0 || n < 0 || n > 15 {
		l.errorf(a.Expr.Range(), "Invalid "+a.Name, "%s is a whole number from 0 to 15 (TiDB silently stores 15 for more).", a.Name)
		return 0
	}
	return int(n)
}

func (l *loader) boolean(a *hcl.Attribute) bool {
	v, ok := l.value(a, cty.Bool, "true or false")
	return ok && v.True()
}

func (l *loader) strList(a *hcl.Attribute) []string {
	v, ok := l.value(a, cty.DynamicPseudoType, "a list of strings")
	if !ok {
		return nil
	}
	if !v.Type().IsTupleType() && !v.Type().IsListType() || v.LengthInt() == 0 {
		l.errorf(a.Expr.Range(), "Invalid value", "%s must be a non-empty list of column names, such as [\"id\"].", a.Name)
		return nil
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() || e.Type() != cty.String {
			l.errorf(a.Expr.Range(), "Invalid value", "%s must be a list of column names (strings).", a.Name)
			return nil
		}
		out = append(out, e.AsString())
	}
	return out
}

// itemRanges returns the range of each element of a list attribute, or the
// attribute's range for each when the list is not a literal.
func itemRanges(a *hcl.Attribute) []hcl.Range {
	items, diags := hcl.ExprList(a.Expr)
	v, _ := a.Expr.Value(nil)
	n := len(items)
	if !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
		n = max(n, v.LengthInt())
	}
	out := make([]hcl.Range, n)
	for i := range out {
		out[i] = a.Expr.Range()
		if i < len(items) && !diags.HasErrors() {
			out[i] = items[i].Range()
		}
	}
	return out
}

// rawEverywhere reports whether every dialect has an override that gives raw
// SQL (has) or leaves the object out.
func rawEverywhere(dialects []string, o compiler.Overrides, has func(*compiler.Override) bool) bool {
	for _, d := range dialects {
		if ov := o.For(d); ov == nil || !ov.Skip && !has(ov) {
			return false
		}
	}
	return true
}
