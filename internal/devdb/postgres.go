package devdb

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresBinDirEnv names a directory holding initdb and postgres, looked at
// before PATH and the usual install locations.
const PostgresBinDirEnv = "SCHEMAGEN_POSTGRES_BINDIR"

// FindPostgres returns the directory that holds the initdb and postgres
// binaries: override if set (a directory, or the path of either binary), else
// $SCHEMAGEN_POSTGRES_BINDIR, else initdb on PATH, else the newest of
// /usr/lib/postgresql/*/bin (Debian, Ubuntu) and other usual install places.
// Its error wraps ErrNotFound.
func FindPostgres(override string) (string, error) {
	if override != "" {
		dir := override
		if st, err := os.Stat(override); err == nil && !st.IsDir() {
			dir = filepath.Dir(override)
		}
		if !isPostgresBinDir(dir) {
			return "", fmt.Errorf("%w: no initdb and postgres in %s", ErrNotFound, dir)
		}
		return dir, nil
	}
	if dir := os.Getenv(PostgresBinDirEnv); dir != "" {
		if !isPostgresBinDir(dir) {
			return "", fmt.Errorf("%w: no initdb and postgres in %s=%s", ErrNotFound, PostgresBinDirEnv, dir)
		}
		return dir, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		// Resolve symlinks: postgres must be the one next to the real initdb.
		if real, err := filepath.EvalSymlinks(p); err == nil && isPostgresBinDir(filepath.Dir(real)) {
			return filepath.Dir(real), nil
		}
		if isPostgresBinDir(filepath.Dir(p)) {
			return filepath.Dir(p), nil
		}
	}
	var candidates []string
	for _, pattern := range []string{
		"/usr/lib/postgresql/*/bin",
		"/usr/pgsql-*/bin",
		"/usr/local/pgsql/bin",
		"/opt/homebrew/opt/postgresql*/bin",
		"/usr/local/opt/postgresql*/bin",
	} {
		m, _ := filepath.Glob(pattern)
		sort.Slice(m, func(i, j int) bool { return versionOf(m[i]) > versionOf(m[j]) })
		candidates = append(candidates, m...)
	}
	for _, dir := range candidates {
		if isPostgresBinDir(dir) {
			return dir, nil
		}
	}
	return "", fmt.Errorf("%w: PostgreSQL's initdb and postgres are neither on PATH nor under "+
		"/usr/lib/postgresql/*/bin. Install PostgreSQL's server (Debian: apt-get install postgresql; "+
		"in a schemagen checkout: %s), or set %s to a PostgreSQL server's URL (the dev URL of "+
		"atlas.hcl's postgres env), or %s to the directory holding initdb and postgres",
		ErrNotFound, SetupCommand, DevPostgresURLEnv, PostgresBinDirEnv)
}

func isPostgresBinDir(dir string) bool {
	for _, name := range []string{"initdb", "postgres"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

// versionOf returns the first number in a path such as
// /usr/lib/postgresql/15/bin, to try the newest install first.
func versionOf(path string) int {
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r < '0' || r > '9' }) {
		if n, err := strconv.Atoi(part); err == nil {
			return n
		}
	}
	return 0
}

// StartPostgres initialises a PostgreSQL cluster in a temporary directory and
// starts it on a free loopback port, trusting loopback connections; its URL is
// postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable. Where the
// caller is root, the server runs as Options.OSUser.
func StartPostgres(ctx context.Context, opts Options) (*Server, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var s *Server
		if s, err = startPostgres(ctx, opts); err == nil || !portTaken(err) {
			return s, err
		}
	}
	return nil, err
}

// portTaken reports whether a start failed because another process took the
// free port between its choice and the server's bind.
func portTaken(err error) bool {
	return strings.Contains(strings.ToLower(err.Error()), "address already in use")
}

