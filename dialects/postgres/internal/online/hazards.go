package online

import (
	"fmt"
	"slices"
	"strings"

	"ariga.io/atlas/sql/postgres"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler/expr/parse"
	"github.com/schemagen/schemagen/dialects/hazard"
	"github.com/schemagen/schemagen/dialects/postgres/internal/atlasdrv"
	"github.com/schemagen/schemagen/dialects/postgres/internal/lexical"
)

// PostgreSQL's hazard codes. The lock each names is the one PostgreSQL's
// documentation gives for the statement (ALTER TABLE, CREATE INDEX) and that
// hazards_test.go observes in pg_locks.
const (
	codeIndex         = "PG101" // CREATE INDEX: SHARE, blocks writes for the build
	codeUnique        = "PG102" // a new unique index or constraint fails on duplicates
	codeCheck         = "PG103" // ADD CHECK: ACCESS EXCLUSIVE for the scan
	codeForeignKey    = "PG104" // ADD FOREIGN KEY: SHARE ROW EXCLUSIVE for the scan
	codeSetNotNull    = "PG105" // SET NOT NULL: ACCESS EXCLUSIVE for the scan
	codeColumnType    = "PG106" // ALTER COLUMN TYPE: rewrite under ACCESS EXCLUSIVE
	codeDrop          = "PG107" // data lost
	codeValidate      = "PG108" // VALIDATE CONSTRAINT: scans, blocks no writes
	codeConcurrent    = "PG109" // CREATE INDEX CONCURRENTLY: scans, blocks no writes
	codeStrongLock    = "PG110" // brief ACCESS EXCLUSIVE without lock_timeout
	codeUniqueConstr  = "PG111" // ADD UNIQUE constraint: ACCESS EXCLUSIVE for the build
	codeFKBriefShared = "PG112" // ADD FOREIGN KEY NOT VALID: brief SHARE ROW EXCLUSIVE on both tables
	codeAddRewrite    = "PG113" // ADD COLUMN computing every row: rewrite under ACCESS EXCLUSIVE
	codeOnlyIndex     = "PG114" // CREATE INDEX ON ONLY a partitioned table: catalog only, brief
	codeSubPartIndex  = "PG115" // CREATE INDEX on a partitioned table with a partitioned part: SHARE for the build
)

