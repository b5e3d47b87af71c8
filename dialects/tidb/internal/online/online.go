// Package online is TiDB's migration planner and what applying its plans
// needs: PlanStmts (one table change per statement, refusals of what TiDB
// cannot change in place, pre-check queries for the rows a statement would
// fail on; the hazards of every statement), resuming a file an earlier apply
// stopped in, and the sessions an interrupted apply cancels.
//
// It stands alone because it is the dialect's Online and Sessions parts and
// nothing else: it plans from Atlas's changes and the live database, not
// from the model, and the dialect package only hands those parts to it
// (online.go, hazards.go).
package online

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"
	gomysql "github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb/internal/atlasdrv"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lower"
)

// PlanStmts implements dialects.Online: one table change per statement, as
// TiDB runs them, with the hazards of each and, above a statement that can
// fail on existing rows, a pre-check query for those rows. TiDB's DDL is
// online already: online and plain plans are the same.
func PlanStmts(ctx context.Context, drv migrate.Driver, changes []schema.Change, online bool, opts ...migrate.PlanOption) ([]hazard.Stmt, error) {
	// Refusals first: Atlas's planner fails on some of them with errors
	// that do not say what to write instead.
	changes, err := collationRebuilds(changes)
	if err != nil {
		return nil, err
	}
	splitForeignKeyModifies(changes)
	renameKeyIndexes(changes)
	hazard.RenameIndexes(drv, changes, func(_ *schema.Table, i *schema.Index, name string) *schema.Index {
		c := *i
		c.Name = name
		return &c
	})
	for _, c := range changes {
		if mt, ok := c.(*schema.ModifyTable); ok {
			for _, sc := range mt.Changes {
				if err := refusal(mt.T, sc); err != nil {
					return nil, err
				}
				if err := dependentModify(mt, sc); err != nil {
					return nil, err
				}
			}
			if err := indexRoom(mt); err != nil {
				return nil, err
			}
		}
	}
	if err := hazard.NotNullWithoutValue("TiDB", changes, func(c *schema.Column) bool {
		_, gen := generated(c)
		return gen || atlasdrv.AutoIncrement(c)
	}); err != nil {
		return nil, err
	}
	if err := hazard.TimeToText("TiDB", changes); err != nil {
		return nil, err
	}
	if err := hazard.BytesText("TiDB", changes); err != nil {
		return nil, err
	}
	if err := hazard.BoolText("TiDB", changes); err != nil {
		return nil, err
	}
	planOne := func(c schema.Change) ([]hazard.Stmt, error) {
		return hazard.PlanOne(ctx, drv, c, opts...)
	}
	// The columns the plan adds and has not added yet, by table: an UPDATE
	// the plan runs before a column is added cannot name it. The old names
	// of the columns it renames, by table and new name: a pre-check runs
	// before any statement of its file, on the columns as they were.
	notYet := map[string]bool{}
	oldNames := map[string]map[string]string{}
	for _, c := range changes {
		if mt, ok := c.(*schema.ModifyTable); ok {
			for _, sc := range mt.Changes {
				switch sc := sc.(type) {
				case *schema.AddColumn:
					notYet[mt.T.Name+"\x00"+sc.C.Name] = true
				case *schema.RenameColumn:
					if oldNames[mt.T.Name] == nil {
						oldNames[mt.T.Name] = map[string]string{}
					}
					oldNames[mt.T.Name][sc.To.Name] = sc.From.Name
				}
			}
		}
	}
	// The indexes and CHECKs a plan replaces are dropped after their
	// replacements are added: TiDB commits each statement, and a file that
	// stops half-way then leaves the table at least as constrained as
	// before. A CHECK replaced under its own name is dropped first (TiDB's
	// CHECK names are per database); the pre-checks of the file, run before
	// any of its statements, stand for the new one.
	late := hazard.ReplacedLater(changes, lower.Rules().MaxIndexes)
	return hazard.PlanInOrderLate(ctx, drv, changes, late, func(t *schema.Table, sc schema.Change) ([]hazard.Stmt, error) {
		if ac, ok := sc.(*schema.AddColumn); ok {
			delete(notYet, t.Name+"\x00"+ac.C.Name)
			if x, ok := volatileDefault(ac.C); ok {
				return addVolatileDefault(t, ac.C, x, planOne, func(col string) bool { return col != ac.C.Name && !notYet[t.Name+"\x00"+col] })
			}
		}
		if s, ok := setDefault(t, sc); ok {
			return []hazard.Stmt{s}, nil
		}
		pre := oneLine(precheck(t, sc, oldNames[t.Name]))
		if ac, ok := sc.(*schema.AddCheck); ok {
			sc = &schema.AddCheck{C: checkTiDBVerifies(ac.C), Extra: ac.Extra}
		}
		ss, err := planOne(&schema.ModifyTable{T: t, Changes: []schema.Change{sc}})
		if err != nil {
			return nil, err
		}
		hs := changeHazards(t, sc)
		for i := range ss {
			ss[i].Hazards = append(ss[i].Hazards, hs...)
			if dc, ok := sc.(*schema.DropColumn); ok {
				ss[i].Nolint = hazard.DropNolint(t.Name, dc.C.Name)
			}
			if i == len(ss)-1 {
				ss[i].Precheck = pre
			}
		}
		if af, ok := sc.(*schema.AddForeignKey); ok {
			if a, ok := foreignKeyAssert(t, af.F); ok {
				ss = append([]hazard.Stmt{a}, ss...)
			}
		}
		if mc, ok := sc.(*schema.ModifyColumn); ok {
			if g, ok := conversionGuard(t, mc); ok {
				ss = append([]hazard.Stmt{g}, ss...)
			}
		}
		if ac, ok := sc.(*schema.AddColumn); ok {
			if g, ok := virtualNotNullGuard(t, ac); ok {
				ss = append([]hazard.Stmt{g}, ss...)
			}
		}
		return ss, nil
	}, func(src schema.Change, s *hazard.Stmt) {
		if dt, ok := src.(*schema.DropTable); ok {
			s.Hazards = append(s.Hazards, hazard.Hazard{Code: codeDrop, Table: dt.T.Name, LosesData: true, Text: "the table and all its rows are lost"})
			s.Nolint = hazard.DropNolint(dt.T.Name, "")
		}
	}, opts...)
}

