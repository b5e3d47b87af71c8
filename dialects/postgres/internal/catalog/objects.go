package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// sequenceDefaults reads the columns whose default is nextval of a
// sequence of the schema: whether the column owns it (serial, identity),
// and whether it is a serial's in all but the ownership, as hand-written
// scripts and old dumps make them: named as serial names it, used by that
// default alone, counting from 1 by 1 without bounds of its own (its
// type's largest value, no cache).
const sequenceDefaults = `WITH defaults AS (
  SELECT c.relname, a.attname, pg_get_expr(ad.adbin, ad.adrelid) AS def, s.oid AS seq, s.relname AS seqname, format_type(q.seqtypid, NULL) AS seqtype,
    COALESCE(pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname)::regclass = s.oid, false) AS owned,
    s.relname = c.relname || '_' || a.attname || '_seq'
      AND q.seqstart = 1 AND q.seqincrement = 1 AND q.seqmin = 1 AND NOT q.seqcycle AND q.seqcache = 1
      AND q.seqmax = CASE q.seqtypid WHEN 'int2'::regtype THEN 32767 WHEN 'int4'::regtype THEN 2147483647 ELSE 9223372036854775807 END
      AND (SELECT count(*) FROM pg_depend u WHERE u.refobjid = s.oid AND u.classid = 'pg_attrdef'::regclass) = 1 AS serial,
    (SELECT count(*) FROM pg_depend u WHERE u.refobjid = s.oid AND u.classid = 'pg_attrdef'::regclass) AS uses
  FROM pg_attrdef ad
  JOIN pg_class c ON c.oid = ad.adrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
  JOIN pg_depend dep ON dep.classid = 'pg_attrdef'::regclass AND dep.objid = ad.oid AND dep.refclassid = 'pg_class'::regclass
  JOIN pg_class s ON s.oid = dep.refobjid AND s.relkind = 'S'
  JOIN pg_sequence q ON q.seqrelid = s.oid
  WHERE n.nspname = current_schema() AND pg_get_expr(ad.adbin, ad.adrelid) LIKE 'nextval(%'
) `

// FixSerials implements the importer's serial reading. Atlas reads every
// column whose default is nextval('<x>_<y>_seq') as a serial; only a
// column that owns its sequence, used by its default alone, is one, and
// is one whatever the sequence is called (<t>_<c>_seq1). Another one (a sequence two tables
// share, one that starts at 1000) is its integer with its nextval default,
// so that the model does not make it a new sequence of its own. A
// sequence that is a serial's in all but the ownership (sequenceDefaults)
// stays a serial: the model's identity gives the same column and numbers,
// from a sequence the column owns, of the column's integer type; a note
// says so.
func FixSerials(ctx context.Context, conn schema.ExecQuerier, tables []*schema.Table) (map[string][]string, error) {
	rows, err := conn.QueryContext(ctx, sequenceDefaults+`SELECT relname, attname, def, owned AND uses = 1, serial, seqname, seqtype FROM defaults`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading sequence defaults: %w", err)
	}
	type col struct{ table, column string }
	type unowned struct{ seq, typ string }
	shared := map[col]string{}
	adopted := map[col]unowned{}
	// owns are the columns that own a sequence their default alone uses,
	// by its name: serials, whatever the sequence is called (a table
	// rebuilt through a renamed backup names its new one <t>_<c>_seq1,
	// which Atlas does not read as a serial).
	owns := map[col]string{}
	for rows.Next() {
		var c col
		var def, seq, typ string
		var owned, serial bool
		if err := rows.Scan(&c.table, &c.column, &def, &owned, &serial, &seq, &typ); err != nil {
			rows.Close()
			return nil, err
		}
		switch {
		case owned:
			owns[c] = seq
		case serial:
			adopted[c] = unowned{seq, typ}
		default:
			shared[c] = def
		}
	}
	if err := CloseRows(rows); err != nil {
		return nil, err
	}
	notes := map[string][]string{}
	for _, t := range tables {
		for _, c := range t.Columns {
			st, serial := c.Type.Type.(*postgres.SerialType)
			if it, ok := c.Type.Type.(*schema.IntegerType); ok && !serial {
				seq, own := owns[col{t.Name, c.Name}]
				if !own {
					continue
				}
				st = &postgres.SerialType{SequenceName: seq}
				st.SetType(it)
				c.Type.Type, c.Type.Raw, c.Default = st, st.T, nil
				continue
			}
			if !serial {
				continue
			}
			it := &schema.IntegerType{T: map[string]string{"smallserial": "smallint", "serial2": "smallint", "serial": "integer", "serial4": "integer"}[st.T]}
			if it.T == "" {
				it.T = "bigint"
			}
			if a, ok := adopted[col{t.Name, c.Name}]; ok {
				notes[t.Name] = append(notes[t.Name], fmt.Sprintf("column %s: sequence %s, which no column owns (%s), is read as the column's identity, "+
					"which numbers the same and makes it as %s does: owned by the column, of type %s", c.Name, a.seq, a.typ, st.T, it.T))
				continue
			}
			def, ok := shared[col{t.Name, c.Name}]
			if !ok {
				continue
			}
			c.Type.Type, c.Type.Raw = it, it.T
			c.Default = &schema.RawExpr{X: def}
		}
	}
	return notes, nil
}

