package devdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// TiDBServerEnv names the tidb-server binary to use, looked at before PATH.
const TiDBServerEnv = "SCHEMAGEN_TIDB_SERVER"

// FindTiDBServer returns the path of tidb-server: override if set, else
// $SCHEMAGEN_TIDB_SERVER, else tidb-server on PATH, else
// .cache/bin/tidb-server in the schemagen checkout that holds the working
// directory (where scripts/build-tidb.sh puts it), else
// $XDG_CACHE_HOME/schemagen/bin/tidb-server (~/.cache/schemagen/bin, where
// `schemagen dev install tidb` puts it). Its error wraps ErrNotFound and
// names that command and the dev URL variable.
func FindTiDBServer(override string) (string, error) {
	if override != "" {
		if !isExecutable(override) {
			return "", fmt.Errorf("%w: %s is not an executable file", ErrNotFound, override)
		}
		return override, nil
	}
	if p := os.Getenv(TiDBServerEnv); p != "" {
		if !isExecutable(p) {
			return "", fmt.Errorf("%w: %s=%s is not an executable file", ErrNotFound, TiDBServerEnv, p)
		}
		return p, nil
	}
	if p, err := exec.LookPath("tidb-server"); err == nil {
		return p, nil
	}
	looked := []string{"$" + TiDBServerEnv, "PATH"}
	if root, ok := RepoRoot(); ok {
		p := filepath.Join(root, ".cache", "bin", "tidb-server")
		if isExecutable(p) {
			return p, nil
		}
		looked = append(looked, p)
	}
	if bin, err := CacheBinDir(); err == nil {
		p := filepath.Join(bin, "tidb-server")
		if isExecutable(p) {
			return p, nil
		}
		looked = append(looked, p)
	}
	return "", fmt.Errorf("%w: tidb-server not found (looked at %s). Build it with `%s` "+
		"(about 9 minutes the first time, with Go), or set %s to a TiDB server's URL "+
		"(the dev URL of atlas.hcl's tidb env), or %s to a tidb-server binary",
		ErrNotFound, strings.Join(looked, ", "), InstallTiDBCommand, DevTiDBURLEnv, TiDBServerEnv)
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// RepoRoot returns the schemagen checkout that holds the working directory:
// the nearest directory, walking up, with tools/tidb/go.mod.
func RepoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "tools", "tidb", "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// StartTiDB starts tidb-server with -store=unistore in a temporary directory
// on free loopback ports, and turns tidb_enable_check_constraint on before
// returning it; its URL is mysql://root@127.0.0.1:PORT/. A start takes a few
// seconds (TiDB bootstraps its system tables in the new store); the server
// may grow to about 2.5 GB of memory.
func StartTiDB(ctx context.Context, opts Options) (*Server, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var s *Server
		if s, err = startTiDB(ctx, opts); err == nil || !portTaken(err) {
			return s, err
		}
	}
	return nil, err
}

func startTiDB(ctx context.Context, opts Options) (*Server, error) {
	bin, err := FindTiDBServer(opts.Binary)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	opts.progressf("starting an embedded TiDB from %s…", bin)
	dir, err := makeDir(opts.TempDir, TiDB)
	if err != nil {
		return nil, fmt.Errorf("start TiDB: %w", err)
	}
	s := &Server{
		name:    "TiDB",
		dir:     dir,
		logs:    []string{filepath.Join(dir, "tidb.stderr"), filepath.Join(dir, "tidb.log")},
		stopSig: syscall.SIGTERM,
		opts:    opts,
	}
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = defaultTiDBTimout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	port, err := freePort()
	if err != nil {
		return nil, s.startFailed(err)
	}
	statusPort, err := freePort()
	if err != nil {
		return nil, s.startFailed(err)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, s.startFailed(err)
	}
	s.addr = fmt.Sprintf("127.0.0.1:%d", port)
	s.url = fmt.Sprintf("mysql://root@%s/", s.addr)
	stderr, err := os.Create(s.logs[0])
	if err != nil {
		return nil, s.startFailed(err)
	}
	defer stderr.Close()
	// Every path TiDB writes to is inside dir: its defaults are under /tmp
	// and the working directory, which would outlive the server.
	args := []string{
		"-store=unistore",
		"-path=" + filepath.Join(dir, "data"),
		"-host=127.0.0.1",
		"-P", strconv.Itoa(port),
		"-status", strconv.Itoa(statusPort),
		"-status-host=127.0.0.1",
		"-socket=" + filepath.Join(dir, "tidb.sock"),
		"-temp-dir=" + tmp,
		"-log-file=" + s.logs[1],
		"-log-slow-query=" + filepath.Join(dir, "tidb-slow.log"),
		"-L", "warn",
	}
	s.cmd = exec.Command(bin, append(args, opts.Args...)...)
	s.cmd.Dir = dir
	// tmp-storage-path defaults to $TMPDIR/<uid>_tidb/…
	s.cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	s.cmd.Stdout, s.cmd.Stderr = stderr, stderr
	if err := s.launch(syscall.SIGKILL); err != nil {
		return nil, s.startFailed(err)
	}
	err = s.waitReady(ctx, timeout, started, func(ctx context.Context) error {
		return Ping(ctx, s.url)
	})
	if err == nil {
		err = EnableTiDBChecks(ctx, s.url)
	}
	if err != nil {
		return nil, s.startFailed(err)
	}
	version, _ := s.Version(ctx)
	opts.progressf("embedded TiDB ready on %s in %s (%s)", s.addr, time.Since(started).Round(100*time.Millisecond), version)
	return s, nil
}

// EnableTiDBChecks sets tidb_enable_check_constraint = ON on the TiDB server
// at url, and checks that new sessions see it: TiDB parses but ignores CHECK
// constraints otherwise. It needs the SUPER or SYSTEM_VARIABLES_ADMIN
// privilege.
func EnableTiDBChecks(ctx context.Context, url string) error {
	db, err := Open(url)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "SET GLOBAL tidb_enable_check_constraint = ON"); err != nil {
		return fmt.Errorf("enable CHECK constraints on TiDB: %w", err)
	}
	// A global variable applies to sessions opened after it is set.
	db.SetMaxIdleConns(0)
	var on string
	if err := db.QueryRowContext(ctx, "SELECT @@tidb_enable_check_constraint").Scan(&on); err != nil {
		return fmt.Errorf("enable CHECK constraints on TiDB: %w", err)
	}
	if on != "1" && on != "ON" {
		return errors.New("enable CHECK constraints on TiDB: tidb_enable_check_constraint is still " + on)
	}
	return nil
}