// HazardCodes implements dialects.Online.
func HazardCodes() []hazard.Code {
	return []hazard.Code{
		{Code: codeIndex, Dialect: "postgres", Severe: true, Title: "CREATE INDEX without CONCURRENTLY on an existing table",
			Help:    "Takes a SHARE lock for the whole build: INSERT, UPDATE and DELETE wait until the index is built. Use CREATE INDEX CONCURRENTLY in a file marked `-- atlas:txmode none` (what `migrate diff` writes unless --plain).",
			Example: `CREATE INDEX "docs_title_idx" ON "docs" ("title");`},
		{Code: codeUnique, Dialect: "postgres", Title: "New unique index or constraint on an existing table",
			Help:    "Fails when existing rows hold duplicates (a concurrent build then leaves an invalid index, which the next `migrate apply` drops and rebuilds). Look for duplicates first.",
			Example: `CREATE UNIQUE INDEX CONCURRENTLY "docs_slug_key" ON "docs" ("slug");`},
		{Code: codeCheck, Dialect: "postgres", Severe: true, Title: "ADD CHECK validated in the same statement",
			Help:    "Scans the table under an ACCESS EXCLUSIVE lock: reads and writes wait for the scan, and it fails on a row breaking the CHECK. Add it NOT VALID, then VALIDATE CONSTRAINT in a later transaction.",
			Example: `ALTER TABLE "docs" ADD CONSTRAINT "docs_title_ck" CHECK (char_length(title) > 0);`},
		{Code: codeForeignKey, Dialect: "postgres", Severe: true, Title: "ADD FOREIGN KEY validated in the same statement",
			Help:    "Scans the table under a SHARE ROW EXCLUSIVE lock on both tables: writes to either wait for the scan, and it fails on an orphan row. Add it NOT VALID, then VALIDATE CONSTRAINT in a later transaction.",
			Example: `ALTER TABLE "docs" ADD CONSTRAINT "docs_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id");`},
		{Code: codeSetNotNull, Dialect: "postgres", Severe: true, Title: "SET NOT NULL scanning the table",
			Help:    "Scans the table under ACCESS EXCLUSIVE (reads and writes wait) and fails on a NULL. Add CHECK (col IS NOT NULL) NOT VALID, VALIDATE it, then SET NOT NULL uses it and does not scan.",
			Example: `ALTER TABLE "docs" ALTER COLUMN "title" SET NOT NULL;`},
		{Code: codeColumnType, Dialect: "postgres", Severe: true, Title: "Column type change that rewrites or checks every row",
			Help:    "Rewrites the table (and its indexes) under ACCESS EXCLUSIVE; a narrower type fails on values that do not fit, and a numeric given a smaller scale rounds every value silently (20.05 becomes 20.1 at scale 1). Add a new column, backfill it in batches, switch readers and writers, drop the old one.",
			Example: `ALTER TABLE "docs" ALTER COLUMN "n" TYPE bigint;`},
		{Code: codeDrop, Dialect: "postgres", Title: "Dropping a table or column", CoveredBy: "DS102, DS103",
			Help:    "Its data is lost. Written above the statement in migration files; `migrate lint` reports it as DS102 or DS103. Stop using it first; drop it in a later release with a nolint reason.",
			Example: `ALTER TABLE "docs" DROP COLUMN "body";`},
		{Code: codeValidate, Dialect: "postgres", Title: "VALIDATE CONSTRAINT",
			Help:    "Scans the table under SHARE UPDATE EXCLUSIVE, which blocks no reads or writes; fails on a row breaking the constraint (which then stays NOT VALID, and `migrate status` lists it). Fix the rows, then apply again.",
			Example: `ALTER TABLE "docs" VALIDATE CONSTRAINT "docs_title_ck";`},
		{Code: codeConcurrent, Dialect: "postgres", Title: "CREATE INDEX CONCURRENTLY",
			Help:    "Builds the index under SHARE UPDATE EXCLUSIVE, which blocks no reads or writes, in two scans; it cannot run in a transaction (the file must say `-- atlas:txmode none`). Interrupted, it leaves an invalid index, which the next `migrate apply` drops and rebuilds.",
			Example: `CREATE INDEX CONCURRENTLY "docs_title_idx" ON "docs" ("title");`},
		{Code: codeStrongLock, Dialect: "postgres", Title: "ACCESS EXCLUSIVE lock without lock_timeout",
			Help:    "Held briefly, but while the statement waits for it behind a long transaction every read and write of the table queues behind it. Set lock_timeout earlier in the file (online plans do: `SET lock_timeout = '" + LockTimeout + "'`).",
			Example: `ALTER TABLE "docs" ADD COLUMN "note" text NULL;`},
		{Code: codeUniqueConstr, Dialect: "postgres", Severe: true, Title: "ADD UNIQUE constraint building its index",
			Help:    "Builds the index under ACCESS EXCLUSIVE: reads and writes wait for the build. Build a unique index CONCURRENTLY, then ADD CONSTRAINT ... UNIQUE USING INDEX.",
			Example: `ALTER TABLE "docs" ADD CONSTRAINT "docs_slug_key" UNIQUE ("slug");`},
		{Code: codeAddRewrite, Dialect: "postgres", Title: "ADD COLUMN that rewrites the table",
			Help:    "A stored generated column, or a default giving each row its own value (gen_random_uuid()), is computed for every existing row: the table is rewritten under ACCESS EXCLUSIVE, and reads and writes wait for it. PostgreSQL has no online form of it; a warning, not an error, since migrate diff can write nothing better: on a large table add a plain column, fill it in batches, and make it generated or give it its default later.",
			Example: `ALTER TABLE "docs" ADD COLUMN "words" int GENERATED ALWAYS AS (length(body)) STORED;`},
		{Code: codeOnlyIndex, Dialect: "postgres", Title: "Index of a partitioned table created in its catalog only",
			Help:    "CREATE INDEX ... ON ONLY a partitioned table (ALTER TABLE ONLY ... ADD CONSTRAINT ... UNIQUE for a unique constraint), or CREATE INDEX on one with no part, builds nothing: it holds SHARE (the constraint: ACCESS EXCLUSIVE) of the table until its transaction ends, briefly, and writes wait meanwhile. With parts the index is invalid, used by no query, until the index of every part is attached to it: `migrate diff`'s online file builds each part's CONCURRENTLY and attaches it (ALTER INDEX ... ATTACH PARTITION, a brief ACCESS EXCLUSIVE lock of the part's index, under lock_timeout).",
			Example: `CREATE INDEX "events_day_idx" ON ONLY "events" ("day");`},
		{Code: codeSubPartIndex, Dialect: "postgres", Title: "CREATE INDEX on a partitioned table with a partitioned part",
			Help:    "Builds the index of every part under SHARE (a unique constraint: ACCESS EXCLUSIVE) of the table for the whole build: writes wait. PostgreSQL builds no index of a partitioned part CONCURRENTLY, so `migrate diff` writes the plain form when a part is itself partitioned (never by the model, which partitions once: a database changed by hand); a warning, not an error, since it can write nothing better. On a large table create the index ON ONLY each partitioned level and build the leaves' indexes CONCURRENTLY by hand.",
			Example: `CREATE INDEX "events_day_idx" ON "events" ("day");`},
		{Code: codeFKBriefShared, Dialect: "postgres", Title: "ADD FOREIGN KEY NOT VALID without lock_timeout",
			Help:    "Takes SHARE ROW EXCLUSIVE on both tables, briefly: writes to either queue behind it while it waits for the lock. Set lock_timeout earlier in the file.",
			Example: `ALTER TABLE "docs" ADD CONSTRAINT "docs_space_fk" FOREIGN KEY ("space_id") REFERENCES "spaces" ("id") NOT VALID;`},
	}
}

