package devdb

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/schemagen/schemagen/internal/devdb/tidbpin"
)

// InstallTiDBCommand is the command that builds tidb-server without a
// checkout, named in every message about a missing one.
const InstallTiDBCommand = "schemagen dev install tidb"

// CacheBinDir is where `schemagen dev install` puts servers and
// FindTiDBServer looks last: $XDG_CACHE_HOME/schemagen/bin, by default
// ~/.cache/schemagen/bin.
func CacheBinDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "schemagen", "bin"), nil
}

// InstallOptions tune InstallTiDB.
type InstallOptions struct {
	// Go is the go command; default "go" on PATH.
	Go string
	// BinDir is where tidb-server goes; default CacheBinDir().
	BinDir string
	// Progress receives what the build does, a line every ProgressEvery.
	Progress io.Writer
	// ProgressEvery is how often the build's progress is printed; default 20s.
	ProgressEvery time.Duration
	// Force rebuilds a binary that is up to date.
	Force bool
}

// InstallTiDB builds the tidb-server pinned in tools/tidb/go.mod (embedded
// in schemagen, see tidbpin) with the user's Go toolchain into
// opts.BinDir/tidb-server, the way scripts/build-tidb.sh does: `go build` of
// tidbpin.Package in a module made of tools/tidb's go.mod, go.sum and
// tools.go. A binary built from the same files with the same Go version,
// OS, architecture and cgo setting (the stamp beside it, the same as the
// script's) is kept, and built reports false. The build runs in
// BinDir/../tidb-build, which is kept so that a second build reuses it.
func InstallTiDB(ctx context.Context, opts InstallOptions) (path string, built bool, err error) {
	goCmd := opts.Go
	if goCmd == "" {
		goCmd = "go"
	}
	if p, err := exec.LookPath(goCmd); err != nil {
		return "", false, fmt.Errorf("%s needs the Go toolchain (go 1.26 or later), and %q is not on PATH: install Go from https://go.dev/dl, or set SCHEMAGEN_DEV_TIDB_URL to a TiDB server instead", InstallTiDBCommand, goCmd)
	} else {
		goCmd = p
	}
	bin := opts.BinDir
	if bin == "" {
		if bin, err = CacheBinDir(); err != nil {
			return "", false, fmt.Errorf("%s: no cache directory: %w", InstallTiDBCommand, err)
		}
	}
	out := filepath.Join(bin, "tidb-server")
	stampPath := out + ".stamp"
	env, err := exec.CommandContext(ctx, goCmd, "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED").Output()
	if err != nil {
		return "", false, fmt.Errorf("%s: go env: %w", InstallTiDBCommand, err)
	}
	stamp := TiDBStamp(env)
	if !opts.Force && isExecutable(out) {
		if old, err := os.ReadFile(stampPath); err == nil && strings.TrimSpace(string(old)) == stamp {
			progressf(opts.Progress, "%s is up to date (TiDB %s, %s)", out, TiDBVersion(), strings.Fields(string(env))[0])
			return out, false, nil
		}
	}
	work := filepath.Join(filepath.Dir(bin), "tidb-build")
	for _, d := range []string{bin, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", false, fmt.Errorf("%s: %w", InstallTiDBCommand, err)
		}
	}
	for name, content := range map[string][]byte{"go.mod": tidbpin.GoMod, "go.sum": tidbpin.GoSum, "tools.go": tidbpin.ToolsGo} {
		if err := os.WriteFile(filepath.Join(work, name), content, 0o644); err != nil {
			return "", false, fmt.Errorf("%s: %w", InstallTiDBCommand, err)
		}
	}
	progressf(opts.Progress, "building tidb-server %s with %s into %s: about 9 minutes on 2 cores the first time "+
		"(TiDB's Go modules, 1.8 GB, are downloaded into Go's module cache), about 4.5 once they are there",
		TiDBVersion(), strings.Fields(string(env))[0], out)
	tmp := out + ".tmp"
	cmd := exec.CommandContext(ctx, goCmd, TiDBBuildArgs(tmp)...)
	cmd.Dir = work
	// A go.work of the user's would pull the build into their workspace.
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stdout = io.Discard
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	tail := &lastLines{max: 30}
	var wg sync.WaitGroup
	wg.Add(1)
	started := time.Now()
	go func() {
		defer wg.Done()
		watchBuild(pr, tail, opts, started)
	}()
	err = cmd.Run()
	pw.Close()
	wg.Wait()
	if err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil {
			return "", false, fmt.Errorf("%s: interrupted after %s", InstallTiDBCommand, time.Since(started).Round(time.Second))
		}
		return "", false, fmt.Errorf("%s: go build failed (%v); its last lines:\n%s", InstallTiDBCommand, err, tail.String())
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", false, fmt.Errorf("%s: %w", InstallTiDBCommand, err)
	}
	if err := os.WriteFile(stampPath, []byte(stamp+"\n"), 0o644); err != nil {
		return "", false, fmt.Errorf("%s: %w", InstallTiDBCommand, err)
	}
	progressf(opts.Progress, "built %s in %s", out, time.Since(started).Round(time.Second))
	return out, true, nil
}

