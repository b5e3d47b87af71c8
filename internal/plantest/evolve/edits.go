package evolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemagen/schemagen/internal/difftest"
	"github.com/schemagen/schemagen/internal/difftest/draw"
)

// Edit is one change of a model. Apply makes it on a model found by names,
// so that the shrinker can make it again on a smaller model; it reports
// false when the model no longer has what the edit names.
type Edit struct {
	Kind  string
	What  string
	Apply func(m *difftest.Model) bool
}

// EditKind draws edits of one kind. Draw returns nil when m has nothing the
// kind applies to.
type EditKind struct {
	Name   string
	Weight int
	Draw   func(g *draw.Gen, m *difftest.Model) *Edit
}

// Kinds is the table of edits the oracle draws from, by weight.
var Kinds = []EditKind{
	{"add_table", 2, addTable},
	{"drop_table", 1, dropTable},
	{"add_column", 4, addColumn},
	{"drop_column", 2, dropColumn},
	{"change_type", 3, changeType},
	{"change_null", 2, changeNull},
	{"change_default", 2, changeDefault},
	{"change_override", 1, changeOverride},
	{"dialect_null", 1, dialectNull},
	{"pk_name", 1, pkName},
	{"change_primary_key", 1, changePrimaryKey},
	{"add_unique", 2, addUnique},
	{"drop_unique", 1, dropUnique},
	{"add_index", 3, addIndex},
	{"drop_index", 1, dropIndex},
	{"add_fk_index", 2, addFKIndex},
	{"add_check", 2, addCheck},
	{"drop_check", 1, dropCheck},
	{"add_foreign_key", 3, addForeignKey},
	{"add_foreign_key_to_unique", 2, addForeignKeyToUnique},
	{"drop_foreign_key", 1, dropForeignKey},
	{"change_fk_actions", 2, changeFKActions},
	{"change_deferrable", 2, changeDeferrable},
	// Issue 19's constructs (everyday.go).
	{"add_generated", 2, addGenerated},
	{"make_generated", 1, makeGenerated},
	{"make_plain", 1, makePlain},
	{"toggle_stored", 1, toggleStored},
	{"add_identity_table", 1, addIdentityTable},
	{"toggle_identity", 1, toggleIdentity},
	{"uuid_default", 1, uuidDefault},
	{"on_update", 2, onUpdate},
	{"rename_table", 1, renameTable},
	{"rename_column", 2, renameColumn},
	// Not tables (objects.go).
	{"toggle_extension", 1, toggleExtension},
	{"add_view", 2, addView},
	{"change_view", 1, changeView},
	{"drop_view", 1, dropView},
	{"add_vector", 1, addVector},
	{"change_vector_dimension", 1, changeVectorDimension},
	// Enums.
	{"add_enum_column", 2, addEnumColumn},
	{"change_enum_values", 3, changeEnumValues},
	{"change_to_enum", 1, changeToEnum},
	{"drop_unused_enums", 1, dropUnusedEnums},
	{"enum_key", 1, enumKey},
	// What other teams' histories do (history_edits.go, issue 29).
	{"rebuild_table", 1, rebuildTable},
	{"move_foreign_key", 1, moveForeignKey},
	{"rename_foreign_key", 1, renameForeignKey},
	{"replace_column", 1, replaceColumn},
	{"rename_table_with_keys", 1, renameTableWithKeys},
	// Dialect settings (objects.go).
	{"change_setting", 1, changeSetting},
	// Index comments (issue 32; objects.go).
	{"change_index_comment", 1, changeIndexComment},
	// Issue 33's key options (keys.go).
	{"add_key_table", 2, addKeyTable},
	{"change_key_options", 3, changeKeyOptions},
	{"change_layout", 2, changeLayout},
	{"change_ttl", 2, tableOption("ttl")},
	{"change_partition", 4, tableOption("partition")},
	{"change_index_options", 2, changeIndexOptions},
}