func startPostgres(ctx context.Context, opts Options) (*Server, error) {
	binDir, err := FindPostgres(opts.Binary)
	if err != nil {
		return nil, err
	}
	cred, parent, err := postgresUser(opts)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	opts.progressf("starting an embedded PostgreSQL%s from %s…", postgresVersion(binDir), binDir)
	dir, err := makeDir(parent, Postgres)
	if err != nil {
		return nil, fmt.Errorf("start PostgreSQL: %w", err)
	}
	s := &Server{
		name:    "PostgreSQL",
		dir:     dir,
		logs:    []string{filepath.Join(dir, "initdb.log"), filepath.Join(dir, "postgres.log")},
		stopSig: syscall.SIGINT, // fast shutdown
		opts:    opts,
	}
	if cred != nil {
		// The server's user must own the directory to create its data in it.
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, s.startFailed(err)
		}
	}
	data := filepath.Join(dir, "data")
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = defaultPGTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	initLogPath, serverLogPath := s.logs[0], s.logs[1]
	initLog, err := os.Create(initLogPath)
	if err != nil {
		return nil, s.startFailed(err)
	}
	// docs/semantics.md asks for a UTF-8 LC_CTYPE: under C, lower and
	// upper change ASCII letters only, where TiDB changes every letter.
	initdb := exec.CommandContext(ctx, filepath.Join(binDir, "initdb"),
		"-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--lc-ctype=C.UTF-8", "--no-sync")
	initdb.Dir = dir
	initdb.Env = postgresEnv()
	initdb.Stdout, initdb.Stderr = initLog, initLog
	initdb.SysProcAttr = sysProcAttr(&syscall.SysProcAttr{Credential: cred}, syscall.SIGKILL)
	err = initdb.Run()
	initLog.Close()
	if err != nil {
		return nil, s.startFailed(fmt.Errorf("initdb: %w", err))
	}
	s.logs = s.logs[1:] // initdb's log says nothing of a failure after it

	port, err := freePort()
	if err != nil {
		return nil, s.startFailed(err)
	}
	s.addr = fmt.Sprintf("127.0.0.1:%d", port)
	s.url = fmt.Sprintf("postgres://postgres@%s/postgres?sslmode=disable", s.addr)
	serverLog, err := os.Create(serverLogPath)
	if err != nil {
		return nil, s.startFailed(err)
	}
	defer serverLog.Close()
	args := []string{
		"-D", data,
		"-p", strconv.Itoa(port),
		"-h", "127.0.0.1",
		"-k", "", // no Unix socket: nothing outside the directory
		// A throw-away cluster needs no durability.
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		// Parallel tests each hold a pool of connections.
		"-c", "max_connections=300",
	}
	s.cmd = exec.Command(filepath.Join(binDir, "postgres"), append(args, opts.Args...)...)
	s.cmd.Dir = dir
	s.cmd.Env = postgresEnv()
	s.cmd.Stdout, s.cmd.Stderr = serverLog, serverLog
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	// On its starter's death the postmaster gets SIGQUIT: immediate shutdown,
	// which also ends its backends.
	if err := s.launch(syscall.SIGQUIT); err != nil {
		return nil, s.startFailed(err)
	}
	err = s.waitReady(ctx, timeout, started, func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, s.url)
		if err != nil {
			return err
		}
		return conn.Close(ctx)
	})
	if err != nil {
		return nil, s.startFailed(err)
	}
	version, _ := s.Version(ctx)
	opts.progressf("embedded PostgreSQL ready on %s in %s (%s)", s.addr, time.Since(started).Round(100*time.Millisecond), shortVersion(version))
	return s, nil
}

// postgresUser returns the credential to run PostgreSQL with (nil: as the
// caller) and the parent of its temporary directory. PostgreSQL refuses to run
// as root, so root runs it as another user, who must reach the directory.
func postgresUser(opts Options) (*syscall.Credential, string, error) {
	parent := opts.TempDir
	if os.Geteuid() != 0 {
		return nil, parent, nil
	}
	names := []string{"postgres", "nobody"}
	if opts.OSUser != "" {
		names = []string{opts.OSUser}
	}
	var lastErr error
	for _, name := range names {
		u, err := user.Lookup(name)
		if err != nil {
			lastErr = err
			continue
		}
		uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
		gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
		if err1 != nil || err2 != nil || uid == 0 {
			lastErr = fmt.Errorf("user %s: unusable uid %s / gid %s", name, u.Uid, u.Gid)
			continue
		}
		if parent == "" {
			parent = os.TempDir()
			if !reachableByOthers(parent) {
				parent = "/tmp"
			}
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, parent, nil
	}
	return nil, "", fmt.Errorf("start PostgreSQL: running as root, and no OS user to run it as "+
		"(PostgreSQL refuses root): %v; create the postgres user (Debian's postgresql package does)", lastErr)
}

// reachableByOthers reports whether every directory down to dir can be
// entered by any user.
func reachableByOthers(dir string) bool {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for {
		st, err := os.Stat(dir)
		if err != nil || st.Mode()&0o001 == 0 {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return true
		}
		dir = parent
	}
}

// postgresEnv is the caller's environment without the PG* variables that
// could point the binaries elsewhere, in the C locale so that messages are
// in English whatever the machine's language.
func postgresEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PG") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LC_ALL=C")
}

// postgresVersion returns " 15.18" for the binaries in dir, or "".
func postgresVersion(dir string) string {
	out, err := exec.Command(filepath.Join(dir, "postgres"), "--version").Output()
	if err != nil {
		return ""
	}
	// postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)
	f := strings.Fields(string(out))
	if len(f) >= 3 {
		return " " + f[2]
	}
	return ""
}

// shortVersion trims SELECT version()'s build details.
func shortVersion(v string) string {
	if i := strings.Index(v, " on "); i > 0 {
		return v[:i]
	}
	return v
}
