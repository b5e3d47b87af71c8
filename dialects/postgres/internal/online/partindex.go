package online

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres/internal/atlasdrv"
)

// An index added online to a partitioned table (PostgreSQL builds none of
// a partitioned table CONCURRENTLY, 0A000) is built as PostgreSQL's
// documentation shows for partitioned tables:
//
//   - in the transactional file, CREATE INDEX name ON ONLY parent (...), or
//     for a unique constraint ALTER TABLE ONLY parent ADD CONSTRAINT name
//     UNIQUE (...): the parent's catalog only, a brief SHARE (ACCESS
//     EXCLUSIVE) lock of it; the index is invalid while a part lacks its
//     own;
//   - in the online file, for each part: CREATE INDEX CONCURRENTLY of the
//     part's own index (SHARE UPDATE EXCLUSIVE of the part: writes go on),
//     for a constraint ALTER TABLE part ADD CONSTRAINT ... UNIQUE USING
//     INDEX (a brief ACCESS EXCLUSIVE of the part), then ALTER INDEX name
//     ATTACH PARTITION (a brief ACCESS EXCLUSIVE of the part's index, which
//     reads and writes of the part wait for); once every part's index is
//     attached, the parent's is valid.
//
// A part that the plan adds (or detaches and attaches again) is given its
// index by PostgreSQL when it joins the parent after the ON ONLY index,
// which the first file creates first. A part that is itself partitioned
// cannot be built CONCURRENTLY either: the index is then created plainly,
// with hazard PG115. The parts' indexes are named as PostgreSQL names
// those it makes itself (partIndexName); no comparison reads them: parts
// are not tables of the schema.

// partIndex plans index c added to partitioned table t online.
func (p *planner) partIndex(t *schema.Table, c *schema.AddIndex) ([]hazard.Stmt, error) {
	_, constraint := atlasdrv.UniqueConstraint(c.I.Attrs)
	var parts []atlasdrv.Part
	for _, part := range atlasdrv.PartsOf(t) {
		if part.Partitioned {
			// PG115: the plain form, with its whole-scan lock.
			return p.one(t, c, hazard.Form{AlterTable: constraint})
		}
		if !p.partsJoined[t.Name+"\x00"+part.Name] {
			parts = append(parts, part)
		}
	}
	ss, err := p.plan(&schema.ModifyTable{T: t, Changes: []schema.Change{c}})
	if err != nil {
		return nil, err
	}
	// Atlas writes an index's comment as a COMMENT ON after it.
	if len(ss) == 0 || !onlyForm(&ss[0], c.I.Name, constraint) || slices.ContainsFunc(ss[1:], func(s hazard.Stmt) bool { return !strings.HasPrefix(s.Cmd, "COMMENT ON ") }) {
		cmds := make([]string, len(ss))
		for i := range ss {
			cmds[i] = ss[i].Cmd
		}
		return nil, fmt.Errorf("postgres: index %q of partitioned table %q: no ON ONLY form of %d statements: %s", c.I.Name, t.Name, len(ss), strings.Join(cmds, "; "))
	}
	ss[0].Hazards = changeHazards(t, c, hazard.Form{AlterTable: constraint, Only: true})
	ss[0].Precheck = precheck(t, c)
	for _, part := range parts {
		name, err := p.partIndexName(t, part.Name, c.I, constraint)
		if err != nil {
			return nil, err
		}
		pt := &schema.Table{Name: part.Name, Schema: t.Schema, Columns: t.Columns}
		idx := *c.I
		idx.Name, idx.Table = name, pt
		// The parts' indexes have no comment, as PostgreSQL makes them.
		idx.Attrs = slices.DeleteFunc(withoutUniqueConstraint(idx.Attrs), func(a schema.Attr) bool { _, ok := a.(*schema.Comment); return ok })
		build, err := p.plan(&schema.ModifyTable{T: pt, Changes: []schema.Change{&schema.AddIndex{I: &idx, Extra: []schema.Clause{&postgres.Concurrently{}}}}})
		if err != nil {
			return nil, err
		}
		for i := range build {
			build[i].NoTx = true
			build[i].Comment = fmt.Sprintf("build the index of part %q for index %q of table %q", part.Name, c.I.Name, t.Name)
			build[i].Hazards = indexHazards(part.Name, &idx, true, false)
		}
		ss = append(ss, build...)
		if constraint {
			ss = append(ss, hazard.Stmt{
				Cmd:     fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s UNIQUE USING INDEX %s", p.qualified(t, part.Name), ident(name), ident(name)),
				Comment: fmt.Sprintf("turn index %q into a unique constraint of part %q (attached to constraint %q)", name, part.Name, c.I.Name),
				Later:   true,
				Hazards: []hazard.Hazard{briefLock(part.Name)},
			})
		}
		ss = append(ss, hazard.Stmt{
			Cmd:     fmt.Sprintf("ALTER INDEX %s ATTACH PARTITION %s", p.qualified(t, c.I.Name), p.qualified(t, name)),
			Comment: fmt.Sprintf("attach index %q of part %q to index %q of table %q (valid once every part's is attached)", name, part.Name, c.I.Name, t.Name),
			Later:   true,
			Hazards: []hazard.Hazard{attachHazard(part.Name, name)},
		})
	}
	return ss, nil
}

