package online

import (
	"fmt"
	"slices"

	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/tidb/internal/atlasdrv"
)

// TiDB's hazard codes. TiDB's DDL is online: no statement blocks other
// sessions' reads or writes (a DDL waits, under its metadata lock, for the
// transactions that used the table before it started, not the other way
// round), but some reorganise the table: they read or rewrite every row,
// and can fail on existing rows after the statements before them in the
// file are committed.
const (
	CodeAddIndex   = "TD101" // ADD INDEX: backfills (reads every row)
	codeUnique     = "TD102" // a new unique key fails on duplicates
	codeModify     = "TD103" // MODIFY COLUMN with reorganisation: rewrites every row
	codeCheck      = "TD104" // ADD CHECK: checks every row
	codeDrop       = "TD105" // data lost
	codeForeignKey = "TD106" // ADD FOREIGN KEY: checks every row
	codeNotNull    = "TD107" // MODIFY COLUMN ... NOT NULL: checks every row
	codeRounds     = "TD108" // MODIFY COLUMN rounding decimal values: data lost
	codeTTL        = "TD109" // a TTL that deletes rows it kept before
	codePart       = "TD110" // DROP PARTITION: its rows are lost
)

// HazardCodes implements dialects.Online.
func HazardCodes() []hazard.Code {
	return []hazard.Code{
		{Code: CodeAddIndex, Dialect: name, Title: "ADD INDEX backfills the table (TiDB)",
			Help:    "Online: reads and writes go on, but the backfill reads every row (see ADMIN SHOW DDL JOBS, ROW_COUNT) and loads the cluster; schedule it on a large table.",
			Example: "ALTER TABLE `docs` ADD INDEX `docs_title_idx` (`title`);"},
		{Code: codeUnique, Dialect: name, Title: "New unique key on existing rows (TiDB)",
			Help:    "Fails when existing rows hold duplicates, after the statements before it in the file are committed. `migrate diff` writes a pre-check above it, which `migrate apply` runs before the file's first statement, reporting the duplicates instead of failing half-way.",
			Example: "ALTER TABLE `docs` ADD UNIQUE INDEX `docs_slug_key` (`slug`);"},
		{Code: codeModify, Dialect: name, Title: "MODIFY COLUMN rewriting every row (TiDB)",
			Help:    "A type change TiDB cannot make in place (a narrower or other type, enum values added before others) copies every row into a new column, online (reads and writes go on) but loading the cluster; values that do not fit make it fail (strict mode). `migrate diff` writes a pre-check for the values that do not fit (integers, strings, decimals with fewer integer digits). On a large table, schedule it, or prefer a new column backfilled in batches.",
			Example: "ALTER TABLE `docs` MODIFY COLUMN `n` smallint NULL;"},
		{Code: codeRounds, Dialect: name, Severe: true, Title: "MODIFY COLUMN rounding decimal values (TiDB)",
			Help:    "A decimal given a smaller scale is rounded silently (20.05 becomes 20.1 at scale 1): the digits are lost. Make sure no value needs them, then suppress with a reason.",
			Example: "ALTER TABLE `docs` MODIFY COLUMN `price` decimal(10,1) NULL;"},
		{Code: codeTTL, Dialect: name, Title: "TTL deleting rows (TiDB)",
			Help:    "A TTL added, enabled, moved to another column or given a shorter interval makes TiDB's background jobs delete the rows past the new time, which were kept before: make sure none is still needed (copy them elsewhere first), then suppress with a reason.",
			Example: "ALTER TABLE `sessions` TTL = `created_at` + INTERVAL 30 DAY, TTL_ENABLE = 'ON', TTL_JOB_INTERVAL = '1h';"},
		{Code: codePart, Dialect: name, Title: "DROP PARTITION deletes its rows (TiDB)",
			Help:    "Dropping a part of a partitioned table deletes every row it holds, at once and without a trace in the binlog of each row. Make sure none is still needed (copy them elsewhere first), then suppress with a reason.",
			Example: "ALTER TABLE `events` DROP PARTITION `events_2024`;"},
		{Code: codeCheck, Dialect: name, Title: "ADD CHECK checks every row (TiDB)",
			Help:    "Reads every row and fails on one breaking the CHECK. `migrate diff` writes a pre-check for such rows.",
			Example: "ALTER TABLE `docs` ADD CONSTRAINT `docs_n_ck` CHECK (`n` > 0);"},
		{Code: codeDrop, Dialect: name, Title: "Dropping a table or column (TiDB)", CoveredBy: "DS102, DS103",
			Help:    "Its data is lost. Written above the statement in migration files; `migrate lint` reports it as DS102 or DS103.",
			Example: "ALTER TABLE `docs` DROP COLUMN `body`;"},
		{Code: codeForeignKey, Dialect: name, Title: "ADD FOREIGN KEY checks every row (TiDB)",
			Help:    "With foreign_key_checks on, reads every row and fails on an orphan, unless a referenced column holds a NULL (TiDB's check, NOT IN the referenced columns, then passes every row): `migrate diff` writes a statement before it that fails on orphans when a referenced column is nullable.",
			Example: "ALTER TABLE `docs` ADD CONSTRAINT `docs_space_fk` FOREIGN KEY (`space_id`) REFERENCES `spaces` (`id`);"},
		{Code: codeNotNull, Dialect: name, Title: "MODIFY COLUMN ... NOT NULL checks every row (TiDB)",
			Help:    "Reads every row and fails on a NULL. `migrate diff` writes a pre-check for NULLs.",
			Example: "ALTER TABLE `docs` MODIFY COLUMN `title` varchar(200) NOT NULL;"},
	}
}

// StmtForm implements dialects.Online: TiDB runs every statement in one
// form, online.
func StmtForm(a0 []string, a1 int) hazard.Form { return hazard.Form{} }