// refusal refuses to plan a change of an existing table that TiDB cannot
// make in place, so that no file that could never apply is written:
//
//   - a change of the primary key: TiDB stores the rows of the tables
//     schemagen creates by their primary key (a clustered index,
//     tidb_enable_clustered_index's default) and cannot drop it (8200);
//   - a STORED generated column added (a new one, or a plain column made
//     generated, which is planned as a drop and an add), a STORED one
//     changed, a column moved between STORED and VIRTUAL, or a VIRTUAL one
//     made plain (3106);
//   - identity added to or removed from an existing column (8200);
//   - a change between two types that TiDB cannot convert (8200; typeFamily).
func refusal(t *schema.Table, sc schema.Change) error {
	col := ""
	switch c := sc.(type) {
	case *schema.AddColumn:
		col = c.C.Name
	case *schema.ModifyColumn:
		col = c.To.Name
	}
	refuse := func(change, reason, instead string) error {
		return &hazard.Refusal{Database: "TiDB", Table: t.Name, Column: col, Change: change, Reason: reason, Instead: instead}
	}
	switch c := sc.(type) {
	case *schema.ModifyPrimaryKey:
		if err := clusteredChange(t, c, refuse); err != nil {
			return err
		}
		return refuse("a change of the primary key",
			"TiDB stores its rows by the primary key (a clustered index) and cannot drop it (error 8200)",
			"Keep the key, or create a new table with the new key, copy the rows and rename it in a migration written by hand")
	case *schema.DropPrimaryKey:
		return refuse("a change of the primary key",
			"TiDB stores its rows by the primary key (a clustered index) and cannot drop it (error 8200)",
			"Keep the key, or create a new table with the new key, copy the rows and rename it in a migration written by hand")
	case *schema.AddColumn:
		if stored, ok := generated(c.C); ok && stored {
			return refuse(fmt.Sprintf("adding the STORED generated column %q (a new column, or one made generated or given a new expression, which is planned as a drop and an add)", c.C.Name),
				"TiDB cannot add a STORED generated column to an existing table (error 3106)",
				"Write stored = false (a VIRTUAL column, which TiDB can add; the values read are the same), or add a plain column and fill it in a data migration (schemagen migrate new NAME --data)")
		}
		if atlasdrv.AutoIncrement(c.C) || atlasdrv.AutoRandomOf(c.C) != nil {
			return refuse(fmt.Sprintf("adding the identity column %q", c.C.Name),
				"TiDB cannot add AUTO_INCREMENT to an existing table (error 8200)",
				"Give the table its identity column when it is created: create a new table with it, copy the rows and rename it, in a migration written by hand")
		}
	case *schema.ModifyColumn:
		if c.Change.Is(schema.ChangeType) && c.From.Type != nil && c.To.Type != nil {
			from, to := typeFamilyOf(c.From.Type.Type), typeFamilyOf(c.To.Type.Type)
			if !converts(from, to) {
				instead := fmt.Sprintf("Change the column in two steps, each its own migrate diff: first to a string type (varchar), then to %s", c.To.Type.Raw)
				if from == famVector || to == famVector || to == famBit {
					instead = "Add a new column of the new type, fill it in a data migration (schemagen migrate new NAME --data), then drop this one"
				}
				return refuse(fmt.Sprintf("the change of column %q from %s to %s", c.To.Name, typeText(c.From.Type), typeText(c.To.Type)),
					"TiDB cannot convert a column between these types (error 8200: the change is currently unsupported)", instead)
			}
		}
		fromStored, fromGen := generated(c.From)
		toStored, toGen := generated(c.To)
		switch {
		case fromGen && toGen && fromStored != toStored:
			return refuse(fmt.Sprintf("moving the generated column %q between STORED and VIRTUAL", c.To.Name),
				"TiDB cannot change the STORED status of a generated column (error 3106)",
				"Add a new generated column with the new stored setting and drop this one, in two steps")
		case fromGen && toGen && fromStored:
			return refuse(fmt.Sprintf("changing the STORED generated column %q", c.To.Name),
				"TiDB cannot modify a STORED generated column (error 3106)",
				"Add a new generated column (stored = false, which TiDB can add) with the new definition and drop this one")
		case fromGen && !fromStored && !toGen:
			return refuse(fmt.Sprintf("making the VIRTUAL generated column %q plain", c.To.Name),
				"TiDB cannot change a VIRTUAL generated column into a stored one (error 3106)",
				"Add a new plain column, copy the values into it in a data migration (schemagen migrate new NAME --data), then drop the generated column")
		}
		if err := autoRandomChange(t, c); err != nil {
			return err
		}
		switch from, to := atlasdrv.AutoIncrement(c.From), atlasdrv.AutoIncrement(c.To); {
		case !from && to:
			return refuse(fmt.Sprintf("adding identity to column %q", c.To.Name),
				"TiDB cannot set AUTO_INCREMENT on an existing column (error 8200)",
				"Give the table its identity column when it is created: create a new table with it, copy the rows and rename it, in a migration written by hand")
		case from && !to:
			return refuse(fmt.Sprintf("removing identity from column %q", c.To.Name),
				"TiDB cannot remove AUTO_INCREMENT from a column unless the session sets tidb_allow_remove_auto_inc (error 8200)",
				"Keep the identity, or write the change in a migration by hand: SET SESSION tidb_allow_remove_auto_inc = 1 before the MODIFY COLUMN")
		}
	case *schema.ModifyAttr:
		if r, ok := c.To.(*atlasdrv.PartitionRefused); ok {
			return refuse(r.Reason,
				"TiDB changes a table's partitioning in place only by adding or dropping parts (and a range's only at its end); anything else reorganises every row",
				"Keep the partitioning and add or drop parts, or write ALTER TABLE ... PARTITION BY ... (or REMOVE PARTITIONING, or REORGANIZE PARTITION) in a migration by hand, which copies every row")
		}
		if _, ok := c.To.(*atlasdrv.PreSplitRegions); ok {
			return refuse("a change of pre_split_regions",
				"TiDB splits a table's regions when it creates it and cannot change PRE_SPLIT_REGIONS afterwards (error 8200)",
				"Keep pre_split_regions, or create a new table with it, copy the rows and rename it, in a migration written by hand")
		}
		from, _ := c.From.(*atlasdrv.AutoIDCache)
		to, ok := c.To.(*atlasdrv.AutoIDCache)
		if ok && from != nil && (from.N == 1) != (to.N == 1) {
			return refuse(fmt.Sprintf("changing the identity's cache from %d to %d", from.N, to.N),
				"TiDB cannot change AUTO_ID_CACHE between 1 and another value: the two number rows by different allocators (error 1105)",
				"Keep the cache, or create a new table with the new cache, copy the rows and rename it, in a migration written by hand; between two values other than 1 the change is planned")
		}
	}
	return nil
}

