package compiler

import (
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/schemagen/schemagen/compiler/expr/render"
)

// Write renders a model as canonical schema HCL, as `schemagen fmt` formats
// it. Loading the result gives the same model. Comments of tables and columns
// go into the file as comments; notes are written above the tables they name,
// and those of no table ("") at the top.
func Write(s *Schema, notes map[string][]string) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, n := range notes[""] {
		body.AppendUnstructuredTokens(comment(n))
	}
	if len(notes[""]) > 0 {
		body.AppendNewline()
	}
	for _, name := range sortedDialects(s.Dialect) {
		ds := s.Dialect[name]
		blk := body.AppendNewBlock("dialect", []string{name})
		for _, a := range sortedAttrs(ds.Attrs) {
			if v, d := a.Expr.Value(nil); !d.HasErrors() {
				blk.Body().SetAttributeValue(a.Name, v)
			}
		}
		body.AppendNewline()
	}
	for _, e := range s.Extensions {
		body.AppendNewBlock("extension", []string{e.Name})
	}
	for i, e := range s.Enums {
		if i > 0 || len(s.Dialect) > 0 || len(s.Extensions) > 0 {
			body.AppendNewline()
		}
		body.AppendNewBlock("enum", []string{e.Name}).Body().SetAttributeValue("values", strList(e.Values))
	}
	for _, r := range s.Raw {
		if r.After {
			continue
		}
		writeRaw(body, r)
	}
	for i, t := range s.Tables {
		if i > 0 || len(s.Dialect) > 0 || len(s.Extensions) > 0 || len(s.Enums) > 0 {
			body.AppendNewline()
		}
		for _, n := range notes[t.Name] {
			body.AppendUnstructuredTokens(comment(n))
		}
		writeTable(body, t)
	}
	for _, r := range s.Raw {
		if r.After {
			body.AppendNewline()
			writeRaw(body, r)
		}
	}
	for _, e := range s.Exports {
		body.AppendNewline()
		body.AppendNewBlock("export", []string{e.Format}).Body().SetAttributeValue("path", cty.StringVal(e.Path))
	}
	return hclwrite.Format(f.Bytes())
}

func comment(text string) hclwrite.Tokens {
	var toks hclwrite.Tokens
	for _, line := range strings.Split(text, "\n") {
		toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenComment, Bytes: []byte("# " + line + "\n")})
	}
	return toks
}

func sortedDialects(m map[string]*DialectSettings) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func sortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	var out []*hcl.Attribute
	for _, a := range attrs {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *hcl.Attribute) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func writeRaw(body *hclwrite.Body, r *Raw) {
	blk := body.AppendNewBlock("raw", []string{r.Name})
	if !r.After {
		blk.Body().SetAttributeValue("position", cty.StringVal("before_tables"))
	}
	var names []string
	for d := range r.SQL {
		names = append(names, d)
	}
	slices.Sort(names)
	for _, d := range names {
		blk.Body().SetAttributeValue(d, cty.StringVal(r.SQL[d]))
	}
}

func strList(names []string) cty.Value {
	vals := make([]cty.Value, len(names))
	for i, n := range names {
		vals[i] = cty.StringVal(n)
	}
	return cty.TupleVal(vals)
}

