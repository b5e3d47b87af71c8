package importer_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/drift"
	"github.com/schemagen/schemagen/internal/testproject"
)

// TestImportTiDBUniqueKeys imports, from TiDB alone, the unique keys a
// team wrote as constraints (named, unnamed, one a foreign key references)
// and as a CREATE UNIQUE INDEX. TiDB's catalog holds each as a UNIQUE KEY
// and cannot tell them apart: import writes each as a unique constraint,
// as the database holds it, where it wrote unique indexes before. The
// model's TiDB DDL is the live schema's again, byte for byte in SHOW CREATE
// TABLE, drift finds nothing between the live database and the model (as
// it found nothing with the unique indexes: both round-trip, the
// constraint is what the database holds), and PostgreSQL's side applies.
// Unique keys over expressions stay unique indexes.
func TestImportTiDBUniqueKeys(t *testing.T) {
	t.Parallel()
	live := dbtest.TiDB(t)
	testproject.RunSQL(t, live, []byte("CREATE TABLE accounts (id bigint PRIMARY KEY, email varchar(255) NOT NULL, tenant bigint NOT NULL, handle varchar(64) NOT NULL,\n"+
		"  CONSTRAINT accounts_email_uq UNIQUE (email), UNIQUE (tenant, handle));\n"+
		"CREATE UNIQUE INDEX accounts_tenant_id_uq ON accounts (tenant, id);\n"+
		"CREATE UNIQUE INDEX accounts_lower_handle_uq ON accounts ((lower(handle)));\n"+
		"CREATE TABLE members (id bigint PRIMARY KEY, tenant bigint NOT NULL, account_id bigint NOT NULL,\n"+
		"  CONSTRAINT members_account_fk FOREIGN KEY (tenant, account_id) REFERENCES accounts (tenant, id));"))
	r, model, out := importAndCompile(t, live.URL)
	want := map[string][]string{"accounts_email_uq": {"email"}, "accounts_tenant_id_uq": {"tenant", "id"}, "tenant": {"tenant", "handle"}}
	accounts := r.Schema.Table("accounts")
	for _, u := range accounts.Uniques {
		name := u.Overrides.NameIn("tidb", u.Name)
		if cols, ok := want[name]; !ok || strings.Join(cols, ",") != strings.Join(u.Columns, ",") {
			t.Errorf("unique %s (%s on tidb) on %v is not one of the live keys", u.Name, name, u.Columns)
		}
		delete(want, name)
	}
	for name := range want {
		t.Errorf("the live unique key %s is not a unique constraint of the model", name)
	}
	for _, x := range accounts.Indexes {
		if x.Unique && x.Name != "accounts_lower_handle_uq" {
			t.Errorf("unique key %s is a unique index of the model", x.Name)
		}
	}
	if !strings.Contains(string(model), `unique "accounts_email_uq" {`) {
		t.Errorf("the written model has no unique block accounts_email_uq")
	}

	rebuilt := dbtest.TiDB(t)
	testproject.RunSQL(t, rebuilt, out.Outputs["tidb"].SQL)
	if a, b := showCreate(t, live), showCreate(t, rebuilt); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("SHOW CREATE TABLE differs:\n%s", testproject.FirstDiff(strings.Join(a, "\n"), strings.Join(b, "\n")))
	}

	// PostgreSQL's side applies, the foreign key over the unique constraint.
	testproject.RunSQL(t, dbtest.Postgres(t), out.Outputs["postgres"].SQL)

	p := testproject.New(t, string(model))
	p.Diff("init")
	rep := drift.Check(context.Background(), drift.Options{Target: p.Target("tidb"), Dev: p.Dev, Model: p.Model(), Timeout: 5 * time.Minute, Parallel: 1}, []string{live.URL})[0]
	if rep.Error != "" {
		t.Fatalf("drift: %s", rep.Error)
	}
	if rep.Model == nil {
		t.Fatalf("drift did not compare the database with the model: %+v", rep)
	}
	for _, f := range rep.Model.Findings {
		t.Errorf("drift against the model: %s %s %s.%s (expected %q, found %q)", f.Change, f.Kind, f.Table, f.Name, f.Expected, f.Found)
	}
}
