// Package online is PostgreSQL's migration planner and what applying its
// plans needs: PlanStmts (indexes built and dropped CONCURRENTLY, CHECKs and
// foreign keys added NOT VALID and validated later, SET NOT NULL through a
// validated CHECK, lock_timeout before strong locks; the hazards of every
// statement), resuming a file an earlier apply stopped in, and the sessions
// an interrupted apply cancels.
//
// It stands alone because it is the dialect's Online and Sessions parts and
// nothing else: it plans from Atlas's changes and the live database, not
// from the model, and the dialect package only hands those parts to it
// (online.go, hazards.go).
package online

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres/internal/atlasdrv"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
	"github.com/schemagen/schemagen/dialects/postgres/internal/renames"
)

// LockTimeout is how long a statement of an online plan waits for a strong
// lock before it gives up: while it waits, every other session's access to
// the table queues behind it.
const LockTimeout = "5s"

// PlanStmts implements dialects.Online. Each change of a table is planned
// on its own, so that every statement carries the hazards of one change.
// Online, indexes are built and dropped CONCURRENTLY, CHECKs and foreign
// keys are added NOT VALID and validated by a later statement, and SET NOT
// NULL goes through a validated CHECK; the statements that need strong locks
// wait at most LockTimeout for them.
func PlanStmts(ctx context.Context, drv migrate.Driver, changes []schema.Change, online bool, opts ...migrate.PlanOption) ([]hazard.Stmt, error) {
	added, err := enumChanges(changes)
	if err != nil {
		return nil, err
	}
	if err := hazard.NotNullWithoutValue("PostgreSQL", changes, func(c *schema.Column) bool {
		identity := slices.ContainsFunc(c.Attrs, func(a schema.Attr) bool { _, ok := a.(*postgres.Identity); return ok })
		return identity || slices.ContainsFunc(c.Attrs, func(a schema.Attr) bool { _, ok := a.(*schema.GeneratedExpr); return ok })
	}); err != nil {
		return nil, err
	}
	renames.Predicates(drv, changes)
	if err := hazard.TimeToText("PostgreSQL", changes); err != nil {
		return nil, err
	}
	if err := hazard.BytesText("PostgreSQL", changes); err != nil {
		return nil, err
	}
	if err := hazard.BoolText("PostgreSQL", changes); err != nil {
		return nil, err
	}
	if q, ok := drv.(schema.ExecQuerier); ok {
		if err := typeChanges(ctx, q, changes); err != nil {
			return nil, err
		}
	}
	if err := partitionRefusal(changes); err != nil {
		return nil, err
	}
	defaultsAroundUsing(changes)
	// ALTER COLUMN ... TYPE rebuilds the CHECKs over the column from their
	// printed text, which is not the model's (found by the plan oracle,
	// seed 60606: a CHECK IN list over a varchar widened).
	changes = hazard.RebuildChecksOfRetyped(changes)
	// PostgreSQL binds a foreign key to the index it was created with and
	// refuses to drop that index while the key stands (2BP01).
	changes = hazard.RebindForeignKeys(changes)
	// After the rebinding: a key renamed in place keeps the foreign keys
	// bound to it.
	hazard.RenameIndexes(drv, changes, renames.Index)
	var deferred map[string]bool
	if online {
		changes, deferred = hazard.DeferNewTableKeys(changes, func(t *schema.Table) bool { return atlasdrv.PartitionKey(t) != "" })
	}
	referenced, pinned := referencedByNewFKs(changes)
	p := &planner{ctx: ctx, drv: drv, opts: opts, online: online, referenced: referenced, pinned: pinned, builtOnline: uniqueKeysAdded(changes), dropped: droppedColumns(changes),
		partsJoined: partsJoined(changes), names: map[string]bool{}, newTableKeys: deferred}
	// The indexes, unique keys and CHECKs a plan replaces are dropped after
	// their replacements are built (online: a unique constraint's drop
	// goes to the second file, after the new key is built CONCURRENTLY and
	// made a constraint), so that nothing goes unenforced meanwhile, nor
	// for good when the second file fails.
	p.late = hazard.ReplacedLater(changes, 0)
	out, err := hazard.PlanInOrderLate(ctx, drv, changes, p.late, p.tableChange, func(src schema.Change, s *hazard.Stmt) {
		if d, ok := src.(*schema.DropTable); ok {
			s.Hazards = append(s.Hazards, dropHazard(d.T.Name, "the table and all its rows are lost"))
			s.Nolint = hazard.DropNolint(d.T.Name, "")
		}
	}, opts...)
	if err != nil {
		return nil, err
	}
	if err := newEnumValueUses(added, out); err != nil {
		return nil, err
	}
	if online {
		out = withLockTimeout(out)
		prechecksFirst(out)
	}
	return out, nil
}

// prechecksFirst copies the pre-checks of the statements an online plan
// runs in its second file (a unique index built CONCURRENTLY) to the first
// statement of the first file: the migration then stops before anything
// runs, instead of after its first file.
func prechecksFirst(stmts []hazard.Stmt) {
	first := slices.IndexFunc(stmts, func(s hazard.Stmt) bool { return !s.NoTx && !s.Later })
	if first < 0 {
		return
	}
	for _, s := range stmts {
		if (s.NoTx || s.Later) && s.Precheck != "" {
			stmts[first].Precheck = strings.TrimPrefix(stmts[first].Precheck+"\n"+s.Precheck, "\n")
		}
	}
}

