package hazard

import (
	"fmt"
	"strings"

	"ariga.io/atlas/sql/schema"
)

// TimeRounding is a date and time column whose fraction of a second a
// type change narrows: the databases round the dropped digits, alike but
// in two cases (checked on both servers).
//
//   - An instant before 2000-01-01 whose dropped digits are exactly half a
//     unit of the new precision: PostgreSQL rounds half away from its
//     epoch, 2000-01-01, so down ('1999-12-31 23:59:59.5' becomes
//     '23:59:59'), TiDB rounds half up ('2000-01-01 00:00:00').
//   - An instant that rounds up past '9999-12-31 23:59:59': PostgreSQL's
//     range CHECK then stops the change (23514), TiDB writes the year
//     10000, which it refuses everywhere else (plan oracle, seed 92323,
//     evolution 92323277221).
//
// Both plans fail, naming the column, on such rows, before the change.
type TimeRounding struct {
	// Digits is the new precision, 0 to 5.
	Digits int
	// Unit is how many microseconds a unit of the new precision holds.
	Unit int64
}

// TimeNarrowed reports the rounding of a change from type from to type to,
// both date and time types (a time of day rounds alike on both);
// precision is a dialect's precision of a type that states none.
func TimeNarrowed(from, to schema.Type, precision func(*schema.TimeType) int) (TimeRounding, bool) {
	f, ok1 := from.(*schema.TimeType)
	t, ok2 := to.(*schema.TimeType)
	if !ok1 || !ok2 || !withDate(f) || !withDate(t) {
		return TimeRounding{}, false
	}
	fp, tp := precision(f), precision(t)
	if tp >= fp || tp < 0 {
		return TimeRounding{}, false
	}
	unit := int64(1)
	for range 6 - tp {
		unit *= 10
	}
	return TimeRounding{Digits: tp, Unit: unit}, true
}

func withDate(t *schema.TimeType) bool {
	s := strings.ToLower(t.T)
	return strings.HasPrefix(s, "timestamp") || s == "datetime"
}

// Top is the first instant that rounds past the year 9999, as the text of
// a literal without a zone ('9999-12-31 23:59:59.995' for 2 digits).
func (r TimeRounding) Top() string {
	return "9999-12-31 23:59:59." + strings.Repeat("9", r.Digits) + "5"
}

// Why is what the guard's failure says of column col of table t.
func (r TimeRounding) Why(t, col string) string {
	return fmt.Sprintf("rows of %s whose %s PostgreSQL and TiDB round differently to %d fractional digits (an exact half before 2000, or past the year 9999)", t, col, r.Digits)
}