// ReadRawObjects implements the importer's raw object reading: the
// sequences no column owns, the functions and the triggers of the current
// schema and its domains (not an extension's, nor the on_update triggers and functions
// schemagen makes for tables of the model, which tables marks), each with
// the statement that creates it; and what it cannot create, described.
func ReadRawObjects(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table, onUpdateName func(table string) string) ([]dialects.RawObject, []string, error) {
	var objs []dialects.RawObject
	var left []string
	// Domains, before the sequences, functions and tables that use them.
	// Their CHECKs only: NOT NULL is typnotnull, which PostgreSQL 18 also
	// keeps as a constraint (pos_not_null), and CREATE DOMAIN refuses both
	// (42P17, redundant NOT NULL); a name given to it is not kept.
	rows, err := conn.QueryContext(ctx, `SELECT t.typname, format_type(t.typbasetype, t.typtypmod), t.typnotnull, coalesce(t.typdefault, ''),
  coalesce((SELECT string_agg(' CONSTRAINT ' || quote_ident(k.conname) || ' ' || pg_get_constraintdef(k.oid), '' ORDER BY k.conname) FROM pg_constraint k WHERE k.contypid = t.oid AND k.contype = 'c'), '')
FROM pg_type t
WHERE t.typnamespace = current_schema()::regnamespace AND t.typtype = 'd'
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_type'::regclass AND e.objid = t.oid AND e.deptype = 'e')
ORDER BY 1`)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: reading domains: %w", err)
	}
	for rows.Next() {
		var name, base, def, checks string
		var notNull bool
		if err := rows.Scan(&name, &base, &notNull, &def, &checks); err != nil {
			rows.Close()
			return nil, nil, err
		}
		sql := "CREATE DOMAIN " + lexical.Ident(name) + " AS " + base
		if def != "" {
			sql += " DEFAULT " + def
		}
		if notNull {
			sql += " NOT NULL"
		}
		objs = append(objs, dialects.RawObject{Kind: "domain", Name: name, SQL: sql + checks, Before: true})
	}
	if err := CloseRows(rows); err != nil {
		return nil, nil, err
	}
	rows, err = conn.QueryContext(ctx, sequenceDefaults+`SELECT s.sequencename, s.data_type::text, s.start_value, s.min_value, s.max_value, s.increment_by, s.cache_size, s.cycle,
  COALESCE((SELECT format('%I.%I', t.relname, a.attname) FROM pg_depend o JOIN pg_class t ON t.oid = o.refobjid JOIN pg_attribute a ON a.attrelid = o.refobjid AND a.attnum = o.refobjsubid
    WHERE o.classid = 'pg_class'::regclass AND o.objid = c.oid AND o.deptype = 'a'), ''), COALESCE((SELECT t.relname FROM pg_depend o JOIN pg_class t ON t.oid = o.refobjid
    WHERE o.classid = 'pg_class'::regclass AND o.objid = c.oid AND o.deptype = 'a'), '')
FROM pg_sequences s JOIN pg_class c ON c.relname = s.sequencename AND c.relnamespace = s.schemaname::regnamespace
WHERE s.schemaname = current_schema()
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND (d.deptype IN ('i', 'e')
    -- A sequence a column owns is its identity, unless other defaults use it too.
    OR d.deptype = 'a' AND (SELECT count(*) FROM pg_depend u WHERE u.refobjid = c.oid AND u.classid = 'pg_attrdef'::regclass) <= 1))
  AND NOT EXISTS (SELECT 1 FROM defaults f WHERE f.seq = c.oid AND f.serial)
ORDER BY 1`)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: reading sequences: %w", err)
	}
	for rows.Next() {
		var name, typ, owner, ownerTable string
		var start, lo, hi, inc, cache int64
		var cycle bool
		if err := rows.Scan(&name, &typ, &start, &lo, &hi, &inc, &cache, &cycle, &owner, &ownerTable); err != nil {
			rows.Close()
			return nil, nil, err
		}
		sql := fmt.Sprintf("CREATE SEQUENCE %s AS %s INCREMENT BY %d MINVALUE %d MAXVALUE %d START WITH %d CACHE %d", lexical.Ident(name), typ, inc, lo, hi, start, cache)
		if cycle {
			sql += " CYCLE"
		}
		objs = append(objs, dialects.RawObject{Kind: "sequence", Name: name, SQL: sql, Before: true})
		if owner != "" {
			// A column owns it, and other defaults use it too: it is owned
			// again once the tables are made.
			objs = append(objs, dialects.RawObject{Kind: "sequence owner", Name: name, Tables: []string{ownerTable}, SQL: "ALTER SEQUENCE " + lexical.Ident(name) + " OWNED BY " + owner})
		}
	}
	if err := CloseRows(rows); err != nil {
		return nil, nil, err
	}
	own := map[string]bool{}
	for _, t := range tables {
		for _, c := range t.Columns {
			if c.OnUpdate {
				own[onUpdateName(t.Name)] = true
			}
		}
	}
	calledBy := map[string][]string{}
	rows, err = conn.QueryContext(ctx, `SELECT c.relname, t.tgname, pg_get_triggerdef(t.oid), p.proname
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace ORDER BY 1, 2`)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: reading triggers: %w", err)
	}
	for rows.Next() {
		var table, name, def, fn string
		if err := rows.Scan(&table, &name, &def, &fn); err != nil {
			rows.Close()
			return nil, nil, err
		}
		calledBy[fn] = append(calledBy[fn], table)
		if own[name] && name == onUpdateName(table) {
			continue
		}
		objs = append(objs, dialects.RawObject{Kind: "trigger", Name: table + "." + name, Tables: []string{table}, SQL: def, Late: true})
	}
	if err := CloseRows(rows); err != nil {
		return nil, nil, err
	}
	rows, err = conn.QueryContext(ctx, `SELECT p.proname, p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')', p.prokind::text, l.lanname,
  CASE WHEN p.prokind IN ('f', 'p') THEN pg_get_functiondef(p.oid) ELSE '' END,
  EXISTS (SELECT 1 FROM pg_depend d JOIN pg_type y ON y.oid = d.refobjid
    WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.refclassid = 'pg_type'::regclass AND y.typrelid <> 0)
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = current_schema()::regnamespace
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e')
ORDER BY 2`)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: reading functions: %w", err)
	}
	for rows.Next() {
		var name, sig, kind, lang, def string
		var rowType bool
		if err := rows.Scan(&name, &sig, &kind, &lang, &def, &rowType); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if own[name] {
			continue
		}
		if def == "" {
			left = append(left, fmt.Sprintf("aggregate %s: left out: the model has no construct for it and schemagen does not read its definition; add it as a raw block", sig))
			continue
		}
		// A SQL function's body is checked against the tables when it is
		// created, and a table's row type in its signature must exist: it
		// comes after them; other languages' bodies run later, and
		// defaults, CHECKs and triggers may call them: before.
		objs = append(objs, dialects.RawObject{Kind: "function", Name: sig, SQL: strings.TrimSpace(def), Before: lang != "sql" && !rowType, Tables: calledBy[name]})
	}
	if err := CloseRows(rows); err != nil {
		return nil, nil, err
	}
	// Aggregates, after the functions they call; rules, and the tables'
	// inheritance, after the tables.
	rows, err = conn.QueryContext(ctx, `SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
  'CREATE AGGREGATE ' || quote_ident(p.proname) || '(' || pg_get_function_identity_arguments(p.oid) || ') (SFUNC = ' || a.aggtransfn::regproc::text ||
  ', STYPE = ' || format_type(a.aggtranstype, NULL) ||
  CASE WHEN a.aggfinalfn <> 0 THEN ', FINALFUNC = ' || a.aggfinalfn::regproc::text ELSE '' END ||
  CASE WHEN a.agginitval IS NOT NULL THEN ', INITCOND = ' || quote_literal(a.agginitval) ELSE '' END || ')'
FROM pg_proc p JOIN pg_aggregate a ON a.aggfnoid = p.oid
WHERE p.pronamespace = current_schema()::regnamespace AND a.aggkind = 'n' AND a.aggcombinefn = 0 AND a.aggmtransfn = 0 AND a.aggsortop = 0
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_proc'::regclass AND e.objid = p.oid AND e.deptype = 'e')
UNION ALL
SELECT c.relname || '.' || r.rulename, pg_get_ruledef(r.oid)
FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
WHERE c.relnamespace = current_schema()::regnamespace AND r.rulename <> '_RETURN'
UNION ALL
SELECT c.relname || ' inherits ' || p.relname, 'ALTER TABLE ' || quote_ident(c.relname) || ' INHERIT ' || quote_ident(p.relname)
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND p.relkind = 'r'
ORDER BY 1`)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: reading aggregates, rules and inheritance: %w", err)
	}
	var later []dialects.RawObject
	for rows.Next() {
		var name, sql string
		if err := rows.Scan(&name, &sql); err != nil {
			rows.Close()
			return nil, nil, err
		}
		switch {
		case strings.HasPrefix(sql, "CREATE AGGREGATE"):
			objs = append(objs, dialects.RawObject{Kind: "aggregate", Name: name, SQL: sql})
			plain, _, _ := strings.Cut(name, "(")
			left = slices.DeleteFunc(left, func(l string) bool { return strings.HasPrefix(l, "aggregate "+plain+"(") })
		case strings.Contains(name, " inherits "):
			child, parent, _ := strings.Cut(name, " inherits ")
			objs = append(objs, dialects.RawObject{Kind: "inheritance", Name: name, SQL: sql, Tables: []string{child, parent}})
		default:
			table, _, _ := strings.Cut(name, ".")
			// A rule may write to any table: after them all.
			later = append(later, dialects.RawObject{Kind: "rule", Name: name, SQL: strings.TrimSuffix(sql, ";"), Tables: []string{table}, Late: true})
		}
	}
	if err := CloseRows(rows); err != nil {
		return nil, nil, err
	}
	objs = append(objs, later...)
	// Types of the schema's own but enums, which the model reads itself,
	// and domains, read above.
	rows, err = conn.QueryContext(ctx, `SELECT t.typname, CASE t.typtype WHEN 'r' THEN 'range type' WHEN 'm' THEN 'multirange type' ELSE 'composite type' END
FROM pg_type t LEFT JOIN pg_class c ON c.oid = t.typrelid
WHERE t.typnamespace = current_schema()::regnamespace AND t.typtype IN ('r', 'm', 'c') AND (t.typtype <> 'c' OR c.relkind = 'c')
  AND NOT EXISTS (SELECT 1 FROM pg_depend e WHERE e.classid = 'pg_type'::regclass AND e.objid = t.oid AND e.deptype = 'e')
ORDER BY 1`)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: reading types: %w", err)
	}
	for rows.Next() {
		var name, kind string
		if err := rows.Scan(&name, &kind); err != nil {
			rows.Close()
			return nil, nil, err
		}
		left = append(left, fmt.Sprintf("%s %s: left out: the model has no construct for it and schemagen does not read its definition; add it as a raw block before the tables", kind, name))
	}
	if err := CloseRows(rows); err != nil {
		return nil, nil, err
	}
	// Partitioned tables and their partitions, which Atlas reads as plain
	// tables and leaves out.
	rows, err = conn.QueryContext(ctx, `SELECT c.relname, coalesce((SELECT p.relname FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent WHERE i.inhrelid = c.oid AND c.relispartition), ''),
  CASE WHEN c.relispartition THEN pg_get_expr(c.relpartbound, c.oid) ELSE '' END, CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) ELSE '' END
FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND (c.relispartition OR c.relkind = 'p')
ORDER BY 1`)
	if err != nil {
		return nil, nil, fmt.Errorf("postgres: reading partitions: %w", err)
	}
	// The tables the model partitions hold their parts.
	parted := map[string]bool{}
	for _, t := range tables {
		parted[t.Name] = t.Partition != nil
	}
	for rows.Next() {
		var name, parent, bound, key string
		if err := rows.Scan(&name, &parent, &bound, &key); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if parted[name] || parted[parent] {
			continue
		}
		if parent != "" {
			left = append(left, fmt.Sprintf("table %s left out: it is a partition of %s (%s), which the model has no construct for; the model's %s is one plain table, which holds its rows", name, parent, bound, parent))
		}
		if key != "" {
			left = append(left, fmt.Sprintf("table %s: PARTITION BY %s has no construct in the model: made as a plain table", name, key))
		}
	}
	return objs, left, CloseRows(rows)
}