// clusteredChange refuses a primary key made clustered or non-clustered:
// TiDB cannot change how it stores a table's rows (error 8200).
func clusteredChange(t *schema.Table, c *schema.ModifyPrimaryKey, refuse func(change, reason, instead string) error) error {
	from, fok := atlasdrv.ClusteredOf(&schema.Table{PrimaryKey: c.From})
	to, tok := atlasdrv.ClusteredOf(&schema.Table{PrimaryKey: c.To})
	if !fok || !tok || from == to {
		return nil
	}
	how := map[bool]string{true: "clustered", false: "non-clustered"}
	return refuse(fmt.Sprintf("making the primary key %s (it is %s)", how[to], how[from]),
		"TiDB cannot change whether it stores a table's rows by its primary key: it cannot drop a clustered key nor add one (error 8200)",
		"Create a new table with clustered = "+strconv.FormatBool(to)+", copy the rows and rename it, in a migration written by hand")
}

// autoRandomChange refuses a change of a column's AUTO_RANDOM (an identity
// with ordered = false) that TiDB cannot make: all but more shard bits in
// the same range (error 8216, TestAutoRandom).
func autoRandomChange(t *schema.Table, c *schema.ModifyColumn) error {
	from, to := atlasdrv.AutoRandomOf(c.From), atlasdrv.AutoRandomOf(c.To)
	refuse := func(change, reason, instead string) error {
		return &hazard.Refusal{Database: "TiDB", Table: t.Name, Change: change, Reason: reason, Instead: instead}
	}
	rebuild := "Create a new table with the identity it should have, copy the rows and rename it, in a migration written by hand"
	switch {
	case from == nil && to == nil:
		return nil
	case from == nil && atlasdrv.AutoIncrement(c.From):
		return refuse(fmt.Sprintf("making the identity of column %q unordered (ordered = false)", c.To.Name),
			"TiDB turns AUTO_INCREMENT into AUTO_RANDOM only when the session sets tidb_allow_remove_auto_inc (error 8200)",
			"Keep the identity ordered, or write the change in a migration by hand: SET SESSION tidb_allow_remove_auto_inc = 1 before ALTER TABLE ... MODIFY COLUMN ... AUTO_RANDOM")
	case from == nil:
		return refuse(fmt.Sprintf("adding an unordered identity (ordered = false) to column %q", c.To.Name),
			"TiDB gives AUTO_RANDOM only to a new column or an AUTO_INCREMENT primary key (error 8216)", rebuild)
	case to == nil:
		return refuse(fmt.Sprintf("removing AUTO_RANDOM (ordered = false) from column %q", c.To.Name),
			"TiDB cannot drop or change AUTO_RANDOM of a column (error 8216)", rebuild)
	case to.RangeBits != from.RangeBits:
		return refuse(fmt.Sprintf("changing the range of column %q's AUTO_RANDOM from %d to %d", c.To.Name, from.RangeBits, to.RangeBits),
			"TiDB cannot change the range bits of an AUTO_RANDOM column (error 8216)", rebuild)
	case to.ShardBits < from.ShardBits:
		return refuse(fmt.Sprintf("lowering the shard_bits of column %q's AUTO_RANDOM from %d to %d", c.To.Name, from.ShardBits, to.ShardBits),
			"TiDB cannot decrease the shard bits of an AUTO_RANDOM column (error 8216); it can raise them", "Keep shard_bits at least "+strconv.Itoa(from.ShardBits)+", or: "+strings.ToLower(rebuild[:1])+rebuild[1:])
	}
	return nil
}

// A typeFamily is how TiDB's MODIFY COLUMN groups types when it decides
// whether it can convert one into another (checkTypeChangeSupported in
// TiDB's pkg/types).
type typeFamily int

const (
	famOther   typeFamily = iota
	famDate               // date, datetime, timestamp
	famTime               // time
	famYear               // year
	famString             // char, varchar, text, binary, blob
	famDecimal            // decimal
	famFloat              // float, double
	famJSON               // json
	famBit                // bit
	famEnum               // enum, set
	famVector             // vector, vector(n)
)

func typeFamilyOf(t schema.Type) typeFamily {
	switch t := t.(type) {
	case *schema.TimeType:
		switch strings.ToLower(t.T) {
		case "time":
			return famTime
		case "year":
			return famYear
		}
		return famDate
	case *schema.StringType, *schema.BinaryType:
		return famString
	case *schema.DecimalType:
		return famDecimal
	case *schema.FloatType:
		return famFloat
	case *schema.JSONType:
		return famJSON
	case *mysql.BitType:
		return famBit
	case *schema.EnumType, *mysql.SetType:
		return famEnum
	case *schema.SpatialType:
		if strings.HasPrefix(strings.ToLower(t.T), "vector") {
			return famVector
		}
	case *schema.UnsupportedType:
		if strings.EqualFold(t.T, "vector") {
			return famVector
		}
	}
	return famOther
}