// drawEdit draws one edit of m (nil when the kind drawn has nothing to
// edit).
func drawEdit(g *draw.Gen, m *difftest.Model, try int, only map[string]bool) *Edit {
	// The enum edits are drawn by a generator of their own, seeded by the
	// model and the try, so that the other kinds' draws of each seed stay as
	// they were.
	// So are the settings' edits, when no enum edit is drawn.
	eg := draw.NewGen(modelSeed(m) + uint64(try))
	// And index comments', issue 33's key options' (keys.go) and the kinds
	// of the enum and settings generator, when none is.
	kinds := slices.DeleteFunc(slices.Clone(Kinds), func(k EditKind) bool {
		return isEnumKind(k) || isSettingKind(k) || isCommentKind(k) || isKeyKind(k) || isOwnGenKind(k)
	})
	switch {
	case eg.Chance(0.15):
		kinds, g = slices.DeleteFunc(slices.Clone(Kinds), func(k EditKind) bool { return !isEnumKind(k) }), eg
	case eg.Chance(0.08):
		kinds, g = slices.DeleteFunc(slices.Clone(Kinds), func(k EditKind) bool { return !isSettingKind(k) }), eg
	case eg.Chance(0.06):
		kinds, g = slices.DeleteFunc(slices.Clone(Kinds), func(k EditKind) bool { return !isCommentKind(k) }), eg
	case eg.Chance(0.06):
		kinds, g = slices.DeleteFunc(slices.Clone(Kinds), func(k EditKind) bool { return !isKeyKind(k) }), eg
	case eg.Chance(0.04):
		// Kinds added later are drawn by that generator too, so that
		// what the others draw stays as it was where they are not drawn.
		kinds, g = slices.DeleteFunc(slices.Clone(Kinds), func(k EditKind) bool { return !isOwnGenKind(k) }), eg
	}
	if len(only) > 0 {
		// The kinds asked for, whichever generator draws them otherwise.
		kinds = slices.DeleteFunc(slices.Clone(Kinds), func(k EditKind) bool { return !only[k.Name] })
	}
	total := 0
	for _, k := range kinds {
		total += k.Weight
	}
	if total == 0 {
		return nil
	}
	n := g.N(total)
	for _, k := range kinds {
		if n -= k.Weight; n < 0 {
			e := k.Draw(g, m)
			if e != nil && e.Kind == "" {
				e.Kind = k.Name
			}
			return e
		}
	}
	return nil
}

func isEnumKind(k EditKind) bool { return strings.Contains(k.Name, "enum") }

func isSettingKind(k EditKind) bool { return k.Name == "change_setting" }

func isCommentKind(k EditKind) bool { return k.Name == "change_index_comment" }

// isOwnGenKind tells the kinds added after the seeds were pinned, drawn by
// the generator of the enum and settings edits.
func isOwnGenKind(k EditKind) bool { return slices.Contains(ownGen, k.Name) }

var ownGen = []string{"dialect_null", "pk_name", "change_ttl", "change_partition", "change_index_options", "rename_foreign_key"}

// modelSeed is a seed drawn from the model's text (FNV-1a).
func modelSeed(m *difftest.Model) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range []byte(m.HCL()) {
		h = (h ^ uint64(b)) * 1099511628211
	}
	return h
}

// The helpers below find a model's parts by name.

func pickTable(g *draw.Gen, m *difftest.Model) *difftest.Table {
	if len(m.Tables) == 0 {
		return nil
	}
	return m.Tables[g.N(len(m.Tables))]
}

