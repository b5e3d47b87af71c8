package histories_test

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schemagen/schemagen/compiler"
	"github.com/schemagen/schemagen/internal/corpora"
	"github.com/schemagen/schemagen/internal/histories"
)

// Kratos adds NOT NULL columns in three steps (nullable, an UPDATE, SET
// NOT NULL), which import sees as one: between its 226th and 275th
// versions, internal_context of the flow tables, sessions'
// authentication_methods, identity_credential_identifiers'
// identity_credential_type_id and identity_recovery_tokens' identity_id. TwoSteps finds those a team makes in two
// diffs: on tables the last model has, NOT NULL now, absent or nullable
// then, filled by an UPDATE, with nothing else to fill the rows.
func TestTwoStepsKratos(t *testing.T) {
	h, err := histories.Read(filepath.Join(corpora.Dir(t), "histories"), "kratos")
	if err != nil {
		t.Fatal(err)
	}
	fills, err := histories.ReadFills(h.Versions[225:275], corpora.FamilyPostgres, rules()[corpora.FamilyPostgres])
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string, null bool) *compiler.Column { return &compiler.Column{Name: name, Null: null} }
	table := func(name string, cols ...*compiler.Column) *compiler.Table {
		return &compiler.Table{Name: name, Columns: append([]*compiler.Column{col("id", false)}, cols...)}
	}
	prev := &compiler.Schema{Tables: []*compiler.Table{
		table("selfservice_settings_flows"),
		table("selfservice_login_flows"),
		table("sessions", col("authentication_methods", true)),
		table("identity_credential_identifiers"),
		table("identity_recovery_tokens", col("expires_at", false)),
		table("session_devices"),
		table("courier_messages", col("send_count", true)),
	}}
	// NOT NULL already: the UPDATEs change rows, no column.
	before := &compiler.Schema{Tables: []*compiler.Table{table("sessions", col("authentication_methods", false)), table("session_devices", col("identity_id", false))}}
	withDefault := col("internal_context", false)
	withDefault.Default = &compiler.Default{Kind: compiler.DefaultString, Value: "{}"}
	next := &compiler.Schema{Tables: []*compiler.Table{
		table("selfservice_settings_flows", col("internal_context", false)),
		// A default fills the rows: one diff.
		table("selfservice_login_flows", withDefault),
		table("sessions", col("authentication_methods", false)),
		table("identity_credential_identifiers", col("identity_credential_type_id", false)),
		// A new table holds no rows.
		table("selfservice_registration_flows", col("internal_context", false)),
		table("identity_recovery_tokens", col("expires_at", false), col("identity_id", false)),
		// No UPDATE of the stretch fills it: two diffs still, no backfill.
		table("session_devices", col("identity_id", false)),
		// Nullable before and filled by no UPDATE: one diff (SET NOT NULL).
		table("courier_messages", col("send_count", false)),
	}}
	f := false
	next.Table("sessions").Column("authentication_methods").Overrides = compiler.Overrides{"tidb": {Dialect: "tidb", Null: &f}}
	got := histories.TwoSteps(prev, next, fills)
	want := map[string][]string{
		"selfservice_settings_flows":      {"internal_context"},
		"sessions":                        {"authentication_methods"},
		"identity_credential_identifiers": {"identity_credential_type_id"},
		"identity_recovery_tokens":        {"identity_id"},
		"session_devices":                 {"identity_id"},
	}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("two-step columns %v, want %v", got, want)
	}
	if histories.TwoSteps(nil, next, fills) != nil {
		t.Errorf("no model before (no directory): no table holds rows, nothing in two steps")
	}
	if got := histories.TwoSteps(before, next, fills); len(got) != 0 {
		t.Errorf("a column NOT NULL before is no two-step column: %v", got)
	}
	backfill := histories.Backfill(fills, got)
	wantFill := []string{
		"UPDATE selfservice_settings_flows SET internal_context='{}'",
		"UPDATE sessions SET authentication_methods='[]'",
		"UPDATE identity_credential_identifiers SET identity_credential_type_id = (SELECT  ict.id FROM identity_credential_types as ict JOIN identity_credentials AS ic ON (ic.identity_credential_type_id = ict.id) WHERE ic.id = identity_credential_id)",
		`UPDATE sessions SET authentication_methods='[{"method":"v0.6_legacy_session"}]' WHERE authentication_methods='[]' AND aal='aal1'`,
		"UPDATE identity_recovery_tokens SET identity_id=(SELECT identity_id FROM identity_recovery_addresses WHERE id=identity_recovery_address_id) WHERE identity_id = '00000000-0000-0000-0000-000000000000' OR identity_id IS NULL",
	}
	if !slices.Equal(backfill, wantFill) {
		t.Errorf("backfill %q, want %q", backfill, wantFill)
	}
	first := histories.Nullable(next, got)
	if c := first.Table("sessions").Column("authentication_methods"); !c.Null {
		t.Errorf("the first diff's model keeps %s NOT NULL", c.Name)
	}
	if o := first.Table("sessions").Column("authentication_methods").Overrides; len(o) != 0 {
		t.Errorf("the first diff's model keeps an override of null alone: %+v", o)
	}
	if next.Table("sessions").Column("authentication_methods").Null || first.Table("identity_recovery_tokens").Column("expires_at").Null {
		t.Errorf("Nullable changed the model it was given, or a column it was not given")
	}
}