// onlyForm rewrites Atlas's statement creating index name of a partitioned
// table into its ON ONLY form, the parent's catalog alone; false when the
// statement is not of the form expected.
func onlyForm(s *hazard.Stmt, name string, constraint bool) bool {
	if constraint {
		rest, ok := strings.CutPrefix(s.Cmd, "ALTER TABLE ")
		if !ok || strings.HasPrefix(rest, "ONLY ") {
			return false
		}
		s.Cmd = "ALTER TABLE ONLY " + rest
		return true
	}
	on := "INDEX " + ident(name) + " ON "
	if !strings.Contains(s.Cmd, on) {
		return false
	}
	s.Cmd = strings.Replace(s.Cmd, on, on+"ONLY ", 1)
	return true
}

// qualified is name qualified as Atlas qualifies t's in the plan: by the
// plan's schema qualifier (migrate diff's is none), else by t's schema.
func (p *planner) qualified(t *schema.Table, name string) string {
	var o migrate.PlanOptions
	for _, f := range p.opts {
		f(&o)
	}
	q := ""
	switch {
	case o.SchemaQualifier != nil:
		q = *o.SchemaQualifier
	case t.Schema != nil:
		q = t.Schema.Name
	}
	if q != "" {
		return ident(q) + "." + ident(name)
	}
	return ident(name)
}

// partIndexName names the index of part for index i of partitioned table
// t as PostgreSQL names the indexes it makes for parts (ChooseIndexName):
// <part>_<columns>_idx (a unique constraint's _key), the columns joined by
// underscores (an expression by its function's name, or expr; a repeated
// name numbered), the part's name and the columns' shortened to fit 63
// bytes, the label numbered (idx1, idx2, ...) where the database the plan
// is made on, or the plan, has the name already. A database built from
// generated/, where PostgreSQL names them, then has the same names in the
// common case (an expression PostgreSQL names otherwise keeps expr here:
// the names are no part of any comparison).
func (p *planner) partIndexName(t *schema.Table, part string, i *schema.Index, constraint bool) (string, error) {
	label := "idx"
	if constraint {
		label = "key"
	}
	addition := indexNameAddition(indexColumnNames(i))
	for n := 0; ; n++ {
		l := label
		if n > 0 {
			l = fmt.Sprint(label, n)
		}
		name := objectName(part, addition, l)
		if p.names[name] {
			continue
		}
		taken, err := p.nameTaken(t, name, constraint)
		if err != nil {
			return "", err
		}
		if !taken {
			p.names[name] = true
			return name, nil
		}
	}
}

// indexColumnNames are the names PostgreSQL gives the columns of index i
// (ChooseIndexColumnNames): a column's name, an expression's function's
// (FigureIndexColname) or expr, made unique by a number.
func indexColumnNames(i *schema.Index) []string {
	var names []string
	add := func(n string) {
		cur := n
		for k := 1; slices.Contains(names, cur); k++ {
			suffix := fmt.Sprint(k)
			cur = clip(n, 63-len(suffix)) + suffix
		}
		names = append(names, cur)
	}
	for _, part := range i.Parts {
		switch x, _ := part.X.(*schema.RawExpr); {
		case part.C != nil:
			add(part.C.Name)
		case x != nil && funcName.MatchString(x.X):
			add(strings.ToLower(funcName.FindStringSubmatch(x.X)[1]))
		default:
			add("expr")
		}
	}
	for _, a := range i.Attrs {
		if inc, ok := a.(*postgres.IndexInclude); ok {
			for _, c := range inc.Columns {
				add(c.Name)
			}
		}
	}
	return names
}