// nonKey returns the columns of t in no primary or foreign key.
func nonKey(t *difftest.Table) []*difftest.Col {
	var out []*difftest.Col
	for _, c := range t.Cols {
		if slices.Contains(t.PK, c.Name) || slices.ContainsFunc(t.FKs, func(fk difftest.FK) bool { return slices.Contains(fk.Cols, c.Name) }) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// referenced reports whether a foreign key of m points to table name.
func referenced(m *difftest.Model, name string) bool {
	for _, t := range m.Tables {
		for _, fk := range t.FKs {
			if fk.RefTable == name && t.Name != name {
				return true
			}
		}
	}
	return false
}

// freeName returns prefix followed by the first number no table, column,
// constraint or index of m has.
func freeName(m *difftest.Model, prefix string) string {
	used := map[string]bool{}
	for _, t := range m.Tables {
		used[t.Name], used[t.RenamedFrom] = true, true
		for _, c := range t.Cols {
			used[c.Name], used[c.RenamedFrom] = true, true
		}
		for _, x := range t.Checks {
			used[x.Name] = true
		}
		for _, x := range t.Uniques {
			used[x.Name] = true
		}
		for _, x := range t.Indexes {
			used[x.Name] = true
		}
		for _, x := range t.FKs {
			used[x.Name] = true
		}
	}
	for _, r := range m.Raws {
		used[r.Name] = true
	}
	for i := 0; ; i++ {
		if n := fmt.Sprintf("%s%d", prefix, i); !used[n] {
			return n
		}
	}
}

// onTable is an edit of the table named name.
func onTable(what, name string, f func(m *difftest.Model, t *difftest.Table) bool) *Edit {
	return &Edit{What: what, Apply: func(m *difftest.Model) bool {
		t := m.Table(name)
		return t != nil && f(m, t)
	}}
}

func cloneCol(c *difftest.Col) *difftest.Col { cc := *c; return &cc }

func addTable(g *draw.Gen, m *difftest.Model) *Edit {
	name := freeName(m, "n")
	t := &difftest.Table{Name: name}
	t.Cols = append(t.Cols, &difftest.Col{Name: "id0", Type: g.Type(true)})
	t.PK = []string{"id0"}
	for k := range 1 + g.N(3) {
		c := &difftest.Col{Name: fmt.Sprintf("c%d", k), Type: g.Type(false), Null: g.Chance(0.5)}
		if g.Chance(0.3) {
			c.Default = g.Default(c.Type)
		}
		t.Cols = append(t.Cols, c)
	}
	var fk *difftest.FK
	if parent := pickTable(g, m); parent != nil && g.Chance(0.6) {
		null := g.Chance(0.6)
		f := difftest.FK{Name: name + "_fk0", RefTable: parent.Name, RefCols: slices.Clone(parent.PK), OnDelete: g.Action(null), OnUpdate: g.Action(null)}
		for k, rc := range parent.PK {
			c := &difftest.Col{Name: fmt.Sprintf("f%d", k), Type: parent.Col(rc).Type, Null: null}
			t.Cols = append(t.Cols, c)
			f.Cols = append(f.Cols, c.Name)
		}
		fk = &f
		t.FKs = append(t.FKs, f)
	}
	if g.Chance(0.5) {
		t.Indexes = append(t.Indexes, g.Index(t, name+"_ix0"))
	}
	if g.Chance(0.3) {
		t.Checks = append(t.Checks, g.Check(t, name+"_ck0"))
	}
	what := fmt.Sprintf("add table %s", name)
	return &Edit{What: what, Apply: func(m *difftest.Model) bool {
		nt := *t
		nt.Cols = nil
		for _, c := range t.Cols {
			nt.Cols = append(nt.Cols, cloneCol(c))
		}
		nt.FKs = slices.Clone(t.FKs)
		nt.Indexes = slices.Clone(t.Indexes)
		nt.Checks = slices.Clone(t.Checks)
		if fk != nil && m.Table(fk.RefTable) == nil {
			return false
		}
		m.Tables = append(m.Tables, &nt)
		return true
	}}
}

func dropTable(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(m.Tables) < 2 {
		return nil
	}
	name := t.Name
	// Foreign keys to it go with it, in the same step.
	return &Edit{What: "drop table " + name, Apply: func(m *difftest.Model) bool {
		i := slices.IndexFunc(m.Tables, func(t *difftest.Table) bool { return t.Name == name })
		if i < 0 {
			return false
		}
		m.Tables = slices.Delete(m.Tables, i, i+1)
		for _, o := range m.Tables {
			o.FKs = slices.DeleteFunc(o.FKs, func(fk difftest.FK) bool { return fk.RefTable == name })
		}
		dropViewsOf(m, name)
		return true
	}}
}

// valueForRows gives a NOT NULL column added to a table that may hold rows
// a default, or makes it nullable when the type has none: migrate diff
// refuses a NOT NULL column without a default there (PostgreSQL fails on
// the rows, TiDB fills them with ” or 0).
func valueForRows(g *draw.Gen, c *difftest.Col) {
	if c.Null || c.Default != "" || c.As != "" {
		return
	}
	if c.Default = g.Default(c.Type); c.Default == "" {
		c.Null = true
	}
}

func addColumn(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	c := &difftest.Col{Name: freeName(m, "a"), Type: g.Type(false), Null: g.Chance(0.6)}
	if !c.Null || g.Chance(0.3) {
		c.Default = g.Default(c.Type)
	}
	valueForRows(g, c)
	c.Override = g.Override(c.Type)
	return onTable(fmt.Sprintf("add column %s %s to %s", c.Name, c.Type, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		t.Cols = append(t.Cols, cloneCol(c))
		return true
	})
}

func dropColumn(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	cols := nonKey(t)
	if len(cols) < 2 {
		return nil
	}
	name := cols[g.N(len(cols))].Name
	return onTable(fmt.Sprintf("drop column %s.%s", t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		i := slices.IndexFunc(t.Cols, func(c *difftest.Col) bool { return c.Name == name })
		if i < 0 || len(t.Cols) < 2 {
			return false
		}
		difftest.DropColumn(m, t, i)
		return true
	})
}

// widen gives a type that holds every value of t, when there is one.
func widen(t difftest.Type) (difftest.Type, bool) {
	switch t.Name {
	case "smallint":
		return difftest.Type{Name: "int"}, true
	case "int":
		return difftest.Type{Name: "bigint"}, true
	case "varchar":
		return difftest.Type{Name: "varchar", Args: []int{t.Args[0] + 100}}, true
	case "char":
		return difftest.Type{Name: "varchar", Args: []int{t.Args[0] + 10}}, true
	case "decimal":
		return difftest.Type{Name: "decimal", Args: []int{min(t.Args[0]+5, 65), t.Args[1]}}, true
	}
	return difftest.Type{}, false
}

func changeType(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	cols := nonKey(t)
	if len(cols) == 0 {
		return nil
	}
	c := cols[g.N(len(cols))]
	to, ok := widen(c.Type)
	if !ok || g.Chance(0.3) {
		to = g.Type(false)
	}
	name := c.Name
	return onTable(fmt.Sprintf("change type of %s.%s from %s to %s", t.Name, name, c.Type, to), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil {
			return false
		}
		c.Type, c.Override = to, ""
		if c.Default != "" {
			c.Default = ""
		}
		return true
	})
}

func changeNull(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	cols := nonKey(t)
	if len(cols) == 0 {
		return nil
	}
	c := cols[g.N(len(cols))]
	name, null := c.Name, !c.Null
	return onTable(fmt.Sprintf("make %s.%s null = %v", t.Name, name, null), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil {
			return false
		}
		c.Null = null
		return true
	})
}

