package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/migration"
)

// TestApplySIGINT sends a real SIGINT to a real `schemagen migrate apply`
// process while PostgreSQL builds an index CONCURRENTLY: the process
// cancels the build on the server before it exits, says so, and the next
// apply drops the invalid index it left and builds it.
func TestApplySIGINT(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "schemagen")
	build := exec.Command("go", "build", "-o", bin, "github.com/schemagen/schemagen/cmd/schemagen")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := dbtest.Postgres(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "atlas.hcl")
	os.WriteFile(config, []byte(fmt.Sprintf("env \"postgres\" {\n  url = %q\n  migration {\n    dir = \"file://migrations\"\n  }\n}\n", db.URL)), 0o644)
	migs := filepath.Join(dir, "migrations")
	os.MkdirAll(migs, 0o755)
	os.WriteFile(filepath.Join(migs, "20260101000001_init.sql"), []byte(`CREATE FUNCTION slow(x integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN PERFORM pg_sleep(0.01); RETURN x; END $$;
CREATE TABLE "big" ("id" integer NOT NULL, "s" integer NOT NULL, PRIMARY KEY ("id"));
INSERT INTO "big" SELECT g, g FROM generate_series(1, 400) g;
`), 0o644)
	os.WriteFile(filepath.Join(migs, "20260101000002_index.sql"), []byte("-- atlas:txmode none\n\nCREATE INDEX CONCURRENTLY \"big_s_idx\" ON \"big\" (slow(s));\n"), 0o644)
	d, err := migration.OpenDir(migs, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := migration.Hash(d); err != nil {
		t.Fatal(err)
	}

	apply := func() (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(bin, "migrate", "apply", "--env", "postgres", "--config", config)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	active := func(minAge string) int {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'CREATE INDEX CONCURRENTLY%' AND now() - query_start >= $1::interval`, minAge).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	cmd, out := apply()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(2 * time.Minute)
	for active("300 ms") == 0 {
		select {
		case err := <-exited:
			t.Fatalf("apply exited before the index build ran: %v\n%s", err, out)
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the index build never ran:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var werr error
	select {
	case werr = <-exited:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("apply did not exit a minute after SIGINT:\n%s", out)
	}
	if n := active("0"); n != 0 {
		t.Errorf("the index build goes on on the server after schemagen exited")
	}
	code := -1
	if ee, ok := werr.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 1 || !strings.Contains(out.String(), "cancelling the running statement on the server") ||
		!strings.Contains(out.String(), "statement 1 of 1 failed: interrupted: the statement was cancelled on the server") {
		t.Errorf("after SIGINT: exit %d (%v), output:\n%s", code, werr, out)
	}
	t.Logf("after SIGINT:\n%s", out)

	cmd, out = apply()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the apply after SIGINT: %v\n%s", err, out)
	}
	var valid bool
	if err := db.QueryRow(`SELECT indisvalid FROM pg_index WHERE indexrelid = 'big_s_idx'::regclass`).Scan(&valid); err != nil || !valid {
		t.Errorf("big_s_idx after the next apply: valid %v (%v)\n%s", valid, err, out)
	}
}
