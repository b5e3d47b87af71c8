package devdb_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/devdb"
)

// fakeGo writes a go command that answers `go env` with the real one and,
// for a build, records its directory and arguments in log and puts a script
// at the -o path, printing what go build -v prints.
func fakeGo(t *testing.T, log string) string {
	t.Helper()
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	dir := t.TempDir()
	script := `#!/bin/sh
if [ "$1" = env ]; then exec ` + realGo + ` "$@"; fi
echo "dir=$PWD" >>` + log + `
echo "args=$*" >>` + log + `
cat go.mod go.sum tools.go | sha256sum >>` + log + `
out=
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
echo "go: downloading github.com/pingcap/tidb v1.1.0" >&2
echo "github.com/pingcap/tidb/pkg/parser" >&2
sleep 0.3
printf '#!/bin/sh\necho fake tidb-server\n' >"$out"
chmod +x "$out"
`
	p := filepath.Join(dir, "go")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// dev install tidb builds what scripts/build-tidb.sh builds, with the same
// stamp, into the cache directory where FindTiDBServer then finds it
// without a checkout; a second install is a no-op.
func TestInstallTiDB(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	goCmd := fakeGo(t, log)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	bin, err := devdb.CacheBinDir()
	if err != nil || bin != filepath.Join(cache, "schemagen", "bin") {
		t.Fatalf("CacheBinDir = %s, %v", bin, err)
	}
	var progress strings.Builder
	path, built, err := devdb.InstallTiDB(context.Background(), devdb.InstallOptions{Go: goCmd, Progress: &progress, ProgressEvery: 100 * time.Millisecond})
	if err != nil || !built || path != filepath.Join(bin, "tidb-server") {
		t.Fatalf("InstallTiDB = %s, %v, %v\n%s", path, built, err, progress.String())
	}
	t.Logf("progress:\n%s", progress.String())
	for _, want := range []string{"building tidb-server " + devdb.TiDBVersion(), "1 modules downloaded, 1 packages compiled", "built " + path} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress lacks %q", want)
		}
	}
	got, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != 3 {
		t.Fatalf("the fake go ran %d times:\n%s", len(lines)/3, got)
	}
	if want := "dir=" + filepath.Join(cache, "schemagen", "tidb-build"); lines[0] != want {
		t.Errorf("built in %s, want %s", lines[0], want)
	}
	if want := "args=" + strings.Join(devdb.TiDBBuildArgs(path+".tmp"), " "); lines[1] != want {
		t.Errorf("%s, want %s", lines[1], want)
	}

	// The same module and command as scripts/build-tidb.sh.
	root := "../.."
	script, err := os.ReadFile(filepath.Join(root, "scripts/build-tidb.sh"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := exec.Command("sh", "-c", "cd "+root+" && cat tools/tidb/go.mod tools/tidb/go.sum tools/tidb/tools.go | sha256sum").Output()
	if err != nil || strings.TrimSpace(string(sum)) != lines[2] {
		t.Errorf("the build's module files are not tools/tidb's: %s vs %s", sum, lines[2])
	}
	build := regexp.MustCompile(`cd tools/tidb && go build -o "[^"]+" (\S+)\)`).FindSubmatch(script)
	args := devdb.TiDBBuildArgs("OUT")
	if build == nil || string(build[1]) != args[len(args)-1] || args[0] != "build" {
		t.Errorf("scripts/build-tidb.sh builds %q; dev install tidb runs go %v", build, args)
	}
	// The script's stamp, computed by the script's own line, is ours.
	wantLine := regexp.MustCompile(`(?m)^want=(.*)$`).FindSubmatch(script)
	if wantLine == nil {
		t.Fatal("scripts/build-tidb.sh has no want= line")
	}
	scriptStamp, err := exec.Command("bash", "-c", "cd "+root+" && echo "+string(wantLine[1])).Output()
	stamp, _ := os.ReadFile(path + ".stamp")
	if err != nil || strings.TrimSpace(string(scriptStamp)) != strings.TrimSpace(string(stamp)) {
		t.Errorf("stamp %s, scripts/build-tidb.sh computes %s (%v)", stamp, scriptStamp, err)
	}

	// Up to date: nothing is built.
	progress.Reset()
	if _, built, err := devdb.InstallTiDB(context.Background(), devdb.InstallOptions{Go: goCmd, Progress: &progress}); err != nil || built {
		t.Fatalf("second install: built %v, %v", built, err)
	}
	if !strings.Contains(progress.String(), "is up to date") {
		t.Errorf("second install said %q", progress.String())
	}
	if got2, _ := os.ReadFile(log); string(got2) != string(got) {
		t.Error("the second install ran go build")
	}

	// Found there without a checkout, PATH or variable.
	t.Setenv(devdb.TiDBServerEnv, "")
	t.Setenv("PATH", t.TempDir())
	t.Chdir(t.TempDir())
	if found, err := devdb.FindTiDBServer(""); err != nil || found != path {
		t.Errorf("FindTiDBServer = %s, %v; want %s", found, err, path)
	}
}

// Without Go, the error says what is needed and the alternative.
func TestInstallTiDBWithoutGo(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	_, _, err := devdb.InstallTiDB(context.Background(), devdb.InstallOptions{Go: "no-such-go-command"})
	if err == nil || !strings.Contains(err.Error(), "Go toolchain") || !strings.Contains(err.Error(), "SCHEMAGEN_DEV_TIDB_URL") {
		t.Errorf("err = %v", err)
	}
}

// The stamp of the tidb-server that scripts/build-tidb.sh built in this
// checkout is the one dev install computes: a binary built either way is
// recognised as up to date by both.
func TestTiDBStampMatchesBuildScript(t *testing.T) {
	stamp, err := os.ReadFile("../../.cache/bin/tidb-server.stamp")
	if err != nil {
		t.Skip("no .cache/bin/tidb-server.stamp in this checkout")
	}
	env, err := exec.Command("go", "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := devdb.TiDBStamp(env); got != strings.TrimSpace(string(stamp)) {
		t.Errorf("TiDBStamp = %s, .cache/bin/tidb-server.stamp = %s", got, stamp)
	}
}
