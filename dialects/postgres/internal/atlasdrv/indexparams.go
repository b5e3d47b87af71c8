package atlasdrv

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
)

// IndexParams are an index's storage parameters (its WITH clause, pg_class
// reloptions) as "name=value", sorted. Atlas v1.2.3 reads only BRIN's
// pages_per_range and autosummarize (IndexStorageParams) and drops the
// others (fillfactor, pgvector's m, ef_construction and lists): this
// attribute replaces its.
type IndexParams struct {
	schema.Attr
	Params []string
}

// ModifyIndexParams is an index whose storage parameters alone change.
type ModifyIndexParams struct {
	schema.Change
	T        *schema.Table
	Old, I   *schema.Index
	From, To []string
}

// IndexChange returns the index before and after the change (drift reports
// it as a changed index).
func (c *ModifyIndexParams) IndexChange() (from, to *schema.Index) { return c.Old, c.I }

// ParamsOf returns the storage parameters of idx, nil for none.
func ParamsOf(idx *schema.Index) []string {
	for _, a := range idx.Attrs {
		if p, ok := a.(*IndexParams); ok {
			return p.Params
		}
	}
	return nil
}

const indexParamsQuery = `SELECT t.relname, i.relname, o FROM pg_index x
JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
JOIN pg_namespace n ON n.oid = t.relnamespace, unnest(i.reloptions) o
WHERE n.nspname = COALESCE(NULLIF($1, ''), current_schema()) ORDER BY 1, 2, 3`

// inspectIndexParams puts IndexParams on the indexes of s that have
// storage parameters, in place of Atlas's IndexStorageParams.
func (d *atlasDriver) inspectIndexParams(ctx context.Context, s *schema.Schema) error {
	if len(s.Tables) == 0 {
		return nil
	}
	for _, t := range s.Tables {
		for _, idx := range t.Indexes {
			idx.Attrs = slices.DeleteFunc(idx.Attrs, func(a schema.Attr) bool {
				_, ok := a.(*postgres.IndexStorageParams)
				return ok
			})
		}
	}
	rows, err := d.conn.QueryContext(ctx, indexParamsQuery, s.Name)
	if err != nil {
		return fmt.Errorf("postgres: querying index storage parameters: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, name, opt string
		if err := rows.Scan(&table, &name, &opt); err != nil {
			return err
		}
		t, ok := s.Table(table)
		if !ok {
			continue
		}
		if idx, ok := t.Index(name); ok {
			var p IndexParams
			for _, a := range idx.Attrs {
				if q, ok := a.(*IndexParams); ok {
					p = *q
				}
			}
			p.Params = append(p.Params, normalParam(opt))
			schema.ReplaceOrAppend(&idx.Attrs, &p)
		}
	}
	return rows.Err()
}

// normalParam is a reloptions entry name=value with a boolean value as
// true or false: PostgreSQL keeps on, off, yes and no as written, all
// meaning the same.
func normalParam(p string) string {
	k, v, ok := strings.Cut(p, "=")
	if !ok {
		return p
	}
	switch strings.ToLower(v) {
	case "on", "yes", "true":
		v = "true"
	case "off", "no", "false":
		v = "false"
	}
	return k + "=" + v
}

// indexParamChanges adds what differs in the storage parameters of the
// indexes both sides hold and Atlas's diff leaves as they are: a
// ModifyIndexParams (ALTER INDEX ... SET / RESET), or, for pgvector's hnsw
// and ivfflat, whose parameters shape the index already built, a rebuild
// (ModifyIndex, which the online planner builds CONCURRENTLY beside the old).
func indexParamChanges(changes []schema.Change, from, to []*schema.Table) []schema.Change {
	return withTableChanges(changes, from, to, func(f, t *schema.Table, modify func(create bool) *schema.ModifyTable) {
		for _, idx := range t.Indexes {
			old, ok := f.Index(idx.Name)
			if !ok || slices.Equal(ParamsOf(old), ParamsOf(idx)) {
				continue
			}
			if mt := modify(false); mt != nil && slices.ContainsFunc(mt.Changes, func(c schema.Change) bool {
				switch c := c.(type) {
				case *schema.ModifyIndex:
					return c.To.Name == idx.Name
				case *schema.DropIndex:
					return c.I.Name == idx.Name
				case *schema.AddIndex:
					return c.I.Name == idx.Name
				}
				return false
			}) {
				continue
			}
			mt := modify(true)
			if rebuiltByParams(idx) {
				mt.Changes = append(mt.Changes, &schema.ModifyIndex{From: old, To: idx, Change: schema.ChangeAttr})
				continue
			}
			mt.Changes = append(mt.Changes, &ModifyIndexParams{T: t, Old: old, I: idx, From: ParamsOf(old), To: ParamsOf(idx)})
		}
	})
}

// rebuiltByParams reports whether idx's method builds its structure from
// its storage parameters (pgvector's hnsw and ivfflat), so that a change
// needs a new index.
func rebuiltByParams(idx *schema.Index) bool {
	var typ postgres.IndexType
	for _, a := range idx.Attrs {
		if t, ok := a.(*postgres.IndexType); ok {
			typ = *t
		}
	}
	m := strings.ToLower(typ.T)
	return m == "hnsw" || m == "ivfflat"
}

// paramsStmts are the ALTER INDEX statements of c: SET of the parameters
// added or changed, RESET of the ones removed.
func paramsStmts(c *ModifyIndexParams, qualifier *string) []*migrate.Change {
	name := ident(c.I.Name)
	q := schemaName(c.T)
	if qualifier != nil {
		q = *qualifier
	}
	if q != "" {
		name = ident(q) + "." + name
	}
	var set, reset []string
	keys := map[string]bool{}
	for _, p := range c.To {
		k, _, _ := strings.Cut(p, "=")
		keys[k] = true
		if !slices.Contains(c.From, p) {
			set = append(set, paramText(p))
		}
	}
	for _, p := range c.From {
		if k, _, _ := strings.Cut(p, "="); !keys[k] {
			reset = append(reset, k)
		}
	}
	var out []*migrate.Change
	if len(set) > 0 {
		out = append(out, &migrate.Change{Cmd: fmt.Sprintf("ALTER INDEX %s SET (%s)", name, strings.Join(set, ", ")), Source: c,
			Comment: fmt.Sprintf("set the storage parameters of index %q", c.I.Name)})
	}
	if len(reset) > 0 {
		out = append(out, &migrate.Change{Cmd: fmt.Sprintf("ALTER INDEX %s RESET (%s)", name, strings.Join(reset, ", ")), Source: c,
			Comment: fmt.Sprintf("reset the storage parameters of index %q", c.I.Name)})
	}
	return out
}

// paramText is "name = value" of a reloptions entry name=value.
func paramText(p string) string {
	k, v, _ := strings.Cut(p, "=")
	return k + " = " + v
}

// createIndexName matches the CREATE INDEX statements Atlas plans, with
// the index's name.
var createIndexName = regexp.MustCompile(`^CREATE (?:UNIQUE )?INDEX (?:CONCURRENTLY )?((?:"(?:[^"]|"")+"))`)

// withParams writes the WITH clause of every index the changes create with
// storage parameters into the CREATE INDEX Atlas planned for it (before its
// WHERE, which Atlas writes last). A statement it cannot place the clause
// in is an error, not an index built without its parameters.
func withParams(plan *migrate.Plan, changes []schema.Change) error {
	params := map[string]*schema.Index{}
	add := func(idx *schema.Index) {
		if len(ParamsOf(idx)) > 0 {
			params[ident(idx.Name)] = idx
		}
	}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.AddTable:
			for _, idx := range c.T.Indexes {
				add(idx)
			}
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				switch sc := sc.(type) {
				case *schema.AddIndex:
					add(sc.I)
				case *schema.ModifyIndex:
					add(sc.To)
				}
			}
		}
	}
	if len(params) == 0 {
		return nil
	}
	for _, pc := range plan.Changes {
		m := createIndexName.FindStringSubmatch(pc.Cmd)
		if m == nil || params[m[1]] == nil {
			continue
		}
		idx := params[m[1]]
		var ps []string
		for _, p := range ParamsOf(idx) {
			ps = append(ps, paramText(p))
		}
		with := " WITH (" + strings.Join(ps, ", ") + ")"
		at := len(pc.Cmd)
		var pred postgres.IndexPredicate
		for _, a := range idx.Attrs {
			if p, ok := a.(*postgres.IndexPredicate); ok {
				pred = *p
			}
		}
		if pred.P != "" {
			i := strings.LastIndex(pc.Cmd, " WHERE ")
			if i < 0 {
				return fmt.Errorf("postgres: the planned CREATE INDEX of %s has no WHERE, before which its storage parameters go:\n%s", idx.Name, pc.Cmd)
			}
			at = i
		}
		pc.Cmd = pc.Cmd[:at] + with + pc.Cmd[at:]
	}
	return nil
}

