package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
)

// A user without a checkout: `dev install tidb` leaves a tidb-server in the
// cache directory (here the go build is a fake that links this machine's
// real tidb-server there: a real build takes minutes), and `migrate diff`,
// with no TiDB dev URL, no SCHEMAGEN_TIDB_SERVER and no tidb-server on PATH,
// starts its embedded TiDB from it.
func TestDevInstallTiDBThenMigrateDiff(t *testing.T) {
	real, err := devdb.FindTiDBServer("")
	if err != nil {
		dbtest.Unavailable(t, err.Error())
	}
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go")
	}
	fake := t.TempDir()
	script := "#!/bin/sh\nif [ \"$1\" = env ]; then exec " + realGo + " \"$@\"; fi\n" +
		"[ -f go.mod ] && [ -f go.sum ] && [ -f tools.go ] || { echo 'not in a module' >&2; exit 1; }\n" +
		"out=\nwhile [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n" +
		"echo github.com/pingcap/tidb/pkg/parser >&2\n/bin/ln -s " + real + " \"$out\"\n"
	if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv(devdb.TiDBServerEnv, "")
	t.Setenv("PATH", fake)
	t.Setenv("SCHEMAGEN_DEV_POSTGRES_URL", dbtest.ServerURL(t, "postgres"))
	t.Setenv("SCHEMAGEN_DEV_TIDB_URL", "")
	dir := t.TempDir()
	installed := filepath.Join(cache, "schemagen", "bin", "tidb-server")

	r := runIn(t, dir, "dev", "install", "tidb")
	if r.code != 0 || strings.TrimSpace(r.stdout) != installed {
		t.Fatalf("dev install tidb: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantIn(t, "dev install progress", r.stderr, "building tidb-server "+devdb.TiDBVersion(), "built "+installed)
	if r := runIn(t, dir, "dev", "install", "tidb"); r.code != 0 || !strings.Contains(r.stderr, "is up to date") {
		t.Fatalf("dev install tidb again: exit %d\n%s", r.code, r.stderr)
	}
	if r := runIn(t, dir, "dev", "install", "mysql"); r.code != 2 || !strings.Contains(r.stderr, "valid values are tidb") {
		t.Errorf("dev install mysql: exit %d\n%s", r.code, r.stderr)
	}

	for _, args := range [][]string{{"init"}, {"generate"}} {
		if r := runIn(t, dir, args...); r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	r = runIn(t, dir, "migrate", "diff", "init", "--env", "tidb")
	if r.code != 0 {
		t.Fatalf("migrate diff: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	wantIn(t, "migrate diff stderr", r.stderr, "no tidb dev database URL configured", "starting an embedded TiDB from "+installed)
	if m, _ := filepath.Glob(filepath.Join(dir, "migrations/tidb/*_init.sql")); len(m) != 1 {
		t.Errorf("no TiDB migration written: %v", m)
	}
}

// Without any tidb-server, the error names the command that installs one and
// the dev URL variable, once.
func TestMissingTiDBNamesInstallCommand(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv(devdb.TiDBServerEnv, "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("SCHEMAGEN_DEV_TIDB_URL", "")
	dir := t.TempDir()
	for _, args := range [][]string{{"init"}, {"generate"}} {
		if r := runIn(t, dir, args...); r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	r := runIn(t, dir, "migrate", "diff", "init", "--env", "tidb")
	if r.code == 0 {
		t.Fatal("migrate diff without a TiDB succeeded")
	}
	wantIn(t, "migrate diff", r.stderr, "`schemagen dev install tidb`", "SCHEMAGEN_DEV_TIDB_URL")
	if n := strings.Count(r.stderr, "tidb-server not found"); n != 1 {
		t.Errorf("the error is printed %d times:\n%s", n, r.stderr)
	}
}

// A dev URL of the wrong dialect is refused before connecting, once, with
// what is wrong, not with what the other database answered.
func TestDevURLOfAnotherDialect(t *testing.T) {
	pgServer := dbtest.ServerURL(t, "postgres")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("SCHEMAGEN_DEV_POSTGRES_URL", pgServer)
	t.Setenv("SCHEMAGEN_DEV_TIDB_URL", pgServer)
	dir := t.TempDir()
	for _, args := range [][]string{{"init"}, {"generate"}} {
		if r := runIn(t, dir, args...); r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	r := runIn(t, dir, "migrate", "diff", "init")
	if r.code != 2 {
		t.Errorf("migrate diff: exit %d, want 2", r.code)
	}
	wantIn(t, "migrate diff", r.stderr, "env tidb: dev database postgres://postgres@", "is a postgres URL, but the env is tidb: give it a tidb server's URL (mysql://...)")
	if strings.Contains(r.stderr, "system variables") || strings.Count(r.stderr, "is a postgres URL") != 1 {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "migrations/*/*.sql")); len(m) != 0 {
		t.Errorf("files written: %v", m)
	}
}

// A dev server that cannot be reached is reported once per env, as a
// connection failure (not as a missing CREATE DATABASE privilege).
func TestUnreachableDevServerReportedOnce(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("SCHEMAGEN_DEV_POSTGRES_URL", "postgres://postgres:pw@127.0.0.1:1/postgres?sslmode=disable")
	t.Setenv("SCHEMAGEN_DEV_TIDB_URL", "mysql://root@127.0.0.1:1/")
	dir := t.TempDir()
	for _, args := range [][]string{{"init"}, {"generate"}} {
		if r := runIn(t, dir, args...); r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
	r := runIn(t, dir, "migrate", "diff", "init")
	if r.code != 2 {
		t.Errorf("exit %d", r.code)
	}
	wantIn(t, "migrate diff", r.stderr, "env postgres: dev database postgres://postgres:xxxxx@127.0.0.1:1/postgres?sslmode=disable: cannot connect:", "env tidb: dev database mysql://root@127.0.0.1:1/: cannot connect:")
	if n := strings.Count(r.stderr, "cannot connect"); n != 2 || strings.Contains(r.stderr, "must be able to create") || strings.Contains(r.stderr, ":pw@") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}