func writeTable(body *hclwrite.Body, t *Table) {
	tb := body.AppendNewBlock("table", []string{t.Name}).Body()
	if t.Comment != "" {
		tb.SetAttributeValue("comment", cty.StringVal(t.Comment))
	}
	if t.RenamedFrom != "" {
		tb.SetAttributeValue("renamed_from", cty.StringVal(t.RenamedFrom))
	}
	if t.ShardRowIDBits > 0 {
		tb.SetAttributeValue("shard_row_id_bits", cty.NumberIntVal(int64(t.ShardRowIDBits)))
	}
	if t.PreSplitRegions > 0 {
		tb.SetAttributeValue("pre_split_regions", cty.NumberIntVal(int64(t.PreSplitRegions)))
	}
	for _, c := range t.Columns {
		cb := tb.AppendNewBlock("column", []string{c.Name}).Body()
		cb.SetAttributeRaw("type", typeTokens(c.Type))
		if c.RenamedFrom != "" {
			cb.SetAttributeValue("renamed_from", cty.StringVal(c.RenamedFrom))
		}
		if c.Null {
			cb.SetAttributeValue("null", cty.True)
		}
		if d := c.Default; d != nil {
			switch d.Kind {
			case DefaultNow:
				cb.SetAttributeRaw("default", hclwrite.TokensForFunctionCall("now"))
			case DefaultUUID:
				cb.SetAttributeRaw("default", hclwrite.TokensForFunctionCall("uuid"))
			case DefaultString:
				cb.SetAttributeValue("default", cty.StringVal(d.Value))
			case DefaultBool:
				cb.SetAttributeValue("default", cty.BoolVal(d.Value == "true"))
			case DefaultNumber:
				n, _, err := big.ParseFloat(d.Value, 10, 512, big.ToNearestEven)
				if err == nil {
					cb.SetAttributeValue("default", cty.NumberVal(n))
				}
			}
		}
		if g := c.Generated; g != nil {
			src := g.Source
			if g.Expr != nil {
				src = render.String(g.Expr)
			}
			cb.SetAttributeValue("as", cty.StringVal(src))
			if !g.Stored {
				cb.SetAttributeValue("stored", cty.False)
			}
		}
		if c.OnUpdate {
			cb.SetAttributeRaw("on_update", hclwrite.TokensForFunctionCall("now"))
		}
		if c.Comment != "" {
			cb.SetAttributeValue("comment", cty.StringVal(c.Comment))
		}
		if id := c.Identity; id != nil {
			ib := cb.AppendNewBlock("identity", nil).Body()
			if id.Start != 1 {
				ib.SetAttributeValue("start", cty.NumberIntVal(id.Start))
			}
			if id.Cache > 1 {
				ib.SetAttributeValue("cache", cty.NumberIntVal(id.Cache))
			}
			if id.Unordered {
				ib.SetAttributeValue("ordered", cty.False)
				if id.ShardBits != DefaultShardBits {
					ib.SetAttributeValue("shard_bits", cty.NumberIntVal(int64(id.ShardBits)))
				}
				if id.RangeBits != DefaultRangeBits {
					ib.SetAttributeValue("range", cty.NumberIntVal(int64(id.RangeBits)))
				}
			}
		}
		writeOverrides(cb, c.Overrides)
	}
	if pk := t.PrimaryKey; pk != nil {
		pb := tb.AppendNewBlock("primary_key", nil).Body()
		pb.SetAttributeValue("columns", strList(pk.Columns))
		if pk.Clustered != nil {
			pb.SetAttributeValue("clustered", cty.BoolVal(*pk.Clustered))
		}
		if pk.Name != "" {
			pb.SetAttributeValue("name", cty.StringVal(pk.Name))
		}
	}
	if p := t.Partition; p != nil {
		writePartition(tb, p)
	}
	if x := t.TTL; x != nil {
		xb := tb.AppendNewBlock("ttl", nil).Body()
		xb.SetAttributeValue("column", cty.StringVal(x.Column))
		xb.SetAttributeValue("interval", cty.NumberIntVal(x.Interval))
		xb.SetAttributeValue("unit", cty.StringVal(strings.ToLower(x.Unit)))
		if x.Enabled != nil {
			xb.SetAttributeValue("enabled", cty.BoolVal(*x.Enabled))
		}
		if x.JobInterval != "" {
			xb.SetAttributeValue("job_interval", cty.StringVal(x.JobInterval))
		}
	}
	for _, u := range t.Uniques {
		ub := tb.AppendNewBlock("unique", []string{u.Name}).Body()
		ub.SetAttributeValue("columns", strList(u.Columns))
		writeOverrides(ub, u.Overrides)
	}
	for _, c := range t.Checks {
		cb := tb.AppendNewBlock("check", []string{c.Name}).Body()
		if c.Expr != nil {
			cb.SetAttributeValue("expr", cty.StringVal(render.String(c.Expr)))
		}
		writeOverrides(cb, c.Overrides)
	}
	for _, fk := range t.ForeignKeys {
		fb := tb.AppendNewBlock("foreign_key", []string{fk.Name}).Body()
		fb.SetAttributeValue("columns", strList(fk.Columns))
		fb.SetAttributeValue("ref_table", cty.StringVal(fk.RefTable))
		fb.SetAttributeValue("ref_columns", strList(fk.RefColumns))
		if fk.OnDelete != NoAction {
			fb.SetAttributeValue("on_delete", cty.StringVal(string(fk.OnDelete)))
		}
		if fk.OnUpdate != NoAction {
			fb.SetAttributeValue("on_update", cty.StringVal(string(fk.OnUpdate)))
		}
		if fk.Deferrable {
			fb.SetAttributeValue("deferrable", cty.True)
		}
		if fk.InitiallyDeferred {
			fb.SetAttributeValue("initially_deferred", cty.True)
		}
		writeOverrides(fb, fk.Overrides)
	}
	for _, idx := range t.Indexes {
		ib := tb.AppendNewBlock("index", []string{idx.Name}).Body()
		if idx.Unique {
			ib.SetAttributeValue("unique", cty.True)
		}
		if idx.Method() != "" {
			ib.SetAttributeValue("using", cty.StringVal(idx.Method()))
		}
		plain := true
		for _, p := range idx.Parts {
			plain = plain && p.Expr == nil && !p.Desc && p.OpClass() == "" && len(p.Overrides) == 0
		}
		if plain && len(idx.Parts) > 0 {
			var cols []string
			for _, p := range idx.Parts {
				cols = append(cols, p.Column)
			}
			ib.SetAttributeValue("columns", strList(cols))
		} else {
			for _, p := range idx.Parts {
				pb := ib.AppendNewBlock("on", nil).Body()
				if p.Expr != nil {
					pb.SetAttributeValue("expr", cty.StringVal(render.String(p.Expr)))
				} else {
					pb.SetAttributeValue("column", cty.StringVal(p.Column))
				}
				if p.Desc {
					pb.SetAttributeValue("desc", cty.True)
				}
				if p.OpClass() != "" {
					pb.SetAttributeValue("opclass", cty.StringVal(p.OpClass()))
				}
				writeOverrides(pb, p.Overrides)
			}
		}
		if idx.Where != nil {
			ib.SetAttributeValue("where", cty.StringVal(render.String(idx.Where)))
		}
		if idx.Comment != "" {
			ib.SetAttributeValue("comment", cty.StringVal(idx.Comment))
		}
		writeIndexOptions(ib, idx)
		writeOverrides(ib, idx.Overrides)
	}
	writeOverrides(tb, t.Overrides)
}