// TiDBBuildArgs are the go command's arguments that build tidb-server into
// out, run in a directory holding tools/tidb's module: scripts/build-tidb.sh's
// `go build -o OUT github.com/pingcap/tidb/cmd/tidb-server`, with -v, whose
// list of packages is the progress.
func TiDBBuildArgs(out string) []string {
	return []string{"build", "-v", "-o", out, tidbpin.Package}
}

// TiDBStamp is what the stamp beside a built tidb-server holds: the SHA-256
// of tools/tidb's go.mod, go.sum and tools.go followed by goEnv, the output
// of `go env GOVERSION GOOS GOARCH CGO_ENABLED`, as scripts/build-tidb.sh
// computes it.
func TiDBStamp(goEnv []byte) string {
	h := sha256.New()
	h.Write(tidbpin.GoMod)
	h.Write(tidbpin.GoSum)
	h.Write(tidbpin.ToolsGo)
	h.Write(goEnv)
	return hex.EncodeToString(h.Sum(nil))
}

// TiDBVersion is the pinned version of github.com/pingcap/tidb.
func TiDBVersion() string {
	for _, l := range strings.Split(string(tidbpin.GoMod), "\n") {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "require" && f[1] == "github.com/pingcap/tidb" {
			return f[2]
		}
	}
	return "(unknown)"
}

func progressf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "schemagen: "+format+"\n", args...)
	}
}

// watchBuild reads go build -v's output: "go: downloading M V" lines while
// modules are fetched, then one package path per package compiled. It prints
// a count every opts.ProgressEvery.
func watchBuild(r io.Reader, tail *lastLines, opts InstallOptions, started time.Time) {
	every := opts.ProgressEvery
	if every <= 0 {
		every = 20 * time.Second
	}
	var mu sync.Mutex
	downloads, packages := 0, 0
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				mu.Lock()
				d, p := downloads, packages
				mu.Unlock()
				progressf(opts.Progress, "building tidb-server (%s): %d modules downloaded, %d packages compiled",
					time.Since(started).Round(time.Second), d, p)
			}
		}
	}()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		tail.add(line)
		mu.Lock()
		if strings.HasPrefix(line, "go: downloading ") {
			downloads++
		} else if !strings.Contains(line, " ") {
			packages++
		}
		mu.Unlock()
	}
	io.Copy(io.Discard, r)
	close(done)
}

type lastLines struct {
	max   int
	lines []string
}

func (l *lastLines) add(s string) {
	l.lines = append(l.lines, s)
	if len(l.lines) > l.max {
		l.lines = l.lines[1:]
	}
}

func (l *lastLines) String() string {
	var b bytes.Buffer
	for _, s := range l.lines {
		b.WriteString("  " + s + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
