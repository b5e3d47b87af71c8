// Package devdb starts real, throw-away PostgreSQL and TiDB servers.
//
// schemagen's tests and its commands' default dev database need what real
// databases accept, normalise and report, so this package brings both up by
// itself from the machine's own binaries: no Docker, no running service.
//
//   - PostgreSQL: initdb and postgres found on PATH or under
//     /usr/lib/postgresql/*/bin (Debian's postgresql package), in a temporary
//     data directory, on a free loopback port. Where the caller is root, the
//     server runs as the "postgres" OS user (PostgreSQL refuses root).
//   - TiDB: tidb-server (built by scripts/build-tidb.sh or
//     `schemagen dev install tidb`) with
//     -store=unistore in a temporary directory, on free loopback ports, with
//     tidb_enable_check_constraint = ON so that CHECK constraints are enforced.
//
// Readiness is known by connecting. A server that fails to start is reported
// with the last lines of its log. Every process runs in its own process group
// and is stopped, and its temporary directory removed, by Server.Stop, by
// SIGINT/SIGTERM/SIGHUP to the calling process (see Start), and, if the caller
// dies without either, by the kernel (parent-death signal) with the directory
// swept by the next Start.
//
// URLs are in the forms Atlas takes:
//
//	postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable
//	mysql://root@127.0.0.1:PORT/
//
// Open, DriverDSN, CreateDatabase and DropDatabase work with such URLs, and
// with the URL of any dialect of dialects/all, which says by its URL scheme
// how its databases are opened (dialects.Database's DriverDSN) and on which
// kind of server its scratch databases live (DevServer).
package devdb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The servers devdb starts, as a dialect's DevServer names them.
const (
	Postgres = "postgres"
	TiDB     = "tidb"
)

// ErrNotFound is wrapped by the errors of Start, StartPostgres and StartTiDB
// when the server's binaries are not on this machine; the message says how to
// get them. Tests skip on it outside CI.
var ErrNotFound = errors.New("database server binaries not found")

// Commands named in messages, relative to the repository root.
const (
	SetupCommand = "scripts/setup.sh"
	// The dev URL variables of the atlas.hcl that `schemagen init` writes.
	DevPostgresURLEnv = "SCHEMAGEN_DEV_POSTGRES_URL"
	DevTiDBURLEnv     = "SCHEMAGEN_DEV_TIDB_URL"
	dirPrefix         = "schemagen-devdb-"
	ownerFile         = "owner.pid"
	serverPIDFile     = "server.pid"
	defaultLogLines   = 20
	stopGrace         = 15 * time.Second
	pollInterval      = 100 * time.Millisecond
	progressEvery     = 5 * time.Second
	defaultPGTimeout  = 60 * time.Second
	defaultTiDBTimout = 3 * time.Minute
)

// Options tune how a server is started. The zero value is ready to use.
type Options struct {
	// Progress, if set, receives one line per step ("starting an embedded
	// TiDB…", "still starting (10s)…", "ready…", "stopped…").
	Progress io.Writer
	// Binary overrides the lookup: for PostgreSQL the directory that holds
	// initdb and postgres (or the path of either), for TiDB the path of
	// tidb-server.
	Binary string
	// TempDir is where the server's temporary directory is made; default
	// os.TempDir(). Where the server runs as another OS user, the directory
	// must be reachable by that user.
	TempDir string
	// StartTimeout bounds the start, readiness included; default 60s for
	// PostgreSQL, 3m for TiDB.
	StartTimeout time.Duration
	// OSUser is the OS user PostgreSQL runs as when the caller is root;
	// default "postgres", then "nobody". Ignored for TiDB and for non-root.
	OSUser string
	// Args are extra server arguments, appended to devdb's own
	// (for PostgreSQL, e.g. "-c", "work_mem=64MB").
	Args []string
}

func (o Options) progressf(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "schemagen: "+format+"\n", args...)
	}
}

// Server is one running ephemeral database server.
type Server struct {
	name    string // "PostgreSQL" or "TiDB", for messages
	url     string
	addr    string
	dir     string
	logs    []string // log files, in the order their tails are reported
	cmd     *exec.Cmd
	stopSig syscall.Signal // graceful shutdown signal
	exited  chan struct{}  // closed once the process has been waited for
	waitErr error
	opts    Options
	failed  bool // start failed: Stop says nothing

	stopOnce sync.Once
	stopErr  error
}

// URL returns the server's URL: postgres://postgres@127.0.0.1:PORT/postgres?sslmode=disable
// or mysql://root@127.0.0.1:PORT/. It names no password: the servers trust
// loopback connections.
func (s *Server) URL() string { return s.url }

// Dir returns the server's temporary directory, removed by Stop.
func (s *Server) Dir() string { return s.dir }

// PID returns the server's process id (the postmaster for PostgreSQL), which
// is also the id of its process group. PostgreSQL's backends are its children
// but make groups of their own.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Version returns what the server says of itself in SELECT version().
func (s *Server) Version(ctx context.Context) (string, error) {
	return Version(ctx, s.url)
}