// converts reports whether TiDB's MODIFY COLUMN converts a column of family
// from into one of family to (the pairs TiDB refuses with 8200 "is
// currently unsupported yet"; a change within one family it makes).
func converts(from, to typeFamily) bool {
	in := func(f typeFamily, fs ...typeFamily) bool { return slices.Contains(fs, f) }
	switch {
	case from == to:
		return true
	case from == famVector || to == famVector:
		return false
	case to == famBit && in(from, famDate, famTime, famYear, famString, famJSON):
		return false
	case to == famEnum && in(from, famDate, famTime, famYear, famDecimal, famFloat, famJSON, famBit):
		return false
	case to == famDate && in(from, famEnum, famBit, famDecimal, famFloat):
		return false
	case to == famTime && in(from, famEnum, famBit):
		return false
	}
	return true
}

// typeText is a column type as TiDB prints it.
func typeText(t *schema.ColumnType) string {
	if t.Raw != "" {
		return t.Raw
	}
	if s, err := mysql.FormatType(t.Type); err == nil {
		return s
	}
	return fmt.Sprintf("%T", t.Type)
}

// indexRoom refuses a table change during which the table would hold more
// indexes than TiDB allows (1069): the indexes a kept foreign key uses are
// dropped only after the index that replaces them is added (TiDB refuses
// the drop before, 1553), so the table holds both for a while, over the
// limit when it ends at it.
func indexRoom(mt *schema.ModifyTable) error {
	limit := lower.Rules().MaxIndexes
	adds, waiting := 0, []string{}
	for _, sc := range mt.Changes {
		switch c := sc.(type) {
		case *schema.AddIndex:
			adds++
		case *schema.DropIndex:
			if usedByForeignKey(mt.T, c.I) {
				waiting = append(waiting, c.I.Name)
			}
		}
	}
	n := len(mt.T.Indexes)
	if pk := mt.T.PrimaryKey; pk != nil && !(len(pk.Parts) == 1 && pk.Parts[0].C != nil && isInteger(pk.Parts[0].C)) {
		n++ // only a one-column integer key is the rows' handle, no index
	}
	if adds == 0 || len(waiting) == 0 || n+len(waiting) <= limit {
		return nil
	}
	return &hazard.Refusal{Database: "TiDB", Table: mt.T.Name,
		Change:  fmt.Sprintf("the change of the indexes of table %q, which ends with %d indexes", mt.T.Name, n),
		Reason:  fmt.Sprintf("TiDB keeps the index a foreign key uses (%s) until the index that replaces it exists, so the table would hold %d indexes while both stand, more than TiDB allows (%d, error 1069)", strings.Join(waiting, ", "), n+len(waiting), limit),
		Instead: "Make room first: drop another index of the table in a change of its own (one migrate diff), then make this one"}
}

// usedByForeignKey reports whether a foreign key of t uses index i: its
// columns start the index's.
func usedByForeignKey(t *schema.Table, i *schema.Index) bool {
	return slices.ContainsFunc(t.ForeignKeys, func(fk *schema.ForeignKey) bool {
		if len(fk.Columns) > len(i.Parts) {
			return false
		}
		for k, c := range fk.Columns {
			if i.Parts[k].C == nil || i.Parts[k].C.Name != c.Name {
				return false
			}
		}
		return true
	})
}

func isInteger(c *schema.Column) bool {
	_, ok := c.Type.Type.(*schema.IntegerType)
	return ok
}

// splitForeignKeyModifies makes each foreign key modified a drop and an
// add, ordered apart (hazard's order: the add after the index and the key
// it needs). Atlas's planner writes a modify whose columns change as DROP
// FOREIGN KEY with DROP INDEX of the index TiDB made for it, in one ALTER,
// which TiDB refuses (1553), and which the plan's own change of that index
// then drops again.
func splitForeignKeyModifies(changes []schema.Change) {
	hazard.SplitModifies(changes, func(m *schema.ModifyForeignKey) (schema.Change, schema.Change, bool) {
		return &schema.DropForeignKey{F: m.From}, &schema.AddForeignKey{F: m.To}, true
	})
}

// collationRebuilds drops and adds again the indexes over a column whose
// collation changes (exact_strings turned on or off): TiDB cannot change
// the collation of a column an index covers (error 8200). The drops go
// before the MODIFY COLUMN (baseOrder), the adds after it. A column of the
// primary key, which TiDB cannot drop, and of a foreign key, whose columns
// TiDB requires to have the same collation on both sides (3780) and whose
// index it cannot drop (1553), are refused.
func collationRebuilds(changes []schema.Change) ([]schema.Change, error) {
	for _, c := range changes {
		mt, ok := c.(*schema.ModifyTable)
		if !ok {
			continue
		}
		touched := hazard.Touched(mt)
		var adds []schema.Change
		for _, sc := range slices.Clone(mt.Changes) {
			mc, ok := sc.(*schema.ModifyColumn)
			if !ok || !mc.Change.Is(schema.ChangeCollate) {
				continue
			}
			refuse := func(what, reason string) error {
				return &hazard.Refusal{Database: "TiDB", Table: mt.T.Name, Column: mc.To.Name, Change: fmt.Sprintf("a change of the collation of column %q (exact_strings)", mc.To.Name),
					Reason:  fmt.Sprintf("the column is part of %s, and %s", what, reason),
					Instead: `Keep the collation the database has (exact_strings = false in the dialect "tidb" block), or change it in a migration written by hand that drops the key, modifies the columns and creates the key again`}
			}
			if keyed(mt.T, mc.To.Name) != "" {
				return nil, refuse("foreign key "+strconv.Quote(keyed(mt.T, mc.To.Name)), "TiDB requires a foreign key's columns to have the collation of the columns they reference (error 3780) and cannot drop an index a foreign key needs (1553)")
			}
			if pk := mt.T.PrimaryKey; pk != nil && slices.ContainsFunc(pk.Parts, func(p *schema.IndexPart) bool { return p.C != nil && p.C.Name == mc.To.Name }) {
				return nil, refuse("the primary key", "TiDB cannot change the collation of a column an index covers (error 8200) and cannot drop the primary key of a clustered table (8200)")
			}
			for _, idx := range mc.From.Indexes {
				if touched["index "+idx.Name] || idx.Table != nil && idx.Table.PrimaryKey == idx {
					continue
				}
				to, ok := mt.T.Index(idx.Name)
				if !ok {
					continue
				}
				touched["index "+idx.Name] = true
				mt.Changes = append(mt.Changes, &schema.DropIndex{I: idx})
				adds = append(adds, &schema.AddIndex{I: to})
			}
		}
		mt.Changes = append(mt.Changes, adds...)
	}
	return changes, nil
}

