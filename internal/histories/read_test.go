package histories_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/corpora"
	"github.com/schemagen/schemagen/internal/devdb"
	"github.com/schemagen/schemagen/internal/histories"
)

// TestRead reads the histories in the order and with the places the issue
// and the corpora's README give them, by script family, each family's file
// preferred to the file of none; the MySQL files run on TiDB.
func TestRead(t *testing.T) {
	dir := filepath.Join(corpora.Dir(t), "histories")
	pg, my := corpora.FamilyPostgres, corpora.FamilyMySQL
	k, err := histories.Read(dir, "kratos")
	if err != nil {
		t.Fatal(err)
	}
	for n, name := range map[int]string{1: "20150100000001000000", 80: "20200812124254000003", 296: "20230104193739000000", 297: "20230216142104000000", 356: "20260703000000000000"} {
		if got := k.Versions[n-1]; got.Name != name || got.N != n {
			t.Errorf("kratos version %d is %s (N %d), want %s", n, got.Name, got.N, name)
		}
	}
	for _, v := range k.Versions {
		if len(v.Files) == 0 {
			t.Errorf("kratos %s has no file", v.Name)
		}
		for d, f := range v.Files {
			base := filepath.Base(f)
			if other := map[string]string{pg: ".mysql.", my: ".postgres."}[d]; strings.Contains(base, other) {
				t.Errorf("kratos %s on %s runs %s", v.Name, d, base)
			}
		}
	}
	// 20220802103909000000 has one file, of no dialect: both run it; 20220420102701000000 has one for MySQL too.
	if v := k.Versions[slicesIndex(k, "20220802103909000000")]; v.Files[pg] != v.Files[my] {
		t.Errorf("20220802103909000000: %v, want the one file of no dialect for both", v.Files)
	}
	if v := k.Versions[slicesIndex(k, "20220420102701000000")]; !strings.HasSuffix(v.Files[my], ".mysql.up.sql") || strings.HasSuffix(v.Files[pg], ".mysql.up.sql") {
		t.Errorf("20220420102701000000: %v, want the MySQL file for mysql, the other for postgres", v.Files)
	}
	a, err := histories.Read(dir, "authelia")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Versions) != 26 || a.Versions[6].Name != "V0007" || len(a.Versions[6].Files) != 2 {
		t.Errorf("authelia: %d versions, the 7th %+v", len(a.Versions), a.Versions[6])
	}
	stmts, err := statements(a.Versions[0], devdb.TiDB)
	if err != nil || len(stmts) == 0 {
		t.Fatalf("authelia V0001 on TiDB: %d statements, %v", len(stmts), err)
	}
	for _, s := range stmts {
		if strings.Contains(s, "utf8mb4_unicode_520_ci") {
			t.Errorf("TiDB is given a collation it lacks: %.100s", s)
		}
	}
}

func slicesIndex(h *histories.History, name string) int {
	for i, v := range h.Versions {
		if v.Name == name {
			return i
		}
	}
	return -1
}