// Stop stops the server and its process group, waits for it and removes its
// temporary directory. It is safe to call more than once and concurrently.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		s.stopErr = s.stop()
		unregister(s)
		if s.stopErr == nil && !s.failed {
			s.opts.progressf("stopped the embedded %s on %s", s.name, s.addr)
		}
	})
	return s.stopErr
}

func (s *Server) stop() error {
	pid := s.cmd.Process.Pid
	// PostgreSQL's backends make process groups of their own, so the group
	// does not hold them all: remember the server's children as well.
	children := childPIDs(pid)
	select {
	case <-s.exited:
	default:
		// Graceful first, so that PostgreSQL stops its backends itself.
		_ = syscall.Kill(pid, s.stopSig)
		select {
		case <-s.exited:
		case <-time.After(stopGrace):
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-s.exited
		}
	}
	// Anything the server started and left in its group.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	if err := waitGroupGone(pid, stopGrace); err != nil {
		return fmt.Errorf("stop %s: %w", s.name, err)
	}
	// They leave by themselves once their parent is gone (PostgreSQL's
	// backends watch the postmaster); force the slow ones.
	if err := waitGone(children, stopGrace); err != nil {
		for _, c := range children {
			_ = syscall.Kill(c, syscall.SIGKILL)
		}
		if err := waitGone(children, stopGrace); err != nil {
			return fmt.Errorf("stop %s: %w", s.name, err)
		}
	}
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("stop %s: remove %s: %w", s.name, s.dir, err)
	}
	return nil
}