// dialectNull makes a NOT NULL column nullable in one dialect's block
// (what import writes where two databases disagree), or takes that block
// away again. Only NOT NULL columns get one: the rows drawn for the
// neutral column hold no NULL, which both dialects then take alike.
func dialectNull(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	var cols []*difftest.Col
	for _, c := range nonKey(t) {
		if !c.Null && !c.Identity && (c.Override == "" || strings.Contains(c.Override, "null = true")) {
			cols = append(cols, c)
		}
	}
	if len(cols) == 0 {
		return nil
	}
	c := cols[g.N(len(cols))]
	name, ov := c.Name, ""
	if c.Override == "" {
		ov = []string{"postgres {\n  null = true\n}", "tidb {\n  null = true\n}"}[g.N(2)]
	}
	return onTable(fmt.Sprintf("set the dialect null of %s.%s to %q", t.Name, name, ov), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil || c.Null || c.Identity {
			return false
		}
		c.Override = ov
		return true
	})
}

// pkName names a table's primary key otherwise than the dialects do (what
// import writes for a key a renamed table kept), renames it, or takes the
// name away again.
func pkName(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.PK) == 0 {
		return nil
	}
	name := map[bool]string{true: t.Name + "_was_pkey", false: ""}[t.PKName == ""]
	if t.PKName != "" && g.Chance(0.5) {
		name = t.PKName + "2"
	}
	return onTable(fmt.Sprintf("name the primary key of %s %q", t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		t.PKName = name
		return len(t.PK) > 0
	})
}