func briefLock(table string) hazard.Hazard {
	return hazard.Hazard{Code: codeStrongLock, Table: table, Lock: "ACCESS EXCLUSIVE", Blocks: hazard.BlocksAll, Held: hazard.Brief}
}

func fkBriefLock(table string, fk *schema.ForeignKey) hazard.Hazard {
	return hazard.Hazard{Code: codeFKBriefShared, Table: table, Lock: "SHARE ROW EXCLUSIVE", Blocks: hazard.BlocksWrites, Held: hazard.Brief,
		Text: fmt.Sprintf("also on %s", fk.RefTable.Name)}
}

func indexHazards(table string, idx *schema.Index, concurrently, constraint bool) []hazard.Hazard {
	var hs []hazard.Hazard
	switch {
	case concurrently:
		hs = append(hs, hazard.Hazard{Code: codeConcurrent, Table: table, Lock: "SHARE UPDATE EXCLUSIVE", Blocks: hazard.BlocksNothing, Held: hazard.WholeScan, Scan: true})
	case constraint:
		hs = append(hs, hazard.Hazard{Code: codeUniqueConstr, Table: table, Lock: "ACCESS EXCLUSIVE", Blocks: hazard.BlocksAll, Held: hazard.WholeScan, Scan: true})
	default:
		hs = append(hs, hazard.Hazard{Code: codeIndex, Table: table, Lock: "SHARE", Blocks: hazard.BlocksWrites, Held: hazard.WholeScan, Scan: true})
	}
	if idx.Unique {
		hs = append(hs, hazard.Hazard{Code: codeUnique, Table: table, CanFail: true, Text: "existing duplicates make it fail"})
	}
	return hs
}

func checkHazard(table, name string) hazard.Hazard {
	return hazard.Hazard{Code: codeCheck, Table: table, Lock: "ACCESS EXCLUSIVE", Blocks: hazard.BlocksAll, Held: hazard.WholeScan, Scan: true, CanFail: true}
}

func fkHazard(table string, fk *schema.ForeignKey) hazard.Hazard {
	return hazard.Hazard{Code: codeForeignKey, Table: table, Lock: "SHARE ROW EXCLUSIVE", Blocks: hazard.BlocksWrites, Held: hazard.WholeScan, Scan: true, CanFail: true,
		Text: fmt.Sprintf("also locks %s", fk.RefTable.Name)}
}

func validateHazard(table string) hazard.Hazard {
	return hazard.Hazard{Code: codeValidate, Table: table, Lock: "SHARE UPDATE EXCLUSIVE", Blocks: hazard.BlocksNothing, Held: hazard.WholeScan, Scan: true, CanFail: true}
}

func notNullHazard(table, column string, proven bool) hazard.Hazard {
	if proven {
		return briefLock(table)
	}
	return hazard.Hazard{Code: codeSetNotNull, Table: table, Lock: "ACCESS EXCLUSIVE", Blocks: hazard.BlocksAll, Held: hazard.WholeScan, Scan: true, CanFail: true,
		Text: fmt.Sprintf("a NULL in %s makes it fail", column)}
}

func dropHazard(table, text string) hazard.Hazard {
	return hazard.Hazard{Code: codeDrop, Table: table, Lock: "ACCESS EXCLUSIVE", Blocks: hazard.BlocksAll, Held: hazard.Brief, LosesData: true, Text: text}
}