// waitGroupGone waits until no process is left in process group pgid.
func waitGroupGone(pgid int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes of group %d still running after %s", pgid, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitGone waits until none of pids is running.
func waitGone(pids []int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for _, pid := range pids {
		for processAlive(pid) && !isZombie(pid) {
			if time.Now().After(deadline) {
				return fmt.Errorf("process %d still running after %s", pid, timeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// childPIDs returns the ids of the processes whose parent is pid, read from
// /proc (nil where there is none).
func childPIDs(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var children []int
	for _, e := range entries {
		id, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, _, ok := procStat(id); ok && ppid == pid {
			children = append(children, id)
		}
	}
	return children
}

// procStat returns the parent id and state of process pid from
// /proc/PID/stat.
func procStat(pid int) (ppid int, state byte, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, false
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 || len(f[0]) != 1 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, f[0][0], err == nil
}

// isZombie reports whether pid has exited and waits for its parent to reap
// it: it runs no more.
func isZombie(pid int) bool {
	_, state, ok := procStat(pid)
	return ok && state == 'Z'
}

// Start starts a server of the given dialect (Postgres or TiDB).
func Start(ctx context.Context, dialect string, opts Options) (*Server, error) {
	switch dialect {
	case Postgres:
		return StartPostgres(ctx, opts)
	case TiDB:
		return StartTiDB(ctx, opts)
	}
	return nil, fmt.Errorf("devdb: unknown dialect %q (want %q or %q)", dialect, Postgres, TiDB)
}

// StopAll stops every server this process started and has not stopped yet.
func StopAll() error {
	liveMu.Lock()
	all := make([]*Server, 0, len(live))
	for s := range live {
		all = append(all, s)
	}
	liveMu.Unlock()
	var errs []error
	for _, s := range all {
		errs = append(errs, s.Stop())
	}
	return errors.Join(errs...)
}

// The servers of this process, so that a signal stops them all.
var (
	liveMu  sync.Mutex
	live    = map[*Server]struct{}{}
	signals chan os.Signal
)

var handledSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// register records a starting server. While any is live, SIGINT, SIGTERM and
// SIGHUP stop them all and then kill this process as the signal would have:
// the servers run in their own process groups, so a Ctrl-C at the terminal
// does not reach them.
func register(s *Server) {
	liveMu.Lock()
	defer liveMu.Unlock()
	if len(live) == 0 {
		if signals == nil {
			signals = make(chan os.Signal, 1)
			go handleSignals(signals)
		}
		signal.Notify(signals, handledSignals...)
	}
	live[s] = struct{}{}
}

func unregister(s *Server) {
	liveMu.Lock()
	defer liveMu.Unlock()
	if _, ok := live[s]; !ok {
		return
	}
	delete(live, s)
	if len(live) == 0 {
		signal.Stop(signals)
	}
}

func handleSignals(ch chan os.Signal) {
	for sig := range ch {
		_ = StopAll()
		// Die of the signal as if it had never been caught.
		signal.Reset(sig)
		if s, ok := sig.(syscall.Signal); ok {
			_ = syscall.Kill(os.Getpid(), s)
			time.Sleep(time.Second)
			os.Exit(128 + int(s))
		}
		os.Exit(1)
	}
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago. The
// server may still lose it to another process: starts retry on that.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// makeDir creates the server's temporary directory and marks it with this
// process's id, so that a later Start can sweep it if this process dies.
func makeDir(parent, dialect string) (string, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	sweepStale(parent)
	dir, err := os.MkdirTemp(parent, dirPrefix+dialect+"-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// SweepStale does in tempDir ("" for os.TempDir()) what every start does
// in the directory it uses: it removes the directories of servers whose
// starting process has died, killing any such server still running.
func SweepStale(tempDir string) {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	sweepStale(tempDir)
}

// sweepStale removes the temporary directories of servers whose owning
// process has died (killed by a signal that cannot be caught, or a test
// binary's timeout panic). Their servers were killed by the parent-death
// signal; any that survived is killed here, if its command line still names
// the directory (so that a reused pid is never hit).
func sweepStale(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), dirPrefix) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		owner, err := readPID(filepath.Join(dir, ownerFile))
		if err != nil || processAlive(owner) {
			continue
		}
		if pid, err := readPID(filepath.Join(dir, serverPIDFile)); err == nil {
			if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil &&
				bytes.Contains(cmdline, []byte(dir)) {
				_ = syscall.Kill(-pid, syscall.SIGKILL)
				_ = waitGroupGone(pid, 5*time.Second)
			}
		}
		_ = os.RemoveAll(dir)
	}
}

func readPID(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// processAlive reports whether a process with this id exists (EPERM means it
// does, under another user).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// launch starts cmd in its own process group with the parent-death signal
// set, records it as live and its pid in the directory, and watches for its
// exit.
func (s *Server) launch(deathSig syscall.Signal) error {
	s.cmd.SysProcAttr = sysProcAttr(s.cmd.SysProcAttr, deathSig)
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.exited = make(chan struct{})
	register(s)
	_ = os.WriteFile(filepath.Join(s.dir, serverPIDFile), []byte(strconv.Itoa(s.cmd.Process.Pid)), 0o644)
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	return nil
}

// waitReady calls ready until it succeeds, the process exits, the context
// ends or the start timeout passes, reporting progress every few seconds.
func (s *Server) waitReady(ctx context.Context, timeout time.Duration, started time.Time, ready func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	lastProgress := started
	var lastErr error
	for {
		attempt, cancelAttempt := context.WithTimeout(ctx, 5*time.Second)
		lastErr = ready(attempt)
		cancelAttempt()
		if lastErr == nil {
			return nil
		}
		select {
		case <-s.exited:
			return fmt.Errorf("%s exited while starting (%v)", s.name, s.waitErr)
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("%s not ready after %s: %v", s.name, timeout, lastErr)
			}
			return fmt.Errorf("%s start canceled: %w", s.name, ctx.Err())
		case <-time.After(pollInterval):
		}
		if time.Since(lastProgress) >= progressEvery {
			lastProgress = time.Now()
			s.opts.progressf("still starting the embedded %s (%s)…", s.name, time.Since(started).Round(time.Second))
		}
	}
}

// startFailed stops what was started and returns err with its log's tail.
func (s *Server) startFailed(err error) error {
	started := s.cmd != nil && s.cmd.Process != nil && s.exited != nil
	if started {
		// The log is complete once the process is gone; read it before Stop
		// removes the directory.
		pid := s.cmd.Process.Pid
		children := childPIDs(pid)
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		for _, c := range children {
			_ = syscall.Kill(c, syscall.SIGKILL)
		}
		<-s.exited
	}
	tail := tailFiles(s.logs, defaultLogLines)
	if started {
		s.failed = true
		if serr := s.Stop(); serr != nil {
			err = fmt.Errorf("%w; and stopping it: %v", err, serr)
		}
	} else if s.dir != "" {
		os.RemoveAll(s.dir)
	}
	if tail != "" {
		return fmt.Errorf("start %s: %w\nlast lines of its log:\n%s", s.name, err, indent(tail))
	}
	return fmt.Errorf("start %s: %w", s.name, err)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n")
}

// tailFiles returns the last n lines of each file that exists and is not
// empty, each headed by its name when there are several.
func tailFiles(paths []string, n int) string {
	var parts []string
	for _, p := range paths {
		lines := tailLines(p, n)
		if len(lines) == 0 {
			continue
		}
		parts = append(parts, "["+filepath.Base(p)+"]\n"+strings.Join(lines, "\n"))
	}
	return strings.Join(parts, "\n")
}

func tailLines(path string, n int) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	// Logs of a failed start are small, but read only their end to be safe.
	const maxRead = 256 << 10
	if st, err := f.Stat(); err == nil && st.Size() > maxRead {
		_, _ = f.Seek(st.Size()-maxRead, io.SeekStart)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			continue
		}
		// TiDB's log lines can be very long (it logs its whole config).
		if len(line) > 600 {
			line = line[:600] + "…"
		}
		lines = append(lines, line)
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return lines
}