// withLockTimeout sets lock_timeout before the statements that wait for a
// lock blocking writes: for the transaction (SET LOCAL) of the statements
// run in one, for the session before the later ones, run outside it. The
// concurrent index builds come before it: they wait for older transactions
// by design.
func withLockTimeout(stmts []hazard.Stmt) []hazard.Stmt {
	var inTx, later bool
	for _, s := range stmts {
		strong := false
		for _, h := range s.Hazards {
			strong = strong || h.Blocks >= hazard.BlocksWrites
		}
		switch {
		case !strong || s.NoTx:
		case s.Later:
			later = true
		default:
			inTx = true
		}
	}
	var out []hazard.Stmt
	if inTx {
		out = append(out, hazard.Stmt{Cmd: "SET LOCAL lock_timeout = '" + LockTimeout + "'",
			Comment: "give up instead of queueing every query of a table behind a strong lock for long"})
	}
	if later {
		out = append(out, hazard.Stmt{Cmd: "SET lock_timeout = '" + LockTimeout + "'", Later: true,
			Comment: "give up instead of queueing every query of a table behind a strong lock for long"})
	}
	out = append(out, stmts...)
	if later {
		// The session goes on to the next files: give it back its default.
		out = append(out, hazard.Stmt{Cmd: "RESET lock_timeout", Later: true})
	}
	return out
}

type planner struct {
	ctx        context.Context
	drv        migrate.Driver
	opts       []migrate.PlanOption
	online     bool
	referenced map[string]bool // tables a foreign key added by the plan references
	// pinned are the referenced keys that a foreign key in a new table or
	// replacing another needs within the first file (referencedByNewFKs).
	pinned map[string]bool
	// builtOnline are the unique keys the plan adds to existing tables.
	builtOnline map[string]bool
	dropped     map[string][]string // the columns the plan drops, by table
	late        func(*schema.Table, schema.Change) bool
	// partsJoined are the parts the plan adds to partitioned tables, or
	// attaches again (partsJoined); names the parts' index names it chose.
	partsJoined, names map[string]bool
	// newTableKeys are the new tables whose foreign keys deferNewTableKeys
	// adds after them: the tables are empty, nothing to pre-check.
	newTableKeys map[string]bool
}

// droppedColumns are the columns the changes drop, by table.
func droppedColumns(changes []schema.Change) map[string][]string {
	out := map[string][]string{}
	for _, c := range changes {
		if m, ok := c.(*schema.ModifyTable); ok {
			for _, sc := range m.Changes {
				if d, ok := sc.(*schema.DropColumn); ok {
					out[m.T.Name] = append(out[m.T.Name], d.C.Name)
				}
			}
		}
	}
	return out
}

// overDropped reports whether the plan drops a column of table, which index
// i may cover (a part, an expression part or its predicate): PostgreSQL
// drops such an index with the column, so it must be dropped before, in the
// same transaction, not CONCURRENTLY in the file after. DROP COLUMN locks
// the table ACCESS EXCLUSIVE in that transaction anyway, so a plain DROP
// INDEX there costs nothing more.
func (p *planner) overDropped(table string, _ *schema.Index) bool {
	return len(p.dropped[table]) > 0
}

// covers reports whether index i of table may cover a column the plan
// drops: a part that is one, or (not read here) an expression part or a
// predicate.
func (p *planner) covers(table string, i *schema.Index) bool {
	cols := p.dropped[table]
	if len(cols) == 0 {
		return false
	}
	for _, a := range i.Attrs {
		if _, ok := a.(*postgres.IndexPredicate); ok {
			return true
		}
	}
	for _, part := range i.Parts {
		if part.C == nil || slices.Contains(cols, part.C.Name) {
			return true
		}
	}
	return false
}

// plan has Atlas plan one change.
func (p *planner) plan(c schema.Change) ([]hazard.Stmt, error) {
	return hazard.PlanOne(p.ctx, p.drv, c, p.opts...)
}

// one plans a single change of table t in form f, with the change's hazards
// in that form on each statement.
func (p *planner) one(t *schema.Table, c schema.Change, f hazard.Form) ([]hazard.Stmt, error) {
	ss, err := p.plan(&schema.ModifyTable{T: t, Changes: []schema.Change{c}})
	hs := changeHazards(t, c, f)
	for i := range ss {
		ss[i].Hazards = append(ss[i].Hazards, hs...)
	}
	if n := len(ss); n > 0 {
		ss[n-1].Precheck = precheck(t, c)
	}
	return ss, err
}