// columnHazards are the hazards of a column change other than SET NOT NULL.
func columnHazards(table string, c *schema.ModifyColumn) []hazard.Hazard {
	if !c.Change.Is(schema.ChangeType) || binaryCompatible(c.From.Type.Type, c.To.Type.Type) {
		return []hazard.Hazard{briefLock(table)}
	}
	h := hazard.Hazard{Code: codeColumnType, Table: table, Lock: "ACCESS EXCLUSIVE", Blocks: hazard.BlocksAll, Held: hazard.WholeScan,
		Rewrite: true, Scan: true, CanFail: true, Text: fmt.Sprintf("column %s becomes %s", c.To.Name, typeName(c.To.Type))}
	if dc, ok := hazard.DecimalNarrowing(c.From.Type.Type, c.To.Type.Type); ok {
		h.CanFail, h.LosesData = dc.CanFail, dc.Rounds
		h.Text += ": " + dc.Text(c.To.Name)
	}
	return []hazard.Hazard{h}
}

func typeName(t *schema.ColumnType) string {
	if t.Raw != "" {
		return t.Raw
	}
	f, err := postgres.FormatType(t.Type)
	if err != nil {
		return fmt.Sprintf("%T", t.Type)
	}
	return f
}

// rewrites reports whether adding column c rewrites the table: a stored
// generated column is computed for every row, and so is a default that
// gives each row its own value; another default is stored once (11+).
func rewrites(c *schema.Column) bool {
	for _, a := range c.Attrs {
		if _, ok := a.(*schema.GeneratedExpr); ok {
			return true
		}
	}
	if x, ok := c.Default.(*schema.RawExpr); ok {
		l := strings.ToLower(x.X)
		return strings.Contains(l, "random(") || strings.Contains(l, "gen_random_uuid(") || strings.Contains(l, "uuid_generate") || strings.Contains(l, "clock_timestamp(") || strings.Contains(l, "nextval(")
	}
	return false
}

// binaryCompatible tells the type changes PostgreSQL makes without touching
// rows: a varchar made longer or unbounded, or made text; a numeric given
// more digits before the point at the same scale, or made unconstrained.
func binaryCompatible(from, to schema.Type) bool {
	if f, ok := from.(*schema.DecimalType); ok {
		t, ok := to.(*schema.DecimalType)
		return ok && (t.Precision == 0 && t.Scale == 0 || f.Precision != 0 && t.Scale == f.Scale && t.Precision >= f.Precision)
	}
	f, ok1 := from.(*schema.StringType)
	t, ok2 := to.(*schema.StringType)
	if !ok1 || !ok2 {
		return false
	}
	varchar := func(s string) bool { return s == "character varying" || s == "varchar" }
	switch {
	case varchar(f.T) && varchar(t.T):
		return t.Size == 0 || f.Size != 0 && t.Size >= f.Size
	case varchar(f.T) && t.T == "text", f.T == "text" && t.T == "text":
		return true
	}
	return false
}

// StmtForm implements dialects.Online for statements of migration files:
// its words say how it does what its changes say (CONCURRENTLY, NOT VALID,
// VALIDATE CONSTRAINT, USING INDEX), the statements before it whether
// lock_timeout is set.
func StmtForm(stmts []string, i int) hazard.Form {
	w := words(stmts[i])
	var f hazard.Form
	if len(w) > 2 {
		f.Table = w[2].Name
		f.AlterTable = w[0].Text == "ALTER" && w[1].Text == "TABLE"
		f.Validate = w[0].Text == "ALTER" && hasSeq(w, "VALIDATE", "CONSTRAINT")
		if f.AlterTable && w[2].Text == "ONLY" && len(w) > 3 {
			f.Table, f.Only = w[3].Name, true
		}
	}
	if len(w) > 0 && w[0].Text == "CREATE" && hasSeq(w, "ON", "ONLY") {
		f.Only = true
	}
	f.Concurrently = hasSeq(w, "CONCURRENTLY")
	f.NotValid = hasSeq(w, "NOT", "VALID")
	f.UsingIndex = len(w) > 0 && w[0].Text == "ALTER" && hasSeq(w, "USING", "INDEX")
	// ALTER INDEX ... RENAME, and ALTER TABLE ... RENAME [COLUMN], which
	// renames the indexes' columns (a replay reads either as indexes
	// dropped and added): nothing is built.
	f.RenamesIndex = len(w) > 1 && w[0].Text == "ALTER" && (w[1].Text == "INDEX" || w[1].Text == "TABLE") && hasSeq(w, "RENAME")
	for _, s := range stmts[:i] {
		if ws := words(s); len(ws) > 0 && ws[0].Text == "SET" && hasSeq(ws, "LOCK_TIMEOUT") {
			f.LockTimeout = true
		}
	}
	return f
}