// indexParamsLine is what a stored state keeps of the storage parameters
// Atlas's HCL leaves out, as JSON in comment lines after it.
const indexParamsLine = "# schemagen postgres index "

type stateParams struct {
	Table  string   `json:"table"`
	Index  string   `json:"index"`
	Params []string `json:"params"`
}

// MarshalParams writes the storage parameters of s's indexes as comment
// lines to append to its stored state.
func MarshalParams(s *schema.Schema) ([]byte, error) {
	var b strings.Builder
	for _, t := range s.Tables {
		for _, idx := range t.Indexes {
			if ps := ParamsOf(idx); len(ps) > 0 {
				j, err := json.Marshal(stateParams{Table: t.Name, Index: idx.Name, Params: ps})
				if err != nil {
					return nil, err
				}
				b.WriteString(indexParamsLine + string(j) + "\n")
			}
		}
	}
	return []byte(b.String()), nil
}

// UnmarshalParams sets on s the storage parameters the comment lines of a
// stored state hold.
func UnmarshalParams(s *schema.Schema, b []byte) error {
	for _, l := range strings.Split(string(b), "\n") {
		j, ok := strings.CutPrefix(l, indexParamsLine)
		if !ok {
			continue
		}
		var p stateParams
		if err := json.Unmarshal([]byte(j), &p); err != nil {
			return fmt.Errorf("stored state: %w", err)
		}
		t, ok := s.Table(p.Table)
		if !ok {
			return fmt.Errorf("stored state: parameters of a table it does not hold, %q", p.Table)
		}
		idx, ok := t.Index(p.Index)
		if !ok {
			return fmt.Errorf("stored state: parameters of an index it does not hold, %s.%s", p.Table, p.Index)
		}
		idx.Attrs = slices.DeleteFunc(idx.Attrs, func(a schema.Attr) bool {
			_, ok := a.(*postgres.IndexStorageParams)
			return ok
		})
		schema.ReplaceOrAppend(&idx.Attrs, &IndexParams{Params: p.Params})
	}
	return nil
}
