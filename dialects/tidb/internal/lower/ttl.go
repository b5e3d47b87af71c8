package lower

import (
	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/dialects"
	"github.com/schemagen/schemagen/dialects/internal/sqltext"
	"github.com/schemagen/schemagen/dialects/tidb/internal/lexical"
)

// ttl lowers a table's expiry to TiDB's TTL options: background jobs
// delete the rows whose column is older than the interval.
func (l *lowerer) ttl(t *compiler.Table, lt *sqltext.Table) {
	x := t.TTL
	if x == nil {
		return
	}
	l.rec.About(t.Name, compiler.KindTable, "")
	lt.Options = append(lt.Options, lexical.TTL(x.Column, x.Interval, x.Unit))
	if x.Enabled != nil {
		lt.Options = append(lt.Options, lexical.TTLEnable(*x.Enabled))
	}
	if x.JobInterval != "" {
		lt.Options = append(lt.Options, lexical.TTLJobInterval(x.JobInterval))
	}
	state := "on"
	if x.Enabled != nil && !*x.Enabled {
		state = "off (no row is deleted until TTL_ENABLE = 'ON')"
	}
	every := "1h, the server's default"
	if x.JobInterval != "" {
		every = x.JobInterval
	}
	l.rec.Decide(t.Ref(compiler.KindTable, ""), dialects.Lowered, "ttl as TTL = %s + INTERVAL %d %s: TiDB's background jobs delete the rows whose %s is older than that, every %s; rows past their time may still be read until a job deletes them; the jobs are %s", x.Column, x.Interval, x.Unit, x.Column, every, state)
}