// Hazards implements dialects.Online: TiDB's hazards follow from the changes
// alone.
func Hazards(changes []schema.Change, a1 hazard.Form) []hazard.Hazard {
	var hs []hazard.Hazard
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.DropTable:
			hs = append(hs, hazard.Hazard{Code: codeDrop, Table: c.T.Name, LosesData: true, Text: "the table and all its rows are lost"})
		case *schema.ModifyTable:
			for _, sc := range c.Changes {
				hs = append(hs, changeHazards(c.T, sc)...)
			}
		}
	}
	return hs
}

func changeHazards(t *schema.Table, c schema.Change) []hazard.Hazard {
	name := t.Name
	online := "online: reads and writes go on"
	switch c := c.(type) {
	case *schema.AddIndex:
		hs := []hazard.Hazard{{Code: CodeAddIndex, Table: name, Scan: true, Text: online}}
		if c.I.Unique {
			hs = append(hs, hazard.Hazard{Code: codeUnique, Table: name, CanFail: true, Text: "existing duplicates make it fail"})
		}
		return hs
	case *schema.ModifyIndex:
		if c.Change.Is(schema.ChangeUnique) && c.To.Unique {
			return []hazard.Hazard{{Code: codeUnique, Table: name, Scan: true, CanFail: true, Text: "existing duplicates make it fail"}}
		}
	case *schema.ModifyAttr:
		if h, ok := ttlHazard(name, c); ok {
			return []hazard.Hazard{h}
		}
		if d, ok := c.To.(*atlasdrv.PartDropped); ok {
			return []hazard.Hazard{{Code: codePart, Table: name, LosesData: true, Text: fmt.Sprintf("the rows of part %s are deleted", d.Part.Name)}}
		}
	case *schema.AddCheck:
		return []hazard.Hazard{{Code: codeCheck, Table: name, Scan: true, CanFail: true, Text: online}}
	case *schema.AddForeignKey:
		return []hazard.Hazard{{Code: codeForeignKey, Table: name, Scan: true, CanFail: true, Text: online}}
	case *schema.DropColumn:
		return []hazard.Hazard{{Code: codeDrop, Table: name, LosesData: true, Text: fmt.Sprintf("the values of column %s are lost", c.C.Name)}}
	case *schema.ModifyColumn:
		var hs []hazard.Hazard
		if dc, ok := hazard.DecimalNarrowing(c.From.Type.Type, c.To.Type.Type); ok && c.Change.Is(schema.ChangeType) {
			code := codeModify
			if dc.Rounds {
				code = codeRounds
			}
			hs = append(hs, hazard.Hazard{Code: code, Table: name, Scan: true, Rewrite: true, CanFail: dc.CanFail, LosesData: dc.Rounds,
				Text: fmt.Sprintf("column %s is copied into its new type: %s; %s", c.To.Name, dc.Text(c.To.Name), online)})
		} else if c.Change.Is(schema.ChangeType) && !inPlace(c.From.Type.Type, c.To.Type.Type) {
			hs = append(hs, hazard.Hazard{Code: codeModify, Table: name, Scan: true, Rewrite: true, CanFail: true,
				Text: fmt.Sprintf("column %s is copied into its new type; %s", c.To.Name, online)})
		}
		if c.Change.Is(schema.ChangeNull) && !c.To.Type.Null {
			hs = append(hs, hazard.Hazard{Code: codeNotNull, Table: name, Scan: true, CanFail: true, Text: fmt.Sprintf("a NULL in %s makes it fail", c.To.Name)})
		}
		return hs
	}
	return nil
}

// intRank orders TiDB's integer types by size.
var intRank = map[string]int{"tinyint": 1, "smallint": 2, "mediumint": 3, "int": 4, "integer": 4, "bigint": 5}

// inPlace tells the type changes TiDB makes without touching rows: an
// integer or a varchar made wider, keeping its signedness.
func inPlace(from, to schema.Type) bool {
	switch f := from.(type) {
	case *schema.IntegerType:
		t, ok := to.(*schema.IntegerType)
		return ok && f.Unsigned == t.Unsigned && intRank[f.T] > 0 && intRank[t.T] >= intRank[f.T]
	case *schema.StringType:
		t, ok := to.(*schema.StringType)
		return ok && f.T == t.T && (f.T == "varchar" || f.T == "char" && f.Size == t.Size) && t.Size >= f.Size
	case *schema.EnumType:
		// Values added at the end: TiDB changes the column's definition only.
		t, ok := to.(*schema.EnumType)
		return ok && len(t.Values) >= len(f.Values) && slices.Equal(t.Values[:len(f.Values)], f.Values)
	}
	return false
}

// name is the dialect's name (tidb.Name), which its hazard codes carry.
const name = "tidb"

// ttlHazard is TD109 for a TTL change that deletes rows the table kept:
// one added or enabled, or moved to another column or unit, or given a
// shorter interval, while enabled.
func ttlHazard(table string, c *schema.ModifyAttr) (hazard.Hazard, bool) {
	to, ok := c.To.(*atlasdrv.TTL)
	if !ok || !to.Enable {
		return hazard.Hazard{}, false
	}
	from, _ := c.From.(*atlasdrv.TTL)
	if from != nil && from.Column != "" && from.Enable && from.Column == to.Column && from.Unit == to.Unit && from.Interval <= to.Interval {
		return hazard.Hazard{}, false
	}
	return hazard.Hazard{Code: codeTTL, Table: table, LosesData: true,
		Text: fmt.Sprintf("TiDB's TTL jobs delete the rows whose %s is older than %d %s, which were kept before", to.Column, to.Interval, to.Unit)}, true
}
