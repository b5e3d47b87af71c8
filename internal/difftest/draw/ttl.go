package draw

import "github.com/schemagen/schemagen/internal/difftest"

// ttls sometimes gives a table with a date, datetime or timestamp column a
// ttl over it (TiDB's TTL; nothing on PostgreSQL), with its jobs off: the
// rows drawn hold dates of any age, which an enabled TTL job would delete
// on TiDB alone, at a time of its own. Rarely it draws one the compiler
// must refuse: over a column of another type.
func (g *rnd) ttls(m *difftest.Model) {
	for _, t := range m.Tables {
		if g.chance(0.12) {
			t.TTL = g.ttl(t)
		}
	}
}

// TTL draws a ttl for t as ttls does (nil where t has no column for one):
// the plan oracle's edits add, change and remove them.
func (g *Gen) TTL(t *difftest.Table) *difftest.TTL { return g.g.ttl(t) }

func (g *rnd) ttl(t *difftest.Table) *difftest.TTL {
	var dated, other []string
	for _, c := range t.Cols {
		switch c.Type.Name {
		case "date", "datetime", "timestamp":
			dated = append(dated, c.Name)
		default:
			other = append(other, c.Name)
		}
	}
	x := &difftest.TTL{Interval: pick(g, []int{1, 30, 90, 1000, 2147483647}), Unit: pick(g, []string{"second", "minute", "hour", "day", "week", "month", "quarter", "year"}), Enabled: "false"}
	switch {
	case len(dated) > 0 && !g.chance(0.05):
		x.Col = pick(g, dated)
	case len(other) > 0 && g.chance(0.05):
		x.Col = pick(g, other)
	default:
		return nil
	}
	if g.chance(0.3) {
		x.JobInterval = pick(g, []string{"10m", "24h", "7d"})
	}
	return x
}