// Hazards implements dialects.Online: the hazards of a statement that made
// changes (read by replaying it) to tables that held rows before, in form f.
func Hazards(changes []schema.Change, f hazard.Form) []hazard.Hazard {
	var hs []hazard.Hazard
	if f.Validate {
		hs = append(hs, validateHazard(f.Table))
	}
	for _, c := range changes {
		switch c := c.(type) {
		case *schema.DropTable:
			hs = append(hs, dropHazard(c.T.Name, "the table and all its rows are lost"))
		case *schema.ModifyTable:
			rewrite := f.AlterTable && rewritesTable(c.Changes)
			for _, sc := range c.Changes {
				if _, ok := sc.(*schema.ModifyIndex); ok && rewrite {
					// A rewrite rebuilds every index of the table under
					// its ACCESS EXCLUSIVE lock (PG106 says so); a replay
					// reads the index whose expression or predicate
					// PostgreSQL prints anew over the new type as changed.
					continue
				}
				cf := f
				if mc, ok := sc.(*schema.ModifyColumn); ok {
					cf.NotNullProven = hasNotNullCheck(c.T, mc.To.Name)
				}
				hs = append(hs, changeHazards(c.T, sc, cf)...)
			}
		}
	}
	if len(hs) == 0 && f.AlterTable {
		// A change Atlas does not see (ADD CONSTRAINT ... USING INDEX over
		// a unique index) still takes ALTER TABLE's lock.
		hs = append(hs, briefLock(f.Table))
	}
	if f.LockTimeout {
		kept := hs[:0]
		for _, h := range hs {
			if h.Code != codeStrongLock && h.Code != codeFKBriefShared {
				kept = append(kept, h)
			}
		}
		hs = kept
	}
	return dedupe(hs)
}

// rewritesTable reports whether changes of one table include a column type
// change that rewrites it.
func rewritesTable(changes []schema.Change) bool {
	return slices.ContainsFunc(changes, func(c schema.Change) bool {
		mc, ok := c.(*schema.ModifyColumn)
		return ok && mc.Change.Is(schema.ChangeType) && !binaryCompatible(mc.From.Type.Type, mc.To.Type.Type)
	})
}