// keyed returns the name of a foreign key of t, or of a table of its schema
// that references t, over column col, or "".
func keyed(t *schema.Table, col string) string {
	has := func(cs []*schema.Column) bool {
		return slices.ContainsFunc(cs, func(c *schema.Column) bool { return c.Name == col })
	}
	for _, fk := range t.ForeignKeys {
		if has(fk.Columns) {
			return fk.Symbol
		}
	}
	if t.Schema == nil {
		return ""
	}
	for _, o := range t.Schema.Tables {
		for _, fk := range o.ForeignKeys {
			if fk.RefTable != nil && fk.RefTable.Name == t.Name && has(fk.RefColumns) {
				return fk.Symbol
			}
		}
	}
	return ""
}

// dependentModify refuses a change of a column that an expression index or
// a generated column of the table uses and that TiDB would make by MODIFY
// COLUMN (every change but the default's alone, which setDefault plans):
// TiDB refuses it (3106, wrapping 3837 or 3108; found by the plan oracle,
// seeds 3000015 and 3000019). Those the same change adds are left out.
func dependentModify(mt *schema.ModifyTable, sc schema.Change) error {
	mc, ok := sc.(*schema.ModifyColumn)
	if !ok || mc.Change == schema.ChangeDefault {
		return nil
	}
	if _, gen := generated(mc.From); gen {
		return nil // refusal's
	}
	added := map[string]bool{}
	for _, c := range mt.Changes {
		switch c := c.(type) {
		case *schema.AddIndex:
			added["index "+c.I.Name] = true
		case *schema.AddColumn:
			added["column "+c.C.Name] = true
		}
	}
	uses := regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(mc.To.Name) + `($|[^A-Za-z0-9_$])`)
	var by []string
	for _, idx := range mt.T.Indexes {
		for _, p := range idx.Parts {
			if x, ok := p.X.(*schema.RawExpr); ok && uses.MatchString(x.X) && !added["index "+idx.Name] {
				by = append(by, fmt.Sprintf("expression index %q", idx.Name))
				break
			}
		}
	}
	for _, c := range mt.T.Columns {
		for _, a := range c.Attrs {
			if g, ok := a.(*schema.GeneratedExpr); ok && c.Name != mc.To.Name && uses.MatchString(g.Expr) && !added["column "+c.Name] {
				by = append(by, fmt.Sprintf("generated column %q", c.Name))
			}
		}
	}
	if len(by) == 0 {
		return nil
	}
	return &hazard.Refusal{Database: "TiDB", Table: mt.T.Name, Column: mc.To.Name,
		Change:  fmt.Sprintf("the change of column %q (its type, nullability or other attributes, which TiDB makes by MODIFY COLUMN)", mc.To.Name),
		Reason:  fmt.Sprintf("TiDB cannot modify a column that %s uses (error 3106)", strings.Join(by, " and ")),
		Instead: fmt.Sprintf("Make the change in three steps: remove %s from the model (one migrate diff), change the column (another), then add %s back (a third)", strings.Join(by, " and "), map[bool]string{true: "them", false: "it"}[len(by) > 1])}
}

// generated reports whether c is a generated column, and whether STORED.
func generated(c *schema.Column) (stored, ok bool) {
	for _, a := range c.Attrs {
		if g, is := a.(*schema.GeneratedExpr); is {
			return !strings.EqualFold(g.Type, "VIRTUAL"), true
		}
	}
	return false, false
}