// funcName is an expression that is a call of a function (unquoted, maybe
// qualified): PostgreSQL names its index column after the function.
var funcName = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_$]*\.)?([A-Za-z_][A-Za-z0-9_$]*)\(`)

// indexNameAddition joins names with underscores, as PostgreSQL does
// (ChooseIndexNameAddition): it stops once 64 bytes are reached.
func indexNameAddition(names []string) string {
	var b strings.Builder
	for _, n := range names {
		if b.Len() > 0 {
			b.WriteByte('_')
		}
		b.WriteString(clip(n, 63))
		if b.Len() >= 64 {
			break
		}
	}
	return b.String()
}

// objectName is PostgreSQL's makeObjectName: name1_name2_label within 63
// bytes, the longer of the two names shortened first, each cut at a whole
// character.
func objectName(name1, name2, label string) string {
	avail := 63 - len(label) - 2
	n1, n2 := len(name1), len(name2)
	for n1+n2 > avail {
		if n1 > n2 {
			n1--
		} else {
			n2--
		}
	}
	return clip(name1, n1) + "_" + clip(name2, n2) + "_" + label
}

// clip is s cut to at most n bytes, at a whole character.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// nameTaken reports whether a relation (table, index, sequence, view) of
// t's schema is named name in the database the plan is made on, or for a
// constraint's index a constraint of the schema (ChooseRelationName).
func (p *planner) nameTaken(t *schema.Table, name string, constraint bool) (bool, error) {
	q, ok := p.drv.(schema.ExecQuerier)
	if !ok {
		return false, nil
	}
	sch := ""
	if t.Schema != nil {
		sch = t.Schema.Name
	}
	rows, err := q.QueryContext(p.ctx, `WITH ns AS (SELECT COALESCE(to_regnamespace(NULLIF($2, '')), current_schema()::regnamespace) AS oid)
SELECT (SELECT count(*) FROM pg_class, ns WHERE relname = $1 AND relnamespace = ns.oid)
  + (SELECT count(*) FROM pg_constraint, ns WHERE $3 AND conname = $1 AND connamespace = ns.oid)`, name, sch, constraint)
	if err != nil {
		return false, fmt.Errorf("postgres: looking up relation %q: %w", name, err)
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		if err := rows.Scan(&n); err != nil {
			return false, err
		}
	}
	return n > 0, rows.Err()
}

// partsJoined are the parts (table and part name) that changes add to a
// partitioned table, or detach and attach again: PostgreSQL gives each the
// indexes of its parent when it joins.
func partsJoined(changes []schema.Change) map[string]bool {
	out := map[string]bool{}
	eachAttrChange(changes, func(mt *schema.ModifyTable, to schema.Attr) bool {
		switch x := to.(type) {
		case *atlasdrv.PartAdded:
			out[mt.T.Name+"\x00"+x.Part.Name] = true
		case *atlasdrv.PartRebound:
			out[mt.T.Name+"\x00"+x.Part.Name] = true
		}
		return true
	})
	return out
}

// eachAttrChange calls f with each table attribute that changes set
// (ModifyAttr's To, as the partitioning's changes come), until f returns
// false.
func eachAttrChange(changes []schema.Change, f func(mt *schema.ModifyTable, to schema.Attr) bool) {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		for _, sc := range mt.Changes {
			if m, ok := sc.(*schema.ModifyAttr); ok && !f(mt, m.To) {
				return
			}
		}
	}
}

// partitionedIndexHazards are the hazards of index i created without
// CONCURRENTLY on partitioned table t, false where they are an ordinary
// table's (the parts are built, and could have been CONCURRENTLY): ON
// ONLY, or with no part, the catalog alone (PG114); with a part that is
// itself partitioned, which no CONCURRENTLY builds, the build's own
// hazard under PG115.
func partitionedIndexHazards(t *schema.Table, i *schema.Index, f hazard.Form, constraint bool) ([]hazard.Hazard, bool) {
	parts := atlasdrv.PartsOf(t)
	lock, blocks := "SHARE", hazard.BlocksWrites
	if constraint && f.AlterTable {
		lock, blocks = "ACCESS EXCLUSIVE", hazard.BlocksAll
	}
	if f.Only || len(parts) == 0 {
		text := "builds nothing: the table has no part"
		if len(parts) > 0 {
			text = "builds nothing: the index is invalid until the index of every part is attached to it (the online file builds each CONCURRENTLY and attaches it)"
		}
		return []hazard.Hazard{{Code: codeOnlyIndex, Table: t.Name, Lock: lock, Blocks: blocks, Held: hazard.Brief, Text: text}}, true
	}
	i2 := slices.IndexFunc(parts, func(p atlasdrv.Part) bool { return p.Partitioned })
	if i2 < 0 {
		return nil, false
	}
	hs := []hazard.Hazard{{Code: codeSubPartIndex, Table: t.Name, Lock: lock, Blocks: blocks, Held: hazard.WholeScan, Scan: true,
		Text: fmt.Sprintf("builds every part's index; part %s is itself partitioned, which PostgreSQL builds no index of CONCURRENTLY", parts[i2].Name)}}
	if i.Unique {
		hs = append(hs, hazard.Hazard{Code: codeUnique, Table: t.Name, CanFail: true, Text: "existing duplicates make it fail"})
	}
	return hs, true
}

// attachHazard is the hazard of ALTER INDEX ... ATTACH PARTITION of index
// of part: ACCESS EXCLUSIVE of that index, briefly, which the part's reads
// (the planner opens its indexes) and writes wait for; SHARE UPDATE
// EXCLUSIVE of the parent's index.
func attachHazard(part, index string) hazard.Hazard {
	h := briefLock(part)
	h.Text = fmt.Sprintf("on its index %s, which is attached", index)
	return h
}
