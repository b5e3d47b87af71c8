package compiler

import (
	"strconv"
	"strings"
)

// TTLUnits are the units a ttl's interval takes: those TiDB's TTL accepts
// and prints back as written.
var TTLUnits = []string{"MICROSECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR"}

// TTLMax is the most of each unit a ttl's interval takes: about 1,000
// years (TiDB refuses an interval that reaches back before year 1 from
// the day the DDL runs, 1441, so a limit that holds whatever the day).
var TTLMax = map[string]int64{"MICROSECOND": 1<<31 - 1, "SECOND": 1<<31 - 1, "MINUTE": 525_600_000, "HOUR": 8_760_000,
	"DAY": 365_000, "WEEK": 52_000, "MONTH": 12_000, "QUARTER": 4_000, "YEAR": 1_000}

// ValidJobInterval reports whether s is a TTL_JOB_INTERVAL TiDB's TTL
// jobs can read (its ParseDuration): numbers each followed by d, h or m
// ("24h", "1h30m", "1.5d"), more than zero. TiDB refuses others (1064),
// but takes "0m".
func ValidJobInterval(s string) bool {
	if len(s) > 64 {
		return false
	}
	positive := false
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
		if i <= 0 || !strings.ContainsRune("dhm", rune(s[i])) {
			return false
		}
		f, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return false
		}
		positive = positive || f > 0
		s = s[i+1:]
	}
	return positive
}

// BoundLess orders two bounds of one column (both int64 or both strings in
// the canonical date forms, which order as text).
func BoundLess(a, b any) bool {
	switch a := a.(type) {
	case int64:
		bb, ok := b.(int64)
		return ok && a < bb
	case string:
		bb, ok := b.(string)
		return ok && a < bb
	}
	return false
}
