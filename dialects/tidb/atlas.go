package tidb

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"
	gomysql "github.com/go-sql-driver/mysql"

	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/describe"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/atlasdrv"
)

// OpenAtlas implements dialects.Dialect. Atlas's MySQL driver detects TiDB
// but, gating CHECKs on MySQL 8.0.16 while TiDB reports 8.0.11, neither
// inspects nor diffs them: every CHECK would be silently lost. The driver
// returned here reads TiDB's CHECKs from information_schema and diffs them
// itself, each change as one ALTER TABLE, as TiDB requires.
//
// The same version gate makes Atlas read no index expressions, and fail on
// any table with one. Inspection therefore goes through a second driver that
// sees TiDB as MySQL 8.0.13, which reads them from STATISTICS.EXPRESSION
// (TiDB has it); that version is still below Atlas's CHECK gate, whose query
// TiDB cannot answer.
func (Dialect) OpenAtlas(conn schema.ExecQuerier) (migrate.Driver, error) {
	return atlasdrv.Open(conn)
}

// ServerWarnings implements dialects.Dialect: a TiDB whose
// tidb_enable_check_constraint is off accepts CHECK constraints and ignores
// them.
func (Dialect) ServerWarnings(ctx context.Context, conn schema.ExecQuerier) ([]dialects.ServerWarning, error) {
	rows, err := conn.QueryContext(ctx, "SELECT @@GLOBAL.tidb_enable_check_constraint")
	var me *gomysql.MySQLError
	if errors.As(err, &me) && me.Number == 1193 {
		// Unknown variable: a TiDB before 7.2, which ignores CHECKs.
		return []dialects.ServerWarning{{Kind: dialects.ChecksIgnored, Text: "this TiDB has no tidb_enable_check_constraint (before v7.2): it accepts CHECK constraints and silently ignores them"}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tidb: reading tidb_enable_check_constraint: %w", err)
	}
	defer rows.Close()
	var on string
	for rows.Next() {
		if err := rows.Scan(&on); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if on == "1" || strings.EqualFold(on, "ON") {
		return nil, nil
	}
	return []dialects.ServerWarning{{Kind: dialects.ChecksIgnored, Text: "tidb_enable_check_constraint is OFF: this TiDB accepts CHECK constraints and silently ignores them (SET GLOBAL tidb_enable_check_constraint = ON)"}}, nil
}

// MarshalState implements dialects.Dialect.
// The table options Atlas's HCL leaves out (AUTO_RANDOM, AUTO_ID_CACHE)
// follow it as comment lines.
func (Dialect) MarshalState(s *schema.Schema) ([]byte, error) {
	b, err := sqltext.MarshalState(s, mysql.MarshalHCL)
	if err != nil {
		return nil, err
	}
	opts, err := atlasdrv.MarshalOptions(s)
	if err != nil {
		return nil, err
	}
	if len(opts) > 0 && len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return append(b, opts...), nil
}

// UnmarshalState implements dialects.Dialect.
//
// Atlas's HCL leaves out a table's charset and collation where they are the
// schema's: they are set again, since a statement planned from the table
// writes a column's collation only where it differs from its table's (a
// fix would otherwise reset exact_strings' collation to the default).
func (Dialect) UnmarshalState(b []byte) (*schema.Schema, error) {
	s, err := sqltext.UnmarshalState(b, mysql.EvalHCLBytes)
	if err != nil {
		return nil, err
	}
	atlasdrv.VectorTypes(s)
	if err := atlasdrv.UnmarshalOptions(s, b); err != nil {
		return nil, err
	}
	var (
		charset schema.Charset
		coll    schema.Collation
	)
	for _, a := range s.Attrs {
		switch a := a.(type) {
		case *schema.Charset:
			charset = *a
		case *schema.Collation:
			coll = *a
		}
	}
	for _, t := range s.Tables {
		hasCharset, hasColl := false, false
		for _, a := range t.Attrs {
			switch a.(type) {
			case *schema.Charset:
				hasCharset = true
			case *schema.Collation:
				hasColl = true
			}
		}
		if !hasCharset && charset.V != "" {
			t.Attrs = append(t.Attrs, &schema.Charset{V: charset.V})
		}
		if !hasColl && coll.V != "" {
			t.Attrs = append(t.Attrs, &schema.Collation{V: coll.V})
		}
	}
	return s, nil
}

// Describe implements dialects.Describer with Atlas's MySQL type printer
// (TiDB has no partial indexes).
//
// A column's AUTO_INCREMENT and AUTO_RANDOM are part of its description:
// a drift that adds or removes one would otherwise read "expected bigint NOT
// NULL, found bigint NOT NULL".
func (Dialect) Describe(obj any) string {
	switch o := obj.(type) {
	case *atlasdrv.AutoIDCache:
		return fmt.Sprintf("AUTO_ID_CACHE = %d", o.N)
	case *atlasdrv.ShardRowIDBits:
		return fmt.Sprintf("SHARD_ROW_ID_BITS = %d", o.N)
	case *atlasdrv.PreSplitRegions:
		return fmt.Sprintf("PRE_SPLIT_REGIONS = %d", o.N)
	case *atlasdrv.TTL:
		return o.String()
	case *atlasdrv.Partition:
		return o.String()
	case *atlasdrv.PartAdded:
		return "PARTITION " + o.Part.Name + " " + o.Part.Def
	case *atlasdrv.PartDropped:
		return "no PARTITION " + o.Part.Name
	case *atlasdrv.PartitionRefused:
		return o.To.String()
	case *atlasdrv.TTLRemoved:
		return "no TTL"
	}
	s := printer.Object(obj)
	if i, ok := obj.(*schema.Index); ok {
		for _, a := range i.Attrs {
			switch a := a.(type) {
			case *atlasdrv.Clustered:
				s += map[bool]string{true: " CLUSTERED", false: " NONCLUSTERED"}[a.V]
			case *atlasdrv.Invisible:
				s += " INVISIBLE"
			case *atlasdrv.VectorIndex:
				s += " VECTOR (" + a.Distance + ")"
			}
		}
	}
	if c, ok := obj.(*schema.Column); ok {
		if atlasdrv.AutoIncrement(c) {
			s += " AUTO_INCREMENT"
		}
		if r := atlasdrv.AutoRandomOf(c); r != nil {
			s += " " + atlasdrv.AutoRandomClause(r)
		}
	}
	return s
}

var printer = describe.Printer{FormatType: mysql.FormatType}

// ScanStmts implements dialects.Dialect with the scanner of Atlas's MySQL
// driver (backslash escapes, # comments), which needs no connection. Atlas's
// generic scanner would break statements such as 'it\'s; fine'.
func (Dialect) ScanStmts(input string) ([]*migrate.Stmt, error) {
	return (*mysql.Driver)(nil).ScanStmts(input)
}

// UseExprs implements dialects.Dialect. A default keeps the kind Atlas
// inspected (literal or expression), which decides how its planner quotes
// it; TiDB has no index predicates.
func (Dialect) UseExprs(s *schema.Schema, x *dialects.Exprs) {
	sqltext.UseExprs(s, x, sqltext.Using{
		Default: func(old schema.Expr, text string) schema.Expr {
			if _, ok := old.(*schema.Literal); ok {
				return &schema.Literal{V: text}
			}
			return &schema.RawExpr{X: text}
		},
	})
}

// Volatile implements dialects.Atlas: the AUTO_INCREMENT counter changes
// with the data, and the CREATE TABLE text repeats what the other attributes
// say along with that counter.
func (Dialect) Volatile(a schema.Attr) bool {
	switch a.(type) {
	case *mysql.AutoIncrement, *mysql.CreateStmt:
		return true
	}
	return false
}
