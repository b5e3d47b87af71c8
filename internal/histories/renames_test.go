package histories_test

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/corpora"
	"github.com/schemagen/schemagen/internal/histories"
)

// version writes one version's files (by dialect) into dir.
func version(t *testing.T, dir string, n int, files map[string]string) histories.Version {
	v := histories.Version{N: n, Name: filepath.Base(dir), Files: map[string]string{}}
	for d, sql := range files {
		p := filepath.Join(dir, d+string(rune('0'+n))+".sql")
		if err := os.WriteFile(p, []byte(sql), 0o644); err != nil {
			t.Fatal(err)
		}
		v.Files[d] = p
	}
	return v
}

// ReadRenames composes the renames of a stretch of versions, both
// dialects' files, as a team would write them in its model.
func TestReadRenames(t *testing.T) {
	dir := t.TempDir()
	pg, tidb := corpora.FamilyPostgres, corpora.FamilyMySQL
	vs := []histories.Version{
		version(t, dir, 1, map[string]string{
			// A table renamed, then its column (by the table's new name);
			// a column renamed twice.
			pg: `ALTER TABLE "login_requests" RENAME TO "login_flows";
ALTER TABLE "login_flows" RENAME COLUMN "request_id" TO "flow_id";
ALTER TABLE ids RENAME COLUMN a TO b;
ALTER TABLE ids RENAME COLUMN b TO c;
-- a column renamed and back is no rename
ALTER TABLE ids RENAME COLUMN x TO y;
ALTER TABLE ids RENAME y TO x;`,
			tidb: "RENAME TABLE `login_requests` TO `login_flows`;\nALTER TABLE `login_flows` CHANGE `request_id` `flow_id` char(36) NOT NULL;\nALTER TABLE `ids` CHANGE `a` `c` int, CHANGE `x` `x` bigint;",
		}),
		version(t, dir, 2, map[string]string{
			// A rebuild through a renamed backup: the table keeps its name.
			pg:   "ALTER TABLE totp RENAME TO _bkp_totp;\nCREATE TABLE totp (id serial);\nINSERT INTO totp SELECT * FROM _bkp_totp;\nDROP TABLE _bkp_totp;",
			tidb: "ALTER TABLE totp\n    RENAME _bkp_totp;\nCREATE TABLE totp (id int);\nDROP TABLE _bkp_totp;\nALTER TABLE t1 RENAME t2;",
		}),
	}
	got, err := histories.ReadRenames(vs, rules())
	if err != nil {
		t.Fatal(err)
	}
	wantTables := map[string]string{"login_flows": "login_requests", "_bkp_totp": "totp", "t2": "t1"}
	wantColumns := map[string]map[string]string{"login_flows": {"flow_id": "request_id"}, "ids": {"c": "a"}}
	if !maps.Equal(got.Tables, wantTables) || len(got.Columns) != len(wantColumns) {
		t.Errorf("tables %v, columns %v; want %v, %v", got.Tables, got.Columns, wantTables, wantColumns)
	}
	for tb, cols := range wantColumns {
		if !maps.Equal(got.Columns[tb], cols) {
			t.Errorf("columns of %s: %v, want %v", tb, got.Columns[tb], cols)
		}
	}

	s := &compiler.Schema{Tables: []*compiler.Table{
		{Name: "login_flows", Columns: []*compiler.Column{{Name: "id"}, {Name: "flow_id"}}},
		{Name: "totp", Columns: []*compiler.Column{{Name: "id"}}},
		{Name: "_bkp_totp", Columns: []*compiler.Column{{Name: "id"}}},
		{Name: "ids", Columns: []*compiler.Column{{Name: "c"}, {Name: "x"}}},
	}}
	if n := histories.RenamedFrom(s, got); n != 3 {
		t.Errorf("RenamedFrom wrote %d renames, want 3", n)
	}
	if s.Tables[0].RenamedFrom != "login_requests" || s.Tables[0].Columns[1].RenamedFrom != "request_id" || s.Tables[1].RenamedFrom != "" ||
		s.Tables[2].RenamedFrom != "" || s.Tables[3].Columns[0].RenamedFrom != "a" || s.Tables[3].Columns[1].RenamedFrom != "" {
		t.Errorf("renamed_from not as the history renames (the backup of a table made anew is no rename): %+v %+v %+v %+v", s.Tables[0], s.Tables[1], s.Tables[2], s.Tables[3])
	}
}

// Kratos's versions 51 to 80 rename identities.traits_schema_id to
// schema_id (its 58th, 20200705105359000000) and the request tables to flow
// tables with their columns (its 65th).
func TestReadRenamesKratos(t *testing.T) {
	h, err := histories.Read(filepath.Join(corpora.Dir(t), "histories"), "kratos")
	if err != nil {
		t.Fatal(err)
	}
	r, err := histories.ReadRenames(h.Versions[50:80], rules())
	if err != nil {
		t.Fatal(err)
	}
	for tb, want := range map[string]map[string]string{
		"identities":                     {"schema_id": "traits_schema_id"},
		"selfservice_login_flow_methods": {"selfservice_login_flow_id": "selfservice_login_request_id"},
	} {
		if !maps.Equal(r.Columns[tb], want) {
			t.Errorf("columns renamed in %s: %v, want %v", tb, r.Columns[tb], want)
		}
	}
	if r.Tables["selfservice_login_flows"] != "selfservice_login_requests" {
		t.Errorf("tables renamed: %v, want selfservice_login_flows from selfservice_login_requests", r.Tables)
	}
}