func quote(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// checkTiDBVerifies is CHECK c written so that TiDB checks the existing
// rows against what it means: an expression with OR, AND or XOR at its top
// gets one pair of parentheses more (lexical.LooseAtTop), which the
// inspection leaves out again (lexical.Unwrapped).
func checkTiDBVerifies(c *schema.Check) *schema.Check {
	inner := c.Expr
	if lexical.Wrapped(inner) {
		inner = inner[1 : len(inner)-1]
	}
	if !lexical.LooseAtTop(inner) {
		return c
	}
	w := *c
	w.Expr = "((" + inner + "))"
	return &w
}

// precheck is a query for the existing rows a change would fail on, as
// "label: query", or "". It runs before any statement of its file: the
// columns renamed by the plan (renamed: new name to old) have their old
// names then.
func precheck(t *schema.Table, c schema.Change, renamed map[string]string) string {
	tbl := quote(t.Name)
	switch c := c.(type) {
	case *schema.AddIndex:
		if !c.I.Unique {
			return ""
		}
		var cols, notNull []string
		for _, p := range c.I.Parts {
			if p.C == nil {
				return "" // an expression key: no simple query
			}
			cols = append(cols, quote(p.C.Name))
			notNull = append(notNull, quote(p.C.Name)+" IS NOT NULL")
		}
		list := strings.Join(cols, ", ")
		return fmt.Sprintf("duplicates for unique key %s: SELECT %s, COUNT(*) AS `rows` FROM %s WHERE %s GROUP BY %s HAVING COUNT(*) > 1 LIMIT 10",
			c.I.Name, list, tbl, strings.Join(notNull, " AND "), list)
	case *schema.AddCheck:
		// As TiDB itself checks the rows (WHERE NOT <expr>), with the
		// expression one whole (checkTiDBVerifies).
		return fmt.Sprintf("rows breaking CHECK %s: SELECT * FROM %s WHERE NOT %s LIMIT 10", c.C.Name, tbl, inParens(lexical.RenameIdents(c.C.Expr, renamed)))
	case *schema.AddForeignKey:
		return foreignKeyPrecheck(t, c.F, renamed)
	case *schema.AddColumn:
		if cond := virtualNullRows(c); cond != "" {
			return fmt.Sprintf("rows where %s.%s, generated and NOT NULL, would be NULL: SELECT * FROM %s WHERE %s LIMIT 10",
				t.Name, c.C.Name, tbl, lexical.RenameIdents(cond, renamed))
		}
	case *schema.ModifyColumn:
		col := quote(c.To.Name)
		var conds []string
		if c.Change.Is(schema.ChangeNull) && !c.To.Type.Null {
			conds = append(conds, col+" IS NULL")
		}
		what := "that its new type refuses"
		if c.Change.Is(schema.ChangeType) {
			if cond := doesNotFit(col, c.From.Type.Type, c.To.Type.Type); cond != "" {
				conds = append(conds, cond)
			}
			if cond, _ := convertsDifferently(t.Name, col, c.To.Name, c.From.Type.Type, c.To.Type.Type); cond != "" {
				if len(conds) > 0 {
					what += " or"
				} else {
					what = "that"
				}
				what += " PostgreSQL converts differently"
				conds = append(conds, "("+cond+")")
			}
		}
		if len(conds) == 0 {
			return ""
		}
		return fmt.Sprintf("values of %s.%s %s: SELECT %s FROM %s WHERE %s LIMIT 10",
			t.Name, c.To.Name, what, col, tbl, strings.Join(conds, " OR "))
	}
	return ""
}

// foreignKeyPrecheck is a query for the rows whose values foreign key fk
// does not find in the table it references: TiDB checks every row when it
// adds the key (1452). A row with a NULL in the key's columns is not
// checked.
func foreignKeyPrecheck(t *schema.Table, fk *schema.ForeignKey, renamed map[string]string) string {
	if fk.RefTable == nil || len(fk.Columns) != len(fk.RefColumns) || len(fk.Columns) == 0 {
		return ""
	}
	name := func(c string) string {
		if old, ok := renamed[c]; ok {
			return old
		}
		return c
	}
	var cols, notNull, match []string
	for i, c := range fk.Columns {
		col := "`c`." + quote(name(c.Name))
		cols = append(cols, col)
		notNull = append(notNull, col+" IS NOT NULL")
		match = append(match, "`r`."+quote(fk.RefColumns[i].Name)+" = "+col)
	}
	return fmt.Sprintf("rows without a match for foreign key %s: SELECT %s FROM %s AS `c` WHERE %s AND NOT EXISTS (SELECT 1 FROM %s AS `r` WHERE %s) LIMIT 10",
		fk.Symbol, strings.Join(cols, ", "), quote(t.Name), strings.Join(notNull, " AND "), quote(fk.RefTable.Name), strings.Join(match, " AND "))
}

// foreignKeyAssert is a statement, run just before ADD FOREIGN KEY, that
// fails naming foreign key fk when rows of t have no match for it, for a
// key one of whose referenced columns is nullable. TiDB's own check of the
// rows when it adds a key (pkg/ddl/foreign_key.go, checkForeignKeyConstrain)
// looks for a row whose columns are NOT IN (SELECT the referenced columns),
// which no row is once those columns hold a NULL (x NOT IN (..., NULL) is
// NULL): TiDB then adds the key over rows without a match, which
// PostgreSQL refuses (found by the plan oracle, seed 31313, evolution 16).
// The file's pre-check cannot stand for it: the columns may be added by
// the same file, after the pre-checks ran. As a data migration's assertion
// (dialects/tidb/data.go), it sets a session variable to a value TiDB
// refuses (error 1231, the message in it) when the query finds a row, and
// to the value it holds otherwise.
func foreignKeyAssert(t *schema.Table, fk *schema.ForeignKey) (hazard.Stmt, bool) {
	if fk.RefTable == nil || len(fk.Columns) != len(fk.RefColumns) || len(fk.Columns) == 0 ||
		!slices.ContainsFunc(fk.RefColumns, func(c *schema.Column) bool { return c.Type == nil || c.Type.Null }) {
		return hazard.Stmt{}, false
	}
	var notNull, match []string
	for i, c := range fk.Columns {
		col := "`c`." + quote(c.Name)
		notNull = append(notNull, col+" IS NOT NULL")
		match = append(match, "`r`."+quote(fk.RefColumns[i].Name)+" = "+col)
	}
	query := fmt.Sprintf("SELECT 1 FROM %s AS `c` WHERE %s AND NOT EXISTS (SELECT 1 FROM %s AS `r` WHERE %s)",
		quote(t.Name), strings.Join(notNull, " AND "), quote(fk.RefTable.Name), strings.Join(match, " AND "))
	msg := fmt.Sprintf("assertion failed: rows of %s without a match for foreign key %s", t.Name, fk.Symbol)
	if len(msg) > 200 {
		msg = fmt.Sprintf("assertion failed: rows without a match for foreign key %s", fk.Symbol)
	}
	return assertNone(query, msg, fmt.Sprintf("fail on rows of %q without a match for foreign key %q, which TiDB's own check passes while the columns it references hold a NULL", t.Name, fk.Symbol)), true
}

// intRange is the range of TiDB's signed integer types.
var intRange = map[string][2]string{
	"tinyint": {"-128", "127"}, "smallint": {"-32768", "32767"}, "mediumint": {"-8388608", "8388607"},
	"int": {"-2147483648", "2147483647"}, "integer": {"-2147483648", "2147483647"},
}

// doesNotFit is a condition true of values of col, of type from, that type
// t refuses.
func doesNotFit(col string, from, t schema.Type) string {
	if dc, ok := hazard.DecimalNarrowing(from, t); ok {
		if !dc.CanFail {
			return ""
		}
		return fmt.Sprintf("ABS(ROUND(%s, %d)) >= 1%s", col, dc.Scale, strings.Repeat("0", dc.IntDigits))
	}
	switch t := t.(type) {
	case *schema.IntegerType:
		var conds []string
		if r, ok := intRange[t.T]; ok && !t.Unsigned {
			conds = append(conds, fmt.Sprintf("%s NOT BETWEEN %s AND %s", col, r[0], r[1]))
		}
		return strings.Join(conds, " OR ")
	case *schema.StringType:
		var conds []string
		if t.Size > 0 && (t.T == "varchar" || t.T == "char") {
			conds = append(conds, fmt.Sprintf("CHAR_LENGTH(%s) > %d", col, t.Size))
		}
		return strings.Join(conds, " OR ")
	case *schema.EnumType:
		q := make([]string, len(t.Values))
		for i, v := range t.Values {
			q[i] = lexical.String(v)
		}
		return fmt.Sprintf("%s NOT IN (%s)", col, strings.Join(q, ", "))
	}
	return ""
}

// Prechecks implements dialects.Online: each query is "label: query"; a
// query on a column or table that does not exist yet (a later statement of
// the file creates it) finds nothing.
func Prechecks(ctx context.Context, conn schema.ExecQuerier, queries []string) ([]string, error) {
	var out []string
	for _, pq := range queries {
		label, q, ok := strings.Cut(pq, ": ")
		if !ok {
			return nil, fmt.Errorf("pre-check %q: want LABEL: QUERY", pq)
		}
		rows, err := conn.QueryContext(ctx, q)
		var me *gomysql.MySQLError
		if errors.As(err, &me) && (me.Number == 1054 || me.Number == 1146) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("pre-check %s: %w", label, err)
		}
		err = eachRow(rows, func(cols []string, vals []sql.NullString) {
			var parts []string
			for i, c := range cols {
				v := "NULL"
				if vals[i].Valid {
					v = vals[i].String
				}
				parts = append(parts, c+"="+v)
			}
			out = append(out, label+": "+strings.Join(parts, ", "))
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Resume implements dialects.Online. A TiDB DDL statement that fails
// leaves nothing behind; one whose session is killed goes on as a DDL job
// on the server, which this does not wait for (Unfinished lists it).
func Resume(a0 context.Context, a1 schema.ExecQuerier, a2 []string, a3 []string) (int, error) {
	return 0, nil
}

// SessionID implements dialects.Sessions.
func SessionID(ctx context.Context, conn schema.ExecQuerier) (int64, error) {
	return sessionID(ctx, conn, "SELECT CONNECTION_ID()")
}

// CancelStatement implements dialects.Sessions: KILL QUERY stops the
// statement. A DDL job that goes on without its session is listed by
// Unfinished (migrate status).
func CancelStatement(ctx context.Context, other schema.ExecQuerier, id int64) error {
	_, err := other.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", id))
	return err
}

// EndSession implements dialects.Sessions.
func EndSession(ctx context.Context, other schema.ExecQuerier, id int64) error {
	_, err := other.ExecContext(ctx, fmt.Sprintf("KILL %d", id))
	return err
}

func sessionID(ctx context.Context, conn schema.ExecQuerier, query string) (int64, error) {
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var id int64
	if !rows.Next() {
		return 0, fmt.Errorf("%s: no row", query)
	}
	if err := rows.Scan(&id); err != nil {
		return 0, err
	}
	return id, rows.Err()
}

// Unfinished implements dialects.Online: the DDL jobs of the database that
// have not finished (a statement whose session was killed goes on as one).
func Unfinished(ctx context.Context, conn schema.ExecQuerier) ([]string, error) {
	rows, err := conn.QueryContext(ctx, "ADMIN SHOW DDL JOBS 50 WHERE DB_NAME = DATABASE() AND STATE NOT IN ('synced', 'cancelled', 'rollback done', 'done')")
	if err != nil {
		return nil, err
	}
	var out []string
	err = eachRow(rows, func(cols []string, vals []sql.NullString) {
		f := map[string]string{}
		for i, c := range cols {
			f[c] = vals[i].String
		}
		out = append(out, fmt.Sprintf("DDL job %s (%s of table %s) is %s, %s rows done: it goes on on the server; a statement of a file whose apply was interrupted may be its author (see ADMIN SHOW DDL JOB QUERIES %s)",
			f["JOB_ID"], f["JOB_TYPE"], f["TABLE_NAME"], f["STATE"], f["ROW_COUNT"], f["JOB_ID"]))
	})
	return out, err
}

// eachRow calls f with the columns and values of every row, then closes
// rows.
func eachRow(rows *sql.Rows, f func(cols []string, vals []sql.NullString)) error {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		f(cols, vals)
	}
	return rows.Err()
}

// ExplainError implements dialects.Online.
func ExplainError(err error) string {
	var me *gomysql.MySQLError
	if errors.As(err, &me) && me.Number == 8141 && strings.Contains(me.Message, "assertion: NotExist") {
		// Inside a transaction, TiDB does not report at the statement an
		// UPDATE of a key that an ON UPDATE CASCADE foreign key references
		// (and no row refers to) to a value another row holds (1062
		// without the transaction): its commit finds the key written
		// twice (plan oracle, evolution 98383295347).
		return "TiDB found, when committing, a key written by the file that another row already holds: a duplicate of a primary or unique key " +
			"that it did not report at the statement (it does not, inside a transaction, for an UPDATE of a key that a foreign key with ON UPDATE CASCADE references). " +
			"The transaction was rolled back: nothing of the file is applied. Find the rows holding the duplicate values, fix them, then apply again."
	}
	return ""
}

// inParens is e in parentheses, unless one pair around all of it has them.
func inParens(e string) string {
	if lexical.Wrapped(e) {
		return e
	}
	return "(" + e + ")"
}

// volatileDefault returns the default of c when it is an expression that
// gives each row its own value (uuid()), which TiDB refuses in ADD COLUMN
// on an existing table (error 1674, "Statement is unsafe").
func volatileDefault(c *schema.Column) (string, bool) {
	x, ok := c.Default.(*schema.RawExpr)
	if !ok || !strings.Contains(strings.ToLower(x.X), "uuid(") {
		return "", false
	}
	return inParens(x.X), true
}

// addVolatileDefault adds column c with default x to an existing table as
// TiDB can: the column without the default, then the default, then every
// existing row given its own value, as PostgreSQL's ADD COLUMN ... DEFAULT
// gen_random_uuid() gives them, then NOT NULL.
func addVolatileDefault(t *schema.Table, c *schema.Column, x string, planOne func(schema.Change) ([]hazard.Stmt, error), there func(col string) bool) ([]hazard.Stmt, error) {
	bare := *c
	bare.Default, bare.Type = nil, &schema.ColumnType{Type: c.Type.Type, Raw: c.Type.Raw, Null: true}
	ss, err := planOne(&schema.ModifyTable{T: t, Changes: []schema.Change{&schema.AddColumn{C: &bare}}})
	if err != nil {
		return nil, err
	}
	tbl, col := lexical.Ident(t.Name), lexical.Ident(c.Name)
	ss = append(ss,
		hazard.Stmt{Cmd: fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DEFAULT %s", tbl, col, x), Comment: fmt.Sprintf("set the default of %q (TiDB refuses it in ADD COLUMN, error 1674)", c.Name)},
		hazard.Stmt{Cmd: fmt.Sprintf("UPDATE %s SET %s = %s%s WHERE %s IS NULL", tbl, col, strings.TrimSuffix(strings.TrimPrefix(x, "("), ")"), keepOnUpdate(t, there), col), Comment: fmt.Sprintf("give the existing rows their own %q", c.Name),
			Hazards: []hazard.Hazard{{Code: codeModify, Table: t.Name, Scan: true, Rewrite: true, Text: "writes every existing row, in one transaction"}}})
	if !c.Type.Null {
		mod, err := planOne(&schema.ModifyTable{T: t, Changes: []schema.Change{&schema.ModifyColumn{From: &bare, To: c, Change: schema.ChangeNull | schema.ChangeDefault}}})
		if err != nil {
			return nil, err
		}
		ss = append(ss, mod...)
	}
	return ss, nil
}

// setDefault plans a change of a column's default alone as ALTER COLUMN
// ... SET DEFAULT or DROP DEFAULT: Atlas's MODIFY COLUMN restates the
// whole column, which TiDB refuses for a column an expression index or a
// generated column uses (3106, wrapping 3837 or 3108; found by the plan
// oracle, seed 2000007). false for another change.
func setDefault(t *schema.Table, sc schema.Change) (hazard.Stmt, bool) {
	mc, ok := sc.(*schema.ModifyColumn)
	if !ok || mc.Change != schema.ChangeDefault {
		return hazard.Stmt{}, false
	}
	alter := fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s ", lexical.Ident(t.Name), lexical.Ident(mc.To.Name))
	switch d := mc.To.Default.(type) {
	case nil:
		return hazard.Stmt{Cmd: alter + "DROP DEFAULT", Comment: fmt.Sprintf("drop the default of %q", mc.To.Name)}, true
	case *schema.Literal:
		return hazard.Stmt{Cmd: alter + "SET DEFAULT " + d.V, Comment: fmt.Sprintf("set the default of %q", mc.To.Name)}, true
	case *schema.RawExpr:
		if lexical.Wrapped(d.X) {
			return hazard.Stmt{Cmd: alter + "SET DEFAULT " + d.X, Comment: fmt.Sprintf("set the default of %q", mc.To.Name)}, true
		}
	}
	return hazard.Stmt{}, false
}

// keepOnUpdate sets t's ON UPDATE CURRENT_TIMESTAMP columns to themselves
// in an UPDATE a migration runs, which would else set them to now(): a
// migration is not a change of the rows (on PostgreSQL, DDL fires no
// trigger). Only the columns there says the table has then are named.
func keepOnUpdate(t *schema.Table, there func(col string) bool) string {
	var b strings.Builder
	for _, c := range t.Columns {
		if there(c.Name) && slices.ContainsFunc(c.Attrs, func(a schema.Attr) bool { _, ok := a.(*mysql.OnUpdate); return ok }) {
			b.WriteString(", " + lexical.Ident(c.Name) + " = " + lexical.Ident(c.Name))
		}
	}
	return b.String()
}

// oneLine writes a pre-check query on one line, as its comment directive
// must be: a line break in a string literal as TiDB's escape \n, elsewhere
// a space (a CHECK over 'a<newline>b' wrote the rest of the query as a
// statement of the file; found by the plan oracle, seed 2000008).
func oneLine(q string) string {
	if !strings.ContainsAny(q, "\r\n") {
		return q
	}
	var b strings.Builder
	var quote byte
	for i := 0; i < len(q); i++ {
		ch := q[i]
		switch {
		case quote != 0 && ch == '\\' && i+1 < len(q):
			b.WriteByte(ch)
			i++
			ch = q[i]
		case quote != 0 && ch == quote:
			quote = 0
		case quote == 0 && (ch == '\'' || ch == '"' || ch == '`'):
			quote = ch
		}
		switch {
		case ch == '\n' && quote != 0:
			b.WriteString(`\n`)
		case ch == '\r' && quote != 0:
			b.WriteString(`\r`)
		case ch == '\n' || ch == '\r':
			b.WriteByte(' ')
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
