package atlasdrv

import (
	"regexp"
	"strconv"
	"strings"

	"ariga.io/atlas/sql/mysql"
	"ariga.io/atlas/sql/schema"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// TTL is a table's TTL, TTL_ENABLE and TTL_JOB_INTERVAL, which Atlas's
// MySQL driver neither inspects nor plans. The inspection always holds all
// three: TiDB prints TTL_ENABLE and TTL_JOB_INTERVAL with every TTL.
type TTL struct {
	schema.Attr `json:"-"`
	Column      string `json:"column"`
	Interval    int64  `json:"interval"`
	Unit        string `json:"unit"`
	Enable      bool   `json:"enable"`
	// JobInterval is TTL_JOB_INTERVAL as TiDB prints it ("1h").
	JobInterval string `json:"job_interval"`
}

// String is x as its table options.
func (x *TTL) String() string {
	if x == nil || x.Column == "" {
		return "no TTL"
	}
	return strings.Join(ttlOptions(x), " ")
}

// DefaultJobInterval is TiDB's TTL_JOB_INTERVAL where none is written.
const DefaultJobInterval = "1h"

// TTLOf returns t's TTL, or nil.
func TTLOf(t *schema.Table) *TTL {
	for _, a := range t.Attrs {
		if x, ok := a.(*TTL); ok {
			return x
		}
	}
	return nil
}

// SHOW CREATE TABLE prints /*T![ttl] TTL=`created_at` + INTERVAL 90 DAY */
// /*T![ttl] TTL_ENABLE='ON' */ /*T![ttl] TTL_JOB_INTERVAL='1h' */.
var (
	ttlOption   = regexp.MustCompile("TTL\\s*=\\s*`((?:[^`]|``)+)`\\s*\\+\\s*INTERVAL\\s+(\\d+)\\s+([A-Za-z]+)")
	ttlEnable   = regexp.MustCompile(`TTL_ENABLE\s*=\s*'(ON|OFF)'`)
	ttlInterval = regexp.MustCompile(`TTL_JOB_INTERVAL\s*=\s*'([^']*)'`)
)

// readTTL sets t's TTL from its CREATE TABLE text.
func readTTL(t *schema.Table, create string) {
	m := ttlOption.FindStringSubmatch(create)
	if m == nil {
		return
	}
	n, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return
	}
	x := &TTL{Column: strings.ReplaceAll(m[1], "``", "`"), Interval: n, Unit: strings.ToUpper(m[3]), Enable: true, JobInterval: DefaultJobInterval}
	if e := ttlEnable.FindStringSubmatch(create); e != nil {
		x.Enable = e[1] == "ON"
	}
	if j := ttlInterval.FindStringSubmatch(create); j != nil {
		x.JobInterval = j[1]
	}
	schema.ReplaceOrAppend(&t.Attrs, x)
}

// sameTTL reports whether a and b are the same TTL (or both none).
func sameTTL(a, b *TTL) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// TTLRemoved is the change that removes a table's TTL (REMOVE TTL).
type TTLRemoved struct {
	schema.Attr
	From *TTL
}

// PlannedFirst implements hazard.First: TiDB refuses to drop or change
// the column of a TTL, so the TTL goes before the table's other changes.
func (*TTLRemoved) PlannedFirst() bool { return true }

// ttlChanges are the changes of a table's TTL: REMOVE TTL, before the
// table's other changes, where the TTL goes or moves to another column
// (TiDB refuses to drop or change the column of a TTL), and the TTL with
// all its options, after them (its column may be added by them), so that a
// TTL never runs with the options of neither side.
func ttlChanges(from, to *schema.Table) (before, after schema.Change) {
	f, x := TTLOf(from), TTLOf(to)
	if sameTTL(f, x) {
		return nil, nil
	}
	if f != nil && (x == nil || f.Column != x.Column) {
		before = &schema.ModifyAttr{From: f, To: &TTLRemoved{From: f}}
		f = nil
	}
	if x != nil {
		after = &schema.ModifyAttr{From: orNone(f), To: x}
	}
	return before, after
}

// orNone is f, or an empty TTL standing for none (a ModifyAttr needs both
// sides).
func orNone(f *TTL) *TTL {
	if f == nil {
		return &TTL{}
	}
	return f
}

// ttlOptions are the table options that give a table TTL x: all three, so
// that the result does not depend on what the table had.
func ttlOptions(x *TTL) []string {
	return []string{lexical.TTL(x.Column, x.Interval, x.Unit), lexical.TTLEnable(x.Enable), lexical.TTLJobInterval(x.JobInterval)}
}

// ttlCreateOptions is the ModifyAttr Atlas's planner writes for a TTL
// change: its options as CREATE TABLE options, or REMOVE TTL.
func ttlCreateOptions(x *schema.ModifyAttr) (schema.Change, bool) {
	switch to := x.To.(type) {
	case *TTL:
		return &schema.ModifyAttr{From: &mysql.CreateOptions{V: "REMOVE TTL"}, To: &mysql.CreateOptions{V: strings.Join(ttlOptions(to), " ")}}, true
	case *TTLRemoved:
		return &schema.ModifyAttr{From: &mysql.CreateOptions{V: strings.Join(ttlOptions(to.From), " ")}, To: &mysql.CreateOptions{V: "REMOVE TTL"}}, true
	}
	return nil, false
}

// Model is x as the model's ttl, nil for none; TTL_ENABLE = 'ON' and
// TTL_JOB_INTERVAL = '1h' are the server's defaults, left out.
func (x *TTL) Model() *compiler.TTL {
	if x == nil {
		return nil
	}
	out := &compiler.TTL{Column: x.Column, Interval: x.Interval, Unit: x.Unit}
	if !x.Enable {
		out.Enabled = new(bool)
	}
	if x.JobInterval != DefaultJobInterval {
		out.JobInterval = x.JobInterval
	}
	return out
}