// writeIndexOptions writes an index's include, nulls_distinct, storage and
// visible.
func writeIndexOptions(ib *hclwrite.Body, idx *Index) {
	if len(idx.Include) > 0 {
		ib.SetAttributeValue("include", strList(idx.Include))
	}
	if idx.NullsNotDistinct {
		ib.SetAttributeValue("nulls_distinct", cty.False)
	}
	if len(idx.Storage) > 0 {
		m := map[string]cty.Value{}
		for _, p := range idx.Storage {
			switch p.Value {
			case "true", "false":
				m[p.Name] = cty.BoolVal(p.Value == "true")
			default:
				n, err := cty.ParseNumberVal(p.Value)
				if err != nil {
					continue
				}
				m[p.Name] = n
			}
		}
		ib.SetAttributeValue("storage", cty.ObjectVal(m))
	}
	if idx.Invisible {
		ib.SetAttributeValue("visible", cty.False)
	}
}

func typeTokens(t Type) hclwrite.Tokens {
	if t.Kind == TypeEnum && t.Enum != nil {
		return hclwrite.TokensForTraversal(hcl.Traversal{hcl.TraverseRoot{Name: "enum"}, hcl.TraverseAttr{Name: t.Enum.Name}})
	}
	if len(t.Args) == 0 {
		return hclwrite.TokensForIdentifier(t.Name())
	}
	args := make([]hclwrite.Tokens, len(t.Args))
	for i, a := range t.Args {
		args[i] = hclwrite.TokensForValue(cty.NumberIntVal(int64(a)))
	}
	return hclwrite.TokensForFunctionCall(t.Name(), args...)
}

func writeOverrides(body *hclwrite.Body, o Overrides) {
	var names []string
	for d := range o {
		names = append(names, d)
	}
	slices.Sort(names)
	for _, d := range names {
		ov := o[d]
		b := body.AppendNewBlock(d, nil).Body()
		if ov.Skip {
			b.SetAttributeValue("skip", cty.True)
			continue
		}
		switch {
		case ov.Type != nil:
			b.SetAttributeRaw("type", typeTokens(*ov.Type))
		case ov.RawType != "":
			b.SetAttributeValue("type", cty.StringVal(ov.RawType))
		}
		if ov.Default != "" {
			b.SetAttributeValue("default", cty.StringVal(ov.Default))
		}
		if ov.Null != nil {
			b.SetAttributeValue("null", cty.BoolVal(*ov.Null))
		}
		if ov.Expr != "" {
			b.SetAttributeValue("expr", cty.StringVal(ov.Expr))
		}
		if ov.SQL != "" {
			b.SetAttributeValue("sql", cty.StringVal(ov.SQL))
		}
		if len(ov.Accept) > 0 {
			b.SetAttributeValue("accept", strList(ov.Accept))
		}
		if ov.Name != "" {
			b.SetAttributeValue("name", cty.StringVal(ov.Name))
		}
		if ov.Column != "" {
			b.SetAttributeValue("column", cty.StringVal(ov.Column))
		}
	}
}

// writePartition writes a table's partition block.
func writePartition(tb *hclwrite.Body, p *Partition) {
	pb := tb.AppendNewBlock("partition", nil).Body()
	pb.SetAttributeValue("type", cty.StringVal(p.Type))
	pb.SetAttributeValue("column", cty.StringVal(p.Column))
	if p.Function != "" {
		pb.SetAttributeValue("function", cty.StringVal(p.Function))
	}
	if p.Count > 0 {
		pb.SetAttributeValue("count", cty.NumberIntVal(int64(p.Count)))
	}
	for _, part := range p.Parts {
		b := pb.AppendNewBlock("part", []string{part.Name}).Body()
		switch {
		case part.Rest:
			b.SetAttributeValue("rest", cty.True)
		case part.LessThan != nil:
			b.SetAttributeValue("less_than", boundVal(part.LessThan))
		case part.Values == nil:
			// A hash part: its name only.
		default:
			vals := make([]cty.Value, len(part.Values))
			for i, v := range part.Values {
				vals[i] = boundVal(v)
			}
			b.SetAttributeValue("values", cty.TupleVal(vals))
		}
	}
}

func boundVal(v any) cty.Value {
	if n, ok := v.(int64); ok {
		return cty.NumberIntVal(n)
	}
	s, _ := v.(string)
	return cty.StringVal(s)
}