func (p *planner) tableChange(t *schema.Table, c schema.Change) ([]hazard.Stmt, error) {
	name := t.Name
	switch c := c.(type) {
	case *schema.AddIndex:
		_, constraint := atlasdrv.UniqueConstraint(c.I.Attrs)
		if p.online && atlasdrv.PartitionKey(t) != "" && !(c.I.Unique && p.pinned[keyOf(name, c.I)]) {
			// PostgreSQL builds no index of a partitioned table
			// CONCURRENTLY (0A000): ON ONLY, then each part's
			// (partindex.go).
			return p.partIndex(t, c)
		}
		if !p.online || c.I.Unique && p.pinned[keyOf(name, c.I)] {
			// A unique key that a new table's foreign key, or one
			// replacing another in the first file, needs is created with
			// the table's other changes, before the key.
			return p.one(t, c, hazard.Form{AlterTable: constraint})
		}
		// A unique key only foreign keys added to existing tables need is
		// built CONCURRENTLY too: those keys are added after it, in the
		// second file (AddForeignKey below).
		idx := *c.I
		idx.Attrs = withoutUniqueConstraint(idx.Attrs)
		ss, err := p.one(t, &schema.AddIndex{I: &idx, Extra: append(c.Extra, &postgres.Concurrently{})}, hazard.Form{Concurrently: true})
		if err != nil {
			return nil, err
		}
		for i := range ss {
			ss[i].NoTx = true
		}
		if constraint {
			ss = append(ss, hazard.Stmt{
				Cmd:     fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s UNIQUE USING INDEX %s", ident(name), ident(c.I.Name), ident(c.I.Name)),
				Comment: fmt.Sprintf("turn index %q into a unique constraint", c.I.Name),
				Later:   true,
				Hazards: changeHazards(t, c, hazard.Form{Table: name, AlterTable: true, UsingIndex: true}),
			})
		}
		return ss, nil
	case *schema.RenameIndex:
		return p.one(t, c, hazard.Form{RenamesIndex: true})
	case *schema.DropIndex:
		_, constraint := atlasdrv.UniqueConstraint(c.I.Attrs)
		if p.online && !constraint && !p.overDropped(name, c.I) && atlasdrv.PartitionKey(t) == "" {
			ss, err := p.one(t, &schema.DropIndex{I: c.I, Extra: append(c.Extra, &postgres.Concurrently{})}, hazard.Form{Concurrently: true})
			for i := range ss {
				ss[i].NoTx = true
			}
			return ss, err
		}
		ss, err := p.one(t, c, hazard.Form{})
		// Not when a foreign key references its columns: PostgreSQL binds
		// a key added meanwhile to the old index (see RebindForeignKeys).
		if p.online && constraint && !p.overDropped(name, c.I) && p.late(t, c) && !p.referenced[keyOf(name, c.I)] && !referencedKey(t, c.I) {
			for i := range ss {
				ss[i].Later = true
			}
		}
		return ss, err
	case *schema.ModifyIndex:
		// A comment alone is COMMENT ON INDEX: nothing to build.
		if p.online && c.Change != schema.ChangeComment {
			switch {
			case atlasdrv.PartitionKey(t) != "":
				// No index of a partitioned table is built or dropped
				// CONCURRENTLY: the old one is dropped (a brief lock of
				// the table and its parts) and the new one made as
				// partIndex makes one; the table has neither until the
				// online file has attached every part's.
				drop, err := p.one(t, &schema.DropIndex{I: c.From}, hazard.Form{})
				if err != nil {
					return nil, err
				}
				add, err := p.partIndex(t, &schema.AddIndex{I: c.To})
				return append(drop, add...), err
			case p.replaceable(t, c):
				return p.replaceIndex(t, c)
			case p.rebuildable(t, c):
				return p.rebuildIndex(t, c)
			case constraintOf(c.From) && constraintOf(c.To) && !p.covers(name, c.From):
				// A unique constraint given other columns: dropped in the
				// first file, built as a new one (CONCURRENTLY, USING INDEX)
				// in the second, not by a plain ADD CONSTRAINT (PG101; plan
				// oracle, evolution 98383295244). Neither holds meanwhile.
				drop, err := p.one(t, &schema.DropIndex{I: c.From}, hazard.Form{AlterTable: true})
				if err != nil {
					return nil, err
				}
				add, err := p.tableChange(t, &schema.AddIndex{I: c.To})
				return append(drop, add...), err
			}
		}
		return p.one(t, c, hazard.Form{})
	case *schema.ModifyForeignKey:
		if !p.online {
			return p.one(t, c, hazard.Form{AlterTable: true})
		}
		// In one transaction: the key is never missing; the new one is
		// added NOT VALID and validated without blocking writes.
		drop, err := p.one(t, &schema.DropForeignKey{F: c.From}, hazard.Form{AlterTable: true})
		if err != nil {
			return nil, err
		}
		add, err := p.notValid(t, c.To.Symbol, &schema.AddForeignKey{F: c.To, Extra: []schema.Clause{&postgres.NotValid{}}})
		if c.To.RefTable != nil && p.builtOnline[keyOfColumns(c.To.RefTable.Name, c.To.RefColumns)] {
			// The unique key it now references is built CONCURRENTLY by
			// this plan: as a new table's key (hazard.DeferNewTableKeys),
			// the new one is added after it, in the second file, and is
			// missing meanwhile; building the key in the first file would
			// lock the table for the build (PG111; plan oracle, evolution
			// 94141282586).
			for i := range add {
				add[i].Later = true
			}
		}
		return append(drop, add...), err
	case *schema.AddCheck:
		if !p.online {
			return p.one(t, c, hazard.Form{AlterTable: true})
		}
		return p.notValid(t, c.C.Name, &schema.AddCheck{C: c.C, Extra: append(c.Extra, &postgres.NotValid{})})
	case *schema.ModifyCheck:
		if !p.online {
			return p.one(t, c, hazard.Form{AlterTable: true})
		}
		drop, err := p.one(t, &schema.DropCheck{C: c.From}, hazard.Form{AlterTable: true})
		if err != nil {
			return nil, err
		}
		add, err := p.notValid(t, c.To.Name, &schema.AddCheck{C: c.To, Extra: []schema.Clause{&postgres.NotValid{}}})
		return append(drop, add...), err
	case *schema.AddForeignKey:
		if !p.online {
			return p.one(t, c, hazard.Form{AlterTable: true})
		}
		ss, err := p.notValid(t, c.F.Symbol, &schema.AddForeignKey{F: c.F, Extra: append(c.Extra, &postgres.NotValid{})})
		if c.F.RefTable != nil && p.builtOnline[keyOfColumns(c.F.RefTable.Name, c.F.RefColumns)] && !p.pinned[keyOfColumns(c.F.RefTable.Name, c.F.RefColumns)] {
			// The key it references is built CONCURRENTLY by this
			// plan: the foreign key is added after it, in the second file.
			for i := range ss {
				ss[i].Later = true
			}
		}
		if p.newTableKeys[name] {
			for i := range ss {
				ss[i].Precheck = ""
			}
		}
		return ss, err
	case *schema.ModifyColumn:
		return p.modifyColumn(t, c)
	case *schema.DropColumn:
		ss, err := p.one(t, c, hazard.Form{AlterTable: true})
		for i := range ss {
			ss[i].Nolint = hazard.DropNolint(name, c.C.Name)
		}
		return ss, err
	case *schema.ModifyAttr:
		d, dropped := c.To.(*atlasdrv.PartDropped)
		// DROP TABLE of the part's table, which lint reports as DS102.
		ss, err := p.one(t, c, hazard.Form{AlterTable: !dropped})
		for i := range ss {
			if dropped {
				ss[i].Nolint = hazard.PartNolint(name, d.Part.Name)
			}
		}
		return ss, err
	default:
		// Atlas writes the other changes as ALTER TABLE (a comment as
		// COMMENT ON, which the plan counts alike).
		return p.one(t, c, hazard.Form{AlterTable: true})
	}
}