// changeHazards maps one change of table t, made in form f, to its hazards:
// the planner passes the form it chose, lint the form it read.
func changeHazards(t *schema.Table, c schema.Change, f hazard.Form) []hazard.Hazard {
	name := t.Name
	if f.RenamesIndex {
		// ALTER INDEX ... RENAME: SHARE UPDATE EXCLUSIVE, briefly.
		return nil
	}
	switch c := c.(type) {
	case *schema.AddIndex:
		// ADD CONSTRAINT ... UNIQUE USING INDEX builds nothing.
		if f.UsingIndex {
			return []hazard.Hazard{briefLock(name)}
		}
		_, constraint := atlasdrv.UniqueConstraint(c.I.Attrs)
		if !f.Concurrently && atlasdrv.PartitionKey(t) != "" {
			if hs, ok := partitionedIndexHazards(t, c.I, f, constraint); ok {
				return hs
			}
		}
		return indexHazards(name, c.I, f.Concurrently, constraint && f.AlterTable)
	case *schema.DropIndex:
		if f.Concurrently {
			return nil
		}
		h := briefLock(name)
		if n := len(atlasdrv.PartsOf(t)); n > 0 {
			// PostgreSQL drops no index of a partitioned table
			// CONCURRENTLY (0A000): DROP INDEX takes ACCESS EXCLUSIVE of
			// the table, each part and each part's index (pg_locks).
			h.Text = fmt.Sprintf("also of its %d parts and their indexes (no CONCURRENTLY drops a partitioned table's index)", n)
		}
		return []hazard.Hazard{h}
	case *schema.AddCheck:
		if f.NotValid {
			return []hazard.Hazard{briefLock(name)}
		}
		return []hazard.Hazard{checkHazard(name, c.C.Name)}
	case *schema.ModifyCheck:
		if f.NotValid {
			return []hazard.Hazard{briefLock(name)}
		}
		return []hazard.Hazard{checkHazard(name, c.To.Name)}
	case *schema.AddForeignKey:
		if f.NotValid {
			return []hazard.Hazard{fkBriefLock(name, c.F)}
		}
		return []hazard.Hazard{fkHazard(name, c.F)}
	case *schema.ModifyColumn:
		var hs []hazard.Hazard
		setNotNull := c.Change.Is(schema.ChangeNull) && !c.To.Type.Null
		if setNotNull {
			hs = append(hs, notNullHazard(name, c.To.Name, f.NotNullProven))
		}
		if rest := c.Change &^ schema.ChangeNull; rest != 0 || !setNotNull {
			hs = append(hs, columnHazards(name, &schema.ModifyColumn{From: c.From, To: c.To, Change: rest})...)
		}
		return hs
	case *schema.DropColumn:
		return []hazard.Hazard{dropHazard(name, fmt.Sprintf("the values of column %s are lost", c.C.Name))}
	case *schema.ModifyAttr:
		// DROP TABLE of the part; ALTER TABLE ... DETACH PARTITION makes
		// the part a table of its own, which keeps the rows.
		if d, ok := c.To.(*atlasdrv.PartDropped); ok && !f.AlterTable {
			return []hazard.Hazard{dropHazard(name, fmt.Sprintf("part %s is dropped: its table and all its rows are lost", d.Part.Name))}
		}
	case *schema.AddColumn:
		if rewrites(c.C) {
			return []hazard.Hazard{{Code: codeAddRewrite, Table: name, Lock: "ACCESS EXCLUSIVE", Blocks: hazard.BlocksAll, Held: hazard.WholeScan, Scan: true, Rewrite: true,
				Text: fmt.Sprintf("every row is given its value of %s", c.C.Name)}}
		}
		return []hazard.Hazard{briefLock(name)}
	case *atlasdrv.ModifyIndexParams:
		// ALTER INDEX ... SET / RESET of fillfactor or deduplicate_items
		// takes SHARE UPDATE EXCLUSIVE on the index alone, which blocks
		// no read or write; a GIN or BRIN index's parameters take ACCESS
		// EXCLUSIVE on it, which blocks them (PG110 below).
		if !slices.ContainsFunc(append(slices.Clone(c.From), c.To...), func(p string) bool {
			k, _, _ := strings.Cut(p, "=")
			return k != "fillfactor" && k != "deduplicate_items"
		}) {
			return nil
		}
	case *schema.ModifyIndex:
		if c.Change == schema.ChangeComment {
			// COMMENT ON INDEX: a catalog row, under a SHARE UPDATE
			// EXCLUSIVE lock of the index that blocks no reads or writes.
			return nil
		}
		// DROP INDEX and CREATE INDEX: the build holds SHARE.
		if f.Concurrently {
			return indexHazards(name, c.To, true, false)
		}
		return append([]hazard.Hazard{briefLock(name)}, indexHazards(name, c.To, false, false)...)
	case *schema.ModifyForeignKey:
		if f.NotValid {
			return []hazard.Hazard{fkBriefLock(name, c.To)}
		}
		// DROP CONSTRAINT and ADD CONSTRAINT in one statement: the new key
		// checks every row under the drop's ACCESS EXCLUSIVE lock.
		h := fkHazard(name, c.To)
		h.Lock, h.Blocks = "ACCESS EXCLUSIVE", hazard.BlocksAll
		return []hazard.Hazard{h}
	case *schema.DropCheck, *schema.DropForeignKey:
		return []hazard.Hazard{briefLock(name)}
	}
	if f.AlterTable {
		return []hazard.Hazard{briefLock(name)}
	}
	return nil
}

func dedupe(hs []hazard.Hazard) []hazard.Hazard {
	var out []hazard.Hazard
	seen := map[string]bool{}
	for _, h := range hs {
		k := h.Code + "\x00" + h.Table + "\x00" + h.Text
		if !seen[k] {
			seen[k] = true
			out = append(out, h)
		}
	}
	return out
}

// word is a keyword (upper-cased) or identifier of a statement, with its
// name as written (unquoted).
type word = parse.Word

// words splits a statement into its words with the lexer of expressions,
// skipping comments, string literals and punctuation; enough to tell how a
// statement does what its changes say.
func words(s string) []word { return parse.Words(lexical.Grammar, s) }

func hasSeq(w []word, seq ...string) bool {
	for i := 0; i+len(seq) <= len(w); i++ {
		ok := true
		for j, s := range seq {
			if w[i+j].Text != s {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