func changeDefault(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	c := t.Cols[g.N(len(t.Cols))]
	name, def := c.Name, ""
	if c.Default == "" || g.Chance(0.5) {
		def = g.Default(c.Type)
	}
	return onTable(fmt.Sprintf("set the default of %s.%s to %q", t.Name, name, def), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil {
			return false
		}
		c.Default = def
		return true
	})
}

func changeOverride(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	if len(t.Indexes) > 0 && g.Chance(0.4) {
		i := g.N(len(t.Indexes))
		name := t.Indexes[i].Name
		ov := ""
		if t.Indexes[i].Override == "" && !t.Indexes[i].Unique {
			ov = []string{"postgres {\n  skip = true\n}", "tidb {\n  skip = true\n}"}[g.N(2)]
		}
		return onTable(fmt.Sprintf("set the override of index %s.%s to %q", t.Name, name, ov), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
			i := slices.IndexFunc(t.Indexes, func(x difftest.Index) bool { return x.Name == name })
			if i < 0 {
				return false
			}
			t.Indexes[i].Override = ov
			return true
		})
	}
	c := t.Cols[g.N(len(t.Cols))]
	if c.Type.Name == "vector" {
		// Its override is pgvector's stand-in (TEXT), which CI lacks.
		return nil
	}
	name, ov := c.Name, ""
	if c.Override == "" {
		ov = g.Override(c.Type)
	}
	return onTable(fmt.Sprintf("set the override of %s.%s to %q", t.Name, name, ov), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		c := t.Col(name)
		if c == nil {
			return false
		}
		c.Override = ov
		return true
	})
}

func changePrimaryKey(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || referenced(m, t.Name) {
		return nil
	}
	cols := nonKey(t)
	var pk []string
	switch {
	case len(t.PK) > 1:
		pk = t.PK[:1]
	case len(cols) > 0 && g.Chance(0.5):
		pk = append(slices.Clone(t.PK), cols[g.N(len(cols))].Name)
	default:
		return nil
	}
	return onTable(fmt.Sprintf("set the primary key of %s to %v", t.Name, pk), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		for _, n := range pk {
			c := t.Col(n)
			if c == nil {
				return false
			}
			c.Null = false
		}
		t.PK = slices.Clone(pk)
		return true
	})
}

func addUnique(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	name := freeName(m, t.Name+"_uq")
	var cols []string
	for _, i := range []int{g.N(len(t.Cols)), g.N(len(t.Cols))}[:1+g.N(2)] {
		if !slices.Contains(cols, t.Cols[i].Name) {
			cols = append(cols, t.Cols[i].Name)
		}
	}
	return onTable(fmt.Sprintf("add unique %s%v to %s", name, cols, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		for _, c := range cols {
			if t.Col(c) == nil {
				return false
			}
		}
		t.Uniques = append(t.Uniques, difftest.Unique{Name: name, Cols: cols})
		return true
	})
}

func dropUnique(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.Uniques) == 0 {
		return nil
	}
	name := t.Uniques[g.N(len(t.Uniques))].Name
	return onTable(fmt.Sprintf("drop unique %s.%s", t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		n := len(t.Uniques)
		t.Uniques = slices.DeleteFunc(t.Uniques, func(u difftest.Unique) bool { return u.Name == name })
		return len(t.Uniques) < n
	})
}

func addIndex(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	idx := g.Index(t, freeName(m, t.Name+"_ix"))
	return onTable(fmt.Sprintf("add index %s to %s", idx.Name, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		for _, c := range idx.Cols {
			if t.Col(c) == nil && !isExpr(c) {
				return false
			}
		}
		t.Indexes = append(t.Indexes, idx)
		return true
	})
}

func isExpr(part string) bool { return len(part) > 5 && part[:5] == "expr:" }