// referencedKey reports whether a foreign key of t's schema references
// the columns of index i of t.
func referencedKey(t *schema.Table, i *schema.Index) bool {
	if t.Schema == nil {
		return false
	}
	key := keyOf(t.Name, i)
	for _, o := range t.Schema.Tables {
		for _, fk := range o.ForeignKeys {
			if fk.RefTable != nil && fk.RefTable.Name == t.Name && keyOfColumns(t.Name, fk.RefColumns) == key {
				return true
			}
		}
	}
	return false
}

// replaceable reports whether index change c can be made by building the
// new index beside the old one: not a unique constraint's index, nor one a
// foreign key may depend on, nor one over a column the plan drops.
func (p *planner) replaceable(t *schema.Table, c *schema.ModifyIndex) bool {
	return !p.covers(t.Name, c.From) && keyFree(t, c)
}

// rebuildable reports whether index change c can be made by dropping the
// old index and building the new one CONCURRENTLY in the second file
// (rebuildIndex): as replaceable, and the new index is no unique
// constraint, nor a key a foreign key the plan adds references (which
// needs it in the first file).
func (p *planner) rebuildable(t *schema.Table, c *schema.ModifyIndex) bool {
	if _, constraint := atlasdrv.UniqueConstraint(c.To.Attrs); constraint || c.To.Unique && p.referenced[keyOf(t.Name, c.To)] {
		return false
	}
	return keyFree(t, c)
}

// keyFree reports whether index change c leaves keys be: the index is no
// unique constraint's, nor one a foreign key may depend on. PostgreSQL
// binds a foreign key to a unique index over exactly the columns it
// references (in any order; INCLUDE columns aside), so a unique index over
// other columns of a referenced table is free: it was not, and a changed
// INCLUDE was dropped and built again under locks (PG101; plan oracle,
// seed 94949, evolution 94949285039).
func keyFree(t *schema.Table, c *schema.ModifyIndex) bool {
	if _, constraint := atlasdrv.UniqueConstraint(c.From.Attrs); constraint {
		return false
	}
	return !c.From.Unique || !referencedKey(t, c.From)
}

// replaceIndex changes an index (its predicate, columns or uniqueness) as
// online plans build indexes: the new one is built CONCURRENTLY under a
// name of its own, the old one dropped CONCURRENTLY, the new one renamed
// (SHARE UPDATE EXCLUSIVE, brief), all in the second file. A plain DROP
// and CREATE would block writes for the whole build.
func (p *planner) replaceIndex(t *schema.Table, c *schema.ModifyIndex) ([]hazard.Stmt, error) {
	tmp := c.To.Name + "_new"
	if len(tmp) > 63 {
		tmp = tmp[len(tmp)-63:]
	}
	idx := *c.To
	idx.Name = tmp
	build, err := p.one(t, &schema.AddIndex{I: &idx, Extra: []schema.Clause{&postgres.Concurrently{}}}, hazard.Form{Concurrently: true})
	if err != nil {
		return nil, err
	}
	drop, err := p.one(t, &schema.DropIndex{I: c.From, Extra: []schema.Clause{&postgres.Concurrently{}}}, hazard.Form{Concurrently: true})
	if err != nil {
		return nil, err
	}
	ss := append(build, drop...)
	ss = append(ss, hazard.Stmt{Cmd: fmt.Sprintf("ALTER INDEX %s RENAME TO %s", ident(tmp), ident(c.To.Name)),
		Comment: fmt.Sprintf("give index %q its name", c.To.Name)})
	for i := range ss {
		ss[i].NoTx = true
	}
	return ss, nil
}

// rebuildIndex changes an index over a column the plan drops (a key moved
// to new columns, with its index): PostgreSQL would drop the old index with
// the column, so it is dropped in the transaction of the DROP COLUMN, whose
// ACCESS EXCLUSIVE lock it shares, and the new one is built CONCURRENTLY
// in the second file. A plain CREATE INDEX there would block writes for
// the whole build (PG101). Until the second file runs, the table has
// neither index; the old one's column is gone.
func (p *planner) rebuildIndex(t *schema.Table, c *schema.ModifyIndex) ([]hazard.Stmt, error) {
	drop, err := p.one(t, &schema.DropIndex{I: c.From}, hazard.Form{})
	if err != nil {
		return nil, err
	}
	build, err := p.one(t, &schema.AddIndex{I: c.To, Extra: []schema.Clause{&postgres.Concurrently{}}}, hazard.Form{Concurrently: true})
	if err != nil {
		return nil, err
	}
	for i := range build {
		build[i].NoTx = true
	}
	return append(drop, build...), nil
}

// notValid plans a constraint added NOT VALID, then its validation in a
// later statement, outside the transaction of the strong lock.
func (p *planner) notValid(t *schema.Table, constraint string, add schema.Change) ([]hazard.Stmt, error) {
	ss, err := p.one(t, add, hazard.Form{AlterTable: true, NotValid: true})
	if err != nil {
		return nil, err
	}
	return append(ss, validateStmt(t.Name, constraint)), nil
}

func validateStmt(table, constraint string) hazard.Stmt {
	return hazard.Stmt{
		Cmd:     fmt.Sprintf("ALTER TABLE %s VALIDATE CONSTRAINT %s", ident(table), ident(constraint)),
		Comment: fmt.Sprintf("validate constraint %q of table %q", constraint, table),
		Later:   true,
		Hazards: []hazard.Hazard{validateHazard(table)},
	}
}