// ReadNotNulls implements the importer's reading of NOT NULL constraints.
// PostgreSQL 18 keeps each NOT NULL as a constraint (contype n) with a
// name, which the DDL may give (CONSTRAINT name NOT NULL) or a rename
// change, and a state (NOT VALID, NO INHERIT). The model's null = false
// makes one named <table>_<column>_not_null, valid and inherited: each
// other one is described, by table. Earlier versions have none.
func ReadNotNulls(ctx context.Context, conn schema.ExecQuerier, tables []*compiler.Table) (map[string][]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT c.relname, a.attname, k.conname, k.convalidated, k.connoinherit
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
WHERE k.contype = 'n' AND c.relnamespace = current_schema()::regnamespace
  AND (k.conname <> c.relname || '_' || a.attname || '_not_null' OR NOT k.convalidated OR k.connoinherit)
ORDER BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("postgres: reading NOT NULL constraints: %w", err)
	}
	imported := map[string]bool{}
	for _, t := range tables {
		imported[t.Name] = true
	}
	notes := map[string][]string{}
	for rows.Next() {
		var table, column, name string
		var valid, noInherit bool
		if err := rows.Scan(&table, &column, &name, &valid, &noInherit); err != nil {
			rows.Close()
			return nil, err
		}
		if !imported[table] {
			continue
		}
		var lost []string
		if def := table + "_" + column + "_not_null"; name != def {
			lost = append(lost, "its name (it makes "+def+")")
		}
		if !valid {
			lost = append(lost, "NOT VALID (it makes it valid, which fails where rows hold NULL)")
		}
		if noInherit {
			lost = append(lost, "NO INHERIT (it makes it inherited)")
		}
		notes[table] = append(notes[table], fmt.Sprintf("column %s: NOT NULL constraint %s: left out; the column's null = false stands for it, without %s", column, name, strings.Join(lost, " and ")))
	}
	return notes, CloseRows(rows)
}

// CloseRows closes rows and returns the first error of reading or closing
// them.
func CloseRows(rows interface {
	Err() error
	Close() error
}) error {
	err := rows.Err()
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	return err
}
