package tidb

import (
	"strings"
	"testing"

	"github.com/schemagen/schemagen/compiler/expr"
)

// TestBindBatch: the bounds batchCond wrote are replaced by the batch's
// keys as literals, each once; anything else leaves the statement as it is.
func TestBindBatch(t *testing.T) {
	from, upto := batchBounds(expr.KindInteger)
	stmt := "UPDATE `t` SET `a` = 1 WHERE `t`.`id` >= " + from + " AND `t`.`id` <= " + upto
	got, ok := bindBatch(expr.KindInteger, stmt, "101", "200")
	if !ok || got != "UPDATE `t` SET `a` = 1 WHERE `t`.`id` >= 101 AND `t`.`id` <= 200" {
		t.Errorf("bound: %q, %v", got, ok)
	}
	uf, uu := batchBounds(expr.KindUUID)
	got, ok = bindBatch(expr.KindUUID, "DELETE FROM `t` WHERE `t`.`id` >= "+uf+" AND `t`.`id` <= "+uu, "0a'b", "ffff")
	if !ok || !strings.Contains(got, ">= '0a''b'") || !strings.Contains(got, "<= 'ffff'") {
		t.Errorf("uuid bound: %q, %v", got, ok)
	}
	for _, tc := range []struct{ stmt, from, upto string }{
		{"UPDATE `t` SET `a` = 1", "1", "2"},                              // no bounds
		{stmt + " OR `t`.`id` >= " + from, "1", "2"},                      // twice
		{stmt, "1; DROP TABLE t", "2"},                                    // not a key of the kind
		{strings.Replace(stmt, upto, "COALESCE(@other, 0)", 1), "1", "2"}, // one bound missing
	} {
		if got, ok := bindBatch(expr.KindInteger, tc.stmt, tc.from, tc.upto); ok || got != tc.stmt {
			t.Errorf("%q (%s, %s): bound to %q", tc.stmt, tc.from, tc.upto, got)
		}
	}
}