func (p *planner) modifyColumn(t *schema.Table, c *schema.ModifyColumn) ([]hazard.Stmt, error) {
	name := t.Name
	var out []hazard.Stmt
	if g, ok := conversionGuard(t, c); ok {
		out = append(out, g)
	}
	setNotNull := c.Change.Is(schema.ChangeNull) && !c.To.Type.Null
	if !setNotNull {
		ss, err := p.one(t, c, hazard.Form{AlterTable: true})
		return append(out, ss...), err
	}
	from := c.From
	if rest := c.Change &^ schema.ChangeNull; rest != 0 {
		// The other changes first, the column still nullable.
		to := *c.To
		typ := *c.To.Type
		typ.Null = true
		to.Type = &typ
		mc := &schema.ModifyColumn{From: c.From, To: &to, Change: rest}
		ss, err := p.one(t, mc, hazard.Form{AlterTable: true})
		if err != nil {
			return nil, err
		}
		out, from = append(out, ss...), &to
	}
	set := &schema.ModifyColumn{From: from, To: c.To, Change: schema.ChangeNull}
	if !p.online {
		// A CHECK of the model proving the column is not NULL may be added
		// by this very migration, not validated yet: assume the scan.
		ss, err := p.one(t, set, hazard.Form{AlterTable: true})
		return append(out, ss...), err
	}
	// SET NOT NULL scans the table under ACCESS EXCLUSIVE unless a valid
	// CHECK proves the column has no NULL (PostgreSQL 12 and later): add one
	// NOT VALID, validate it without blocking writes, then drop it.
	check := &schema.Check{Name: notNullCheckName(name, c.To.Name), Expr: ident(c.To.Name) + " IS NOT NULL"}
	ss, err := p.notValid(t, check.Name, &schema.AddCheck{C: check, Extra: []schema.Clause{&postgres.NotValid{}}})
	if err != nil {
		return nil, err
	}
	out = append(out, ss...)
	for _, ch := range []schema.Change{set, &schema.DropCheck{C: check}} {
		ss, err := p.one(t, ch, hazard.Form{AlterTable: true, NotNullProven: true})
		if err != nil {
			return nil, err
		}
		for i := range ss {
			ss[i].Later = true
		}
		out = append(out, ss...)
	}
	return out, nil
}

// notNullCheckName names the temporary CHECK of an online SET NOT NULL,
// within PostgreSQL's 63 bytes.
func notNullCheckName(table, column string) string {
	n := table + "_" + column + "_not_null"
	if len(n) > 63 {
		n = n[len(n)-63:]
	}
	return n
}

// hasNotNullCheck tells whether the table (as the plan knows it) has a
// CHECK proving column is never NULL.
func hasNotNullCheck(t *schema.Table, column string) bool {
	for _, a := range t.Attrs {
		if c, ok := a.(*schema.Check); ok {
			e := strings.ToLower(strings.Trim(strings.TrimSpace(c.Expr), "()"))
			if e == strings.ToLower(column)+" is not null" || e == strings.ToLower(ident(column))+" is not null" {
				return true
			}
		}
	}
	return false
}

// referencedByNewFKs are the keys (table and columns, keyOf) that foreign
// keys the plan adds reference; pinned are those of them that a key
// created with a new table references: a unique index they need is built
// in the first file, while the others' is built CONCURRENTLY and the keys
// added after it (a key replacing another too: the old one is dropped in
// the first file).
func referencedByNewFKs(changes []schema.Change) (refs, pinned map[string]bool) {
	refs, pinned = map[string]bool{}, map[string]bool{}
	add := func(fk *schema.ForeignKey, pin bool) {
		if fk.RefTable != nil {
			k := keyOfColumns(fk.RefTable.Name, fk.RefColumns)
			refs[k] = true
			pinned[k] = pinned[k] || pin
		}
	}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.AddTable:
			for _, fk := range c.T.ForeignKeys {
				add(fk, true)
			}
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				switch a := sc.(type) {
				case *schema.AddForeignKey:
					add(a.F, false)
				case *schema.ModifyForeignKey:
					add(a.To, false)
				}
			}
		}
	}
	return refs, pinned
}

// uniqueKeysAdded are the keys (keyOf) of the unique indexes changes add
// to existing tables.
func uniqueKeysAdded(changes []schema.Change) map[string]bool {
	keys := map[string]bool{}
	for _, c := range changes {
		if mt, ok := c.(*schema.ModifyTable); ok {
			for _, sc := range mt.Changes {
				if a, ok := sc.(*schema.AddIndex); ok && a.I.Unique {
					keys[keyOf(mt.T.Name, a.I)] = true
				}
			}
		}
	}
	return keys
}

// keyOf names the key of table whose columns index i covers, in any order.
func keyOf(table string, i *schema.Index) string {
	var cols []*schema.Column
	for _, p := range i.Parts {
		if p.C == nil {
			return ""
		}
		cols = append(cols, p.C)
	}
	return keyOfColumns(table, cols)
}

func keyOfColumns(table string, cols []*schema.Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	slices.Sort(names)
	return table + "\x00" + strings.Join(names, "\x00")
}

func constraintOf(i *schema.Index) bool {
	_, ok := atlasdrv.UniqueConstraint(i.Attrs)
	return ok
}

func withoutUniqueConstraint(attrs []schema.Attr) []schema.Attr {
	var out []schema.Attr
	for _, a := range attrs {
		if c, ok := a.(*postgres.Constraint); ok && c.IsUnique() {
			continue
		}
		out = append(out, a)
	}
	return out
}

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Resume implements dialects.Online: a CREATE INDEX CONCURRENTLY killed
// mid-way leaves an invalid index of its name, which makes the statement
// fail when run again: it is dropped. One that the server finished although
// its apply was interrupted left a valid index: when it is the first
// statement to run, it counts as finished. The SET statements skipped (the
// file's lock_timeout) are run again on the new session.
func Resume(ctx context.Context, conn schema.ExecQuerier, skipped, todo []string) (int, error) {
	for _, s := range skipped {
		if w := words(s); len(w) > 0 && (w[0].Text == "SET" || w[0].Text == "RESET") {
			if _, err := conn.ExecContext(ctx, s); err != nil {
				return 0, err
			}
		}
	}
	finished := 0
	for i, s := range todo {
		name, ok := concurrentIndexName(s)
		if !ok {
			continue
		}
		valid, found, err := indexValid(ctx, conn, name)
		if err != nil {
			return 0, err
		}
		switch {
		case found && valid && i == 0:
			finished = 1
		case found && !valid:
			if _, err := conn.ExecContext(ctx, "DROP INDEX CONCURRENTLY IF EXISTS "+ident(name)); err != nil {
				return 0, fmt.Errorf("dropping the invalid index %s an interrupted CREATE INDEX CONCURRENTLY left: %w", name, err)
			}
		}
	}
	return finished, nil
}