// addFKIndex adds an index that starts with a foreign key's columns (TiDB
// then drops the index it made for the key: issue 18's 1553).
func addFKIndex(g *draw.Gen, m *difftest.Model) *Edit {
	var cands []*difftest.Table
	for _, t := range m.Tables {
		if len(t.FKs) > 0 {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	t := cands[g.N(len(cands))]
	fk := t.FKs[g.N(len(t.FKs))]
	idx := difftest.Index{Name: freeName(m, t.Name+"_fkix"), Cols: slices.Clone(fk.Cols), Unique: g.Chance(0.2)}
	if other := t.Cols[g.N(len(t.Cols))]; !slices.Contains(idx.Cols, other.Name) && g.Chance(0.7) {
		idx.Cols = append(idx.Cols, other.Name)
	}
	return onTable(fmt.Sprintf("add index %s%v over foreign key %s of %s", idx.Name, idx.Cols, fk.Name, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		for _, c := range idx.Cols {
			if t.Col(c) == nil {
				return false
			}
		}
		t.Indexes = append(t.Indexes, idx)
		return true
	})
}

func dropIndex(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.Indexes) == 0 {
		return nil
	}
	name := t.Indexes[g.N(len(t.Indexes))].Name
	return onTable(fmt.Sprintf("drop index %s.%s", t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		n := len(t.Indexes)
		t.Indexes = slices.DeleteFunc(t.Indexes, func(x difftest.Index) bool { return x.Name == name })
		return len(t.Indexes) < n
	})
}

func addCheck(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil {
		return nil
	}
	ck := g.Check(t, freeName(m, t.Name+"_ck"))
	return onTable(fmt.Sprintf("add check %s (%s) to %s", ck.Name, ck.Expr, t.Name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		t.Checks = append(t.Checks, ck)
		return true
	})
}

func dropCheck(g *draw.Gen, m *difftest.Model) *Edit {
	t := pickTable(g, m)
	if t == nil || len(t.Checks) == 0 {
		return nil
	}
	name := t.Checks[g.N(len(t.Checks))].Name
	return onTable(fmt.Sprintf("drop check %s.%s", t.Name, name), t.Name, func(m *difftest.Model, t *difftest.Table) bool {
		n := len(t.Checks)
		t.Checks = slices.DeleteFunc(t.Checks, func(x difftest.Check) bool { return x.Name == name })
		return len(t.Checks) < n
	})
}

// fkTo is a foreign key of child to refCols of parent over new columns of
// the same types.
func fkTo(g *draw.Gen, m *difftest.Model, child, parent *difftest.Table, refCols []string) (difftest.FK, []*difftest.Col) {
	null := g.Chance(0.6)
	fk := difftest.FK{Name: freeName(m, child.Name+"_fk"), RefTable: parent.Name, RefCols: slices.Clone(refCols), OnDelete: g.Action(null), OnUpdate: g.Action(null)}
	var cols []*difftest.Col
	prefix := freeName(m, "r")
	for k, rc := range refCols {
		c := &difftest.Col{Name: fmt.Sprintf("%s_%d", prefix, k), Type: parent.Col(rc).Type, Null: null}
		valueForRows(g, c)
		cols = append(cols, c)
		fk.Cols = append(fk.Cols, c.Name)
	}
	return fk, cols
}

func addForeignKey(g *draw.Gen, m *difftest.Model) *Edit {
	child, parent := pickTable(g, m), pickTable(g, m)
	if child == nil {
		return nil
	}
	fk, cols := fkTo(g, m, child, parent, parent.PK)
	return onTable(fmt.Sprintf("add foreign key %s of %s to %s%v", fk.Name, child.Name, parent.Name, parent.PK), child.Name, func(m *difftest.Model, t *difftest.Table) bool {
		p := m.Table(fk.RefTable)
		if p == nil || !slices.Equal(p.PK, fk.RefCols) {
			return false
		}
		for _, c := range cols {
			t.Cols = append(t.Cols, cloneCol(c))
		}
		t.FKs = append(t.FKs, fk)
		return true
	})
}

// addForeignKeyToUnique adds, in one step, a unique key to a table and a
// foreign key to it (issue 18's 1822: the key must exist first).
func addForeignKeyToUnique(g *draw.Gen, m *difftest.Model) *Edit {
	child, parent := pickTable(g, m), pickTable(g, m)
	if child == nil {
		return nil
	}
	// A new column of a key type, unique, on the parent.
	ukCol := &difftest.Col{Name: freeName(m, "k"), Type: g.Type(true), Null: g.Chance(0.5)}
	valueForRows(g, ukCol)
	uq := difftest.Unique{Name: freeName(m, parent.Name+"_uq"), Cols: []string{ukCol.Name}}
	asIndex := g.Chance(0.3)
	probe := &difftest.Table{Name: parent.Name, Cols: append(slices.Clone(parent.Cols), ukCol)}
	fk, cols := fkTo(g, m, child, probe, uq.Cols)
	return &Edit{What: fmt.Sprintf("add unique %s(%s) to %s and foreign key %s of %s to it", uq.Name, ukCol.Name, parent.Name, fk.Name, child.Name), Apply: func(m *difftest.Model) bool {
		p, c := m.Table(parent.Name), m.Table(child.Name)
		if p == nil || c == nil {
			return false
		}
		p.Cols = append(p.Cols, cloneCol(ukCol))
		if asIndex {
			p.Indexes = append(p.Indexes, difftest.Index{Name: uq.Name, Unique: true, Cols: uq.Cols})
		} else {
			p.Uniques = append(p.Uniques, uq)
		}
		for _, col := range cols {
			c.Cols = append(c.Cols, cloneCol(col))
		}
		c.FKs = append(c.FKs, fk)
		return true
	}}
}

func pickFK(g *draw.Gen, m *difftest.Model) (*difftest.Table, string) {
	var cands []*difftest.Table
	for _, t := range m.Tables {
		if len(t.FKs) > 0 {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return nil, ""
	}
	t := cands[g.N(len(cands))]
	return t, t.FKs[g.N(len(t.FKs))].Name
}

// onFK is an edit of the foreign key named name of table table.
func onFK(what, table, name string, f func(t *difftest.Table, i int) bool) *Edit {
	return onTable(what, table, func(m *difftest.Model, t *difftest.Table) bool {
		i := slices.IndexFunc(t.FKs, func(fk difftest.FK) bool { return fk.Name == name })
		return i >= 0 && f(t, i)
	})
}

func dropForeignKey(g *draw.Gen, m *difftest.Model) *Edit {
	t, name := pickFK(g, m)
	if t == nil {
		return nil
	}
	return onFK(fmt.Sprintf("drop foreign key %s.%s", t.Name, name), t.Name, name, func(t *difftest.Table, i int) bool {
		t.FKs = slices.Delete(t.FKs, i, i+1)
		return true
	})
}

func changeFKActions(g *draw.Gen, m *difftest.Model) *Edit {
	t, name := pickFK(g, m)
	if t == nil {
		return nil
	}
	null := g.Chance(0.5)
	del, upd := g.Action(null), g.Action(null)
	return onFK(fmt.Sprintf("set foreign key %s.%s on_delete %q on_update %q", t.Name, name, del, upd), t.Name, name, func(t *difftest.Table, i int) bool {
		t.FKs[i].OnDelete, t.FKs[i].OnUpdate = del, upd
		return true
	})
}

func changeDeferrable(g *draw.Gen, m *difftest.Model) *Edit {
	t, name := pickFK(g, m)
	if t == nil {
		return nil
	}
	i := slices.IndexFunc(t.FKs, func(fk difftest.FK) bool { return fk.Name == name })
	def, initially := !t.FKs[i].Deferrable, false
	if def {
		initially = g.Chance(0.5)
	} else if g.Chance(0.3) {
		def, initially = true, !t.FKs[i].InitiallyDeferred
	}
	return onFK(fmt.Sprintf("set foreign key %s.%s deferrable %v initially_deferred %v", t.Name, name, def, initially), t.Name, name, func(t *difftest.Table, i int) bool {
		t.FKs[i].Deferrable, t.FKs[i].InitiallyDeferred = def, initially
		return true
	})
}