// indexValid reads whether the index of the current schema named name
// exists, and whether it is valid.
func indexValid(ctx context.Context, conn schema.ExecQuerier, name string) (valid, found bool, err error) {
	rows, err := conn.QueryContext(ctx, `SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`, name)
	if err != nil {
		return false, false, err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(&valid); err != nil {
			return false, false, err
		}
		found = true
	}
	return valid, found, rows.Err()
}

// SessionID implements dialects.Sessions.
func SessionID(ctx context.Context, conn schema.ExecQuerier) (int64, error) {
	rows, err := conn.QueryContext(ctx, "SELECT pg_backend_pid()")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var id int64
	if !rows.Next() {
		return 0, errors.New("pg_backend_pid(): no row")
	}
	if err := rows.Scan(&id); err != nil {
		return 0, err
	}
	return id, rows.Err()
}

// CancelStatement implements dialects.Sessions: pg_cancel_backend. A
// transaction the statement ran in is aborted, and rolled back by its
// session.
func CancelStatement(ctx context.Context, other schema.ExecQuerier, id int64) error {
	_, err := other.ExecContext(ctx, "SELECT pg_cancel_backend($1)", id)
	return err
}

// EndSession implements dialects.Sessions: pg_terminate_backend.
func EndSession(ctx context.Context, other schema.ExecQuerier, id int64) error {
	_, err := other.ExecContext(ctx, "SELECT pg_terminate_backend($1)", id)
	return err
}

// concurrentIndexName is the name of the index a CREATE INDEX CONCURRENTLY
// statement builds.
func concurrentIndexName(stmt string) (string, bool) {
	w := words(stmt)
	if len(w) < 4 || w[0].Text != "CREATE" {
		return "", false
	}
	i := 1
	if w[i].Text == "UNIQUE" {
		i++
	}
	if i+2 >= len(w) || w[i].Text != "INDEX" || w[i+1].Text != "CONCURRENTLY" {
		return "", false
	}
	i += 2
	if i+3 < len(w) && w[i].Text == "IF" && w[i+1].Text == "NOT" && w[i+2].Text == "EXISTS" {
		i += 3
	}
	if i >= len(w) || w[i].Text == "ON" {
		return "", false
	}
	return w[i].Name, true
}

// Unfinished implements dialects.Online.
func Unfinished(ctx context.Context, conn schema.ExecQuerier) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT CASE WHEN c.relkind = 'I'
  THEN format('index %s of partitioned table %s is invalid: the index of a part is not attached to it yet (the online file of its migration builds and attaches them; migrate apply runs it)', c.relname, t.relname)
  ELSE format('index %s of table %s is invalid (an interrupted CREATE INDEX CONCURRENTLY): the next migrate apply drops and rebuilds it', c.relname, t.relname) END
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
WHERE NOT i.indisvalid AND c.relnamespace = current_schema()::regnamespace
UNION ALL
SELECT format('constraint %s of table %s is NOT VALID: existing rows are not checked yet (the next migrate apply validates it if its file says so)', conname, conrelid::regclass)
FROM pg_constraint WHERE NOT convalidated AND connamespace = current_schema()::regnamespace
ORDER BY 1`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// ErrorDetail implements dialects.ErrorDetailer: pgx's error message leaves
// out the server's DETAIL and HINT.
func ErrorDetail(err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return ""
	}
	var lines []string
	if pe.Detail != "" {
		lines = append(lines, "DETAIL: "+pe.Detail)
	}
	if pe.Hint != "" {
		lines = append(lines, "HINT: "+pe.Hint)
	}
	return strings.Join(lines, "\n")
}

// ExplainError implements dialects.Online.
func ExplainError(err error) string {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return ""
	}
	switch pe.Code {
	case "55P03":
		return "The statement gave up waiting for its lock (lock_timeout): other sessions hold locks on the table, " +
			"typically a long-running transaction, and waiting longer would have blocked every query on the table meanwhile. " +
			"Nothing of the statement was applied. Find the blockers with\n" +
			"    SELECT pid, state, xact_start, query FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0 OR pid IN (SELECT unnest(pg_blocking_pids(pid)) FROM pg_stat_activity);\n" +
			"then run `schemagen migrate apply` again when they are done."
	case "57P01", "57P02", "57P03", "08006", "08003":
		return "The connection was ended while the statement ran. Run `schemagen migrate apply` again: it resumes the file: an index that a concurrent build left invalid is dropped and built again, and a constraint left NOT VALID is validated again."
	}
	return ""
}

// enumChanges checks the plan's changes of enum types and completes its
// column changes to an enum type. PostgreSQL only adds values to an enum
// (ALTER TYPE ... ADD VALUE, which Atlas plans BEFORE or AFTER a
// neighbour); a change that removes or reorders values is refused with what
// to write instead (Atlas refuses some such changes and silently drops the
// removal of a last value). A column changed to an enum from another type
// gets USING "col"::text::"enum", which PostgreSQL needs for any such cast;
// values the enum lacks then make the statement fail.
func enumChanges(changes []schema.Change) (added map[string][]string, err error) {
	added = map[string][]string{}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.ModifyObject:
			from, ok1 := c.From.(*schema.EnumType)
			to, ok2 := c.To.(*schema.EnumType)
			if !ok1 || !ok2 {
				continue
			}
			if msg := enumEdit(from.Values, to.Values); msg != "" {
				return nil, &hazard.Refusal{Database: "PostgreSQL", Enum: from.T,
					Change:  fmt.Sprintf("the change of enum %q (%s to %s)", from.T, enumList(from.Values), enumList(to.Values)),
					Reason:  msg + ". PostgreSQL only adds values to an enum type",
					Instead: fmt.Sprintf("Instead declare a new enum with the values you want (enum %q), change the columns to it (type = enum.%s: the migration converts their values as text, and fails on a row holding a value the new enum lacks: update those rows in a data migration first), and remove the old enum in a later migration", from.T+"_v2", from.T+"_v2")}
			}
			for _, v := range to.Values {
				if !slices.Contains(from.Values, v) {
					added[from.T] = append(added[from.T], v)
				}
			}
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				mc, ok := sc.(*schema.ModifyColumn)
				if !ok || !mc.Change.Is(schema.ChangeType) {
					continue
				}
				to, ok := mc.To.Type.Type.(*schema.EnumType)
				if !ok {
					continue
				}
				if from, ok := mc.From.Type.Type.(*schema.EnumType); ok && from.T == to.T {
					continue
				}
				if !slices.ContainsFunc(mc.Extra, func(x schema.Clause) bool { _, ok := x.(*postgres.ConvertUsing); return ok }) {
					mc.Extra = append(mc.Extra, &postgres.ConvertUsing{X: lexical.Ident(mc.To.Name) + "::text::" + lexical.Ident(to.T)})
				}
			}
		}
	}
	return added, nil
}

// enumEdit says why to is not from with values added (a value removed, two
// kept values in another order), or "".
func enumEdit(from, to []string) string {
	var gone []string
	for _, v := range from {
		if !slices.Contains(to, v) {
			gone = append(gone, v)
		}
	}
	if len(gone) > 0 {
		return "it removes " + enumList(gone)
	}
	at := 0
	for _, v := range to {
		if at < len(from) && v == from[at] {
			at++
		} else if slices.Contains(from, v) {
			return "it reorders " + lexical.String(v)
		}
	}
	return ""
}

func enumList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = lexical.String(v)
	}
	return "(" + strings.Join(q, ", ") + ")"
}

// newEnumValueUses refuses a plan whose other statements name a value that
// the plan adds to an enum: PostgreSQL refuses to use a new value before the
// transaction that added it commits (55P04, "unsafe use of new value"), on
// every supported version, so the file would never apply. A string literal
// equal to the value counts as a use, wherever it is, and so does a column
// converted to the enum.
func newEnumValueUses(added map[string][]string, stmts []hazard.Stmt) error {
	for enum, values := range added {
		for _, v := range values {
			lit := lexical.String(v)
			for _, s := range stmts {
				convert := strings.Contains(s.Cmd, "::text::"+lexical.Ident(enum))
				if strings.HasPrefix(s.Cmd, "ALTER TYPE ") || !strings.Contains(s.Cmd, lit) && !convert {
					continue
				}
				if convert {
					return &hazard.Refusal{Database: "PostgreSQL", Enum: enum,
						Change:  fmt.Sprintf("a column's change to enum %q in the migration that adds %s to it", enum, lit),
						Reason:  "PostgreSQL cannot use a new enum value before the transaction that added it commits (55P04), and converting the column may give it",
						Instead: "Make two migrations: first add the value (schemagen migrate diff), then change the column in the next one. The statement is:\n" + s.Cmd}
				}
				return &hazard.Refusal{Database: "PostgreSQL", Enum: enum,
					Change:  fmt.Sprintf("the use of value %s in the migration that adds it to enum %q", lit, enum),
					Reason:  "PostgreSQL cannot use a new enum value before the transaction that added it commits (55P04)",
					Instead: "Make two migrations: first add the value (schemagen migrate diff), then use it (a default, a CHECK, an index predicate) in the next one. The statement is:\n" + s.Cmd}
			}
		}
	}
	return nil
}

// castContext is how PostgreSQL converts a value of type $1 to type $2, as
// ALTER COLUMN ... TYPE looks it up (parse_coerce.c's
// find_coercion_pathway): 'i' or 'a' when it converts one by itself
// (implicitly, or by assignment: the same type with other modifiers, a
// pg_cast entry of either context, any type to a string type by its text),
// 'e' when only an explicit cast converts it (a pg_cast entry of that
// context, a string type to any type by its text), and the empty text when nothing
// does.
const castContext = `SELECT CASE
  WHEN s = t THEN 'a'
  WHEN EXISTS (SELECT FROM pg_cast WHERE castsource = s AND casttarget = t)
    THEN (SELECT castcontext::text FROM pg_cast WHERE castsource = s AND casttarget = t)
  WHEN (SELECT typcategory FROM pg_type WHERE oid = t) = 'S' THEN 'a'
  WHEN (SELECT typcategory FROM pg_type WHERE oid = s) = 'S' THEN 'e'
  ELSE '' END
FROM (SELECT $1::regtype::oid AS s, $2::regtype::oid AS t) x`

// typeChanges completes the plan's column type changes that PostgreSQL
// cannot make by itself (42804, "cannot be cast automatically"): one that
// only an explicit cast makes (text to integer, integer to boolean) gets
// USING "col"::type, which converts every row as TiDB's MODIFY COLUMN does
// and fails on a value that does not convert; one that no cast makes (date
// to numeric, boolean to date) is refused with what to write instead. The
// dev database says which is which (pg_cast). Changes to an enum are
// enumChanges'.
func typeChanges(ctx context.Context, drv schema.ExecQuerier, changes []schema.Change) error {
	return hazard.EachTypeChange(changes, func(mt *schema.ModifyTable, mc *schema.ModifyColumn) error {
		if by := generatedUsers(mt, mc.To.Name); len(by) > 0 {
			return &hazard.Refusal{Database: "PostgreSQL", Table: mt.T.Name, Column: mc.To.Name,
				Change:  fmt.Sprintf("the change of the type of column %q", mc.To.Name),
				Reason:  fmt.Sprintf("PostgreSQL cannot alter the type of a column that %s uses (0A000)", strings.Join(by, " and ")),
				Instead: fmt.Sprintf("Make the change in three steps: remove %s from the model (one migrate diff), change the column (another), then add %s back (a third)", strings.Join(by, " and "), map[bool]string{true: "them", false: "it"}[len(by) > 1])}
		}
		if _, ok := mc.To.Type.Type.(*schema.EnumType); ok {
			return nil
		}
		if slices.ContainsFunc(mc.Extra, func(x schema.Clause) bool { _, ok := x.(*postgres.ConvertUsing); return ok }) {
			return nil
		}
		from, err := regtypeName(mc.From.Type.Type)
		if err != nil {
			return err
		}
		to, err := postgres.FormatType(mc.To.Type.Type)
		if err != nil {
			return err
		}
		how, ok := conversion(ctx, drv, from, to)
		if !ok {
			// A type the dev database does not know yet (made by the
			// same migration, as an extension's): planned as Atlas
			// plans it.
			return nil
		}
		switch how {
		case "i", "a":
		case "e":
			mc.Extra = append(mc.Extra, &postgres.ConvertUsing{X: lexical.Ident(mc.To.Name) + "::" + to})
		default:
			return &hazard.Refusal{
				Database: "PostgreSQL", Table: mt.T.Name, Column: mc.To.Name,
				Change:  fmt.Sprintf("the change of column %q from %s to %s", mc.To.Name, from, to),
				Reason:  fmt.Sprintf("PostgreSQL has no conversion from %s to %s, so ALTER COLUMN ... TYPE cannot convert the rows", from, to),
				Instead: fmt.Sprintf("Add a column of the new type beside %q, fill it from the old one in a data migration (migrations/portable), and drop %q in a later change; or, if its values may be lost, drop the column in one change and add the new one in the next", mc.To.Name, mc.To.Name),
			}
		}
		return nil
	})
}

// generatedUsers names the generated columns of mt's table, other than
// column name and kept by the change (not added by it), whose expression
// reads column name: PostgreSQL refuses ALTER COLUMN ... TYPE of such a
// column (0A000, "cannot alter type of a column used by a generated
// column"; plan oracle seed 61616, where the plan did not prove), as TiDB
// refuses its MODIFY COLUMN (3106).
func generatedUsers(mt *schema.ModifyTable, name string) []string {
	added := map[string]bool{}
	for _, c := range mt.Changes {
		if a, ok := c.(*schema.AddColumn); ok {
			added[a.C.Name] = true
		}
	}
	uses := regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_$])`)
	var by []string
	for _, c := range mt.T.Columns {
		for _, a := range c.Attrs {
			if g, ok := a.(*schema.GeneratedExpr); ok && c.Name != name && !added[c.Name] && uses.MatchString(g.Expr) {
				by = append(by, fmt.Sprintf("generated column %q", c.Name))
			}
		}
	}
	return by
}

// defaultsAroundUsing drops the default of a column whose type changes by
// an explicit conversion (USING) before the change, and sets the new one
// after: ALTER COLUMN ... TYPE converts the old default to the new type by
// itself, which such a change cannot do (42804, "default for column cannot
// be cast automatically"; found by the plan oracle, seed 60605, a char
// column with a default changed to an enum).
func defaultsAroundUsing(changes []schema.Change) {
	hazard.SplitModifies(changes, func(mc *schema.ModifyColumn) (schema.Change, schema.Change, bool) {
		if !mc.Change.Is(schema.ChangeType) || mc.From.Default == nil || !slices.ContainsFunc(mc.Extra, func(x schema.Clause) bool { _, ok := x.(*postgres.ConvertUsing); return ok }) {
			return nil, nil, false
		}
		bare := *mc.From
		bare.Default = nil
		drop := &schema.ModifyColumn{From: mc.From, To: &bare, Change: schema.ChangeDefault}
		change := *mc
		change.From = &bare
		if mc.To.Default != nil {
			change.Change |= schema.ChangeDefault
		}
		return drop, &change, true
	})
}

// conversion is castContext of from and to, and false when the dev
// database cannot say (a type it does not have).
func conversion(ctx context.Context, drv schema.ExecQuerier, from, to string) (string, bool) {
	rows, err := drv.QueryContext(ctx, castContext, from, to)
	if err != nil {
		return "", false
	}
	defer rows.Close()
	var how string
	if !rows.Next() || rows.Scan(&how) != nil || rows.Err() != nil {
		return "", false
	}
	return how, true
}

// regtypeName is a column type as regtype reads it: an enum by its name.
func regtypeName(t schema.Type) (string, error) {
	if e, ok := t.(*schema.EnumType); ok {
		return lexical.Ident(e.T), nil
	}
	return postgres.FormatType(t)
}

// partitionRefusal refuses a change of a table's partitioning other than
// parts added and dropped: PostgreSQL cannot change a table's partition
// key, nor partition an existing table or stop partitioning one.
func partitionRefusal(changes []schema.Change) error {
	var err error
	eachAttrChange(changes, func(mt *schema.ModifyTable, to schema.Attr) bool {
		if r, ok := to.(*atlasdrv.PartitionRefused); ok {
			err = &hazard.Refusal{Database: "PostgreSQL", Table: mt.T.Name, Change: r.Change,
				Reason:  "PostgreSQL fixes a table's partitioning when it creates it: a partition key cannot be added, changed or removed, nor a part's bound changed",
				Instead: "Keep the partitioning and add or drop parts; or create a new table partitioned as the model says, copy the rows (INSERT ... SELECT) and rename it, in a migration written by hand"}
			return false
		}
		return true
	})
	return err
}
