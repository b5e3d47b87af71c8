package devdb_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schemagen/schemagen/internal/dbtest"
	"github.com/schemagen/schemagen/internal/devdb"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	dbtest.Main(m)
}

// tempParent returns a directory for the servers' temporary directories
// that the test can check is left empty. Where the test runs as root,
// PostgreSQL runs as another user, who must be able to enter it.
func tempParent(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for d := dir; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o711); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// start starts a server, skipping (or, under CI, failing) the test if its
// binaries are missing.
func start(t *testing.T, dialect string, opts devdb.Options) *devdb.Server {
	t.Helper()
	s, err := devdb.Start(context.Background(), dialect, opts)
	if errors.Is(err, devdb.ErrNotFound) {
		dbtest.Unavailable(t, err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// processes returns the server's process and its children, the processes
// that must all be gone once it is stopped.
func processes(t *testing.T, pid int) []int {
	t.Helper()
	pids, err := family(pid)
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	return pids
}

// family returns pid and the ids of its children, from /proc.
func family(pid int) ([]int, error) {
	pids := []int{pid}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		id, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", id))
		if err != nil {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			pids = append(pids, id)
		}
	}
	return pids, nil
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

func assertGone(t *testing.T, pids []int, dir string) {
	t.Helper()
	for _, pid := range pids {
		if running(pid) {
			t.Errorf("process %d still running after Stop", pid)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary directory %s still there after Stop (%v)", dir, err)
	}
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind in %s: %s", dir, e.Name())
	}
}

// TestStartStopTwice starts and stops each server twice in one process, runs
// DDL on each, and checks that no process and no directory is left behind.
func TestStartStopTwice(t *testing.T) {
	for _, dialect := range []string{devdb.Postgres, devdb.TiDB} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			parent := tempParent(t)
			for round := 1; round <= 2; round++ {
				var progress bytes.Buffer
				s := start(t, dialect, devdb.Options{TempDir: parent, Progress: &progress})
				ctx := context.Background()
				version, err := s.Version(ctx)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("round %d: %s at %s, pid %d, in %s", round, version, s.URL(), s.PID(), s.Dir())
				if want := map[string]string{devdb.Postgres: "PostgreSQL", devdb.TiDB: "TiDB"}[dialect]; !strings.Contains(version, want) {
					t.Errorf("version %q does not name %s", version, want)
				}
				if got, _ := devdb.DialectOf(s.URL()); got != dialect {
					t.Errorf("URL %s is of dialect %q", s.URL(), got)
				}
				url, err := devdb.CreateDatabase(ctx, s.URL(), "round"+strconv.Itoa(round))
				if err != nil {
					t.Fatal(err)
				}
				db, err := devdb.Open(url)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := db.Exec("CREATE TABLE t (id int PRIMARY KEY, CHECK (id > 0))"); err != nil {
					t.Fatal(err)
				}
				if _, err := db.Exec("INSERT INTO t VALUES (-1)"); err == nil {
					t.Error("CHECK not enforced")
				}
				db.Close()

				pids, dir := processes(t, s.PID()), s.Dir()
				if len(pids) < 2 && dialect == devdb.Postgres {
					t.Errorf("found no PostgreSQL backends under the postmaster (pids %v)", pids)
				}
				if err := s.Stop(); err != nil {
					t.Fatal(err)
				}
				if err := s.Stop(); err != nil {
					t.Errorf("second Stop: %v", err)
				}
				assertGone(t, pids, dir)
				for _, want := range []string{"starting an embedded", "ready on", "stopped the embedded"} {
					if !strings.Contains(progress.String(), want) {
						t.Errorf("progress lacks %q:\n%s", want, progress.String())
					}
				}
			}
			assertEmpty(t, parent)
		})
	}
}

// TestStartFailureShowsLog: a server that cannot start is reported with the
// end of its log, and leaves nothing behind.
func TestStartFailureShowsLog(t *testing.T) {
	for _, tc := range []struct {
		name, dialect string
		args          []string
		timeout       time.Duration
		want          string
		log           bool // a log is written before the failure
	}{
		{"postgres", devdb.Postgres, []string{"-c", "no_such_setting=1"}, time.Minute, `unrecognized configuration parameter "no_such_setting"`, true},
		{"tidb", devdb.TiDB, []string{"-config", "/nonexistent/tidb.toml"}, time.Minute, "/nonexistent/tidb.toml", true},
		// Killed while it bootstraps; on a loaded machine it may not have
		// written a line of log by then.
		{"tidb timeout", devdb.TiDB, nil, 300 * time.Millisecond, "not ready after 300ms", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			parent := tempParent(t)
			s, err := devdb.Start(context.Background(), tc.dialect, devdb.Options{TempDir: parent, Args: tc.args, StartTimeout: tc.timeout})
			if errors.Is(err, devdb.ErrNotFound) {
				dbtest.Unavailable(t, err.Error())
			}
			if err == nil {
				s.Stop()
				t.Fatal("started with a bad argument")
			}
			t.Logf("%v", err)
			if tc.log && !strings.Contains(err.Error(), "last lines of its log") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error lacks the log or %q", tc.want)
			}
			assertEmpty(t, parent)
		})
	}
}

// childEnv makes the test binary, run by the tests below, start a
// PostgreSQL, print its pid and directory, and wait to be killed.
const childEnv = "DEVDB_TEST_CHILD"

func child() int {
	s, err := devdb.StartPostgres(context.Background(), devdb.Options{TempDir: os.Getenv(childEnv)})
	if err != nil {
		fmt.Println("ERROR", err)
		return 1
	}
	family, err := family(s.PID())
	if err != nil {
		fmt.Println("ERROR", err)
		return 1
	}
	var pids []string
	for _, pid := range family {
		pids = append(pids, strconv.Itoa(pid))
	}
	fmt.Printf("READY %s %s\n", s.Dir(), strings.Join(pids, ","))
	time.Sleep(time.Minute)
	fmt.Println("not killed")
	return 1
}

// runChild starts a child that runs a PostgreSQL, and returns it with the
// server's processes and directory.
func runChild(t *testing.T, parent string) (*exec.Cmd, []int, string) {
	t.Helper()
	if _, err := devdb.FindPostgres(""); err != nil {
		dbtest.Unavailable(t, err.Error())
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+parent)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 || f[0] != "READY" {
		t.Fatalf("child said %q (%v)", line, err)
	}
	var pids []int
	for _, p := range strings.Split(f[2], ",") {
		pid, _ := strconv.Atoi(p)
		pids = append(pids, pid)
	}
	return cmd, pids, f[1]
}

// waitGone waits for the processes to end by themselves.
func waitGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, pid := range pids {
		for running(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d still running", pid)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// TestInterruptStopsServers: SIGINT or SIGTERM to a process that started a
// server stops the server and removes its directory before the process dies
// of the signal.
func TestInterruptStopsServers(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			parent := tempParent(t)
			cmd, pids, dir := runChild(t, parent)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Errorf("child ended with %v, want death by %v", err, sig)
			}
			// Stopped before the child died: nothing to wait for.
			assertGone(t, pids, dir)
			assertEmpty(t, parent)
		})
	}
}

// TestKilledOwner: a process killed outright cannot clean up; the kernel
// stops its server (parent-death signal) and the next start sweeps the
// directory.
func TestKilledOwner(t *testing.T) {
	t.Parallel()
	parent := tempParent(t)
	cmd, pids, dir := runChild(t, parent)
	cmd.Process.Kill()
	cmd.Wait()
	waitGone(t, pids)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("directory of the killed child's server: %v", err)
	}
	devdb.SweepStale(parent)
	assertEmpty(t, parent)
}

// TestDev: without a configured URL, Dev starts a server, says so, hands out
// an empty database and removes everything on release.
func TestDev(t *testing.T) {
	t.Run("configured", func(t *testing.T) {
		var progress bytes.Buffer
		url, release, err := devdb.Dev(context.Background(), devdb.TiDB, "mysql://root@db.example:4000/dev", &progress)
		if err != nil || url != "mysql://root@db.example:4000/dev" || progress.Len() != 0 {
			t.Fatalf("Dev = %q, %v; progress %q", url, err, progress.String())
		}
		release()
	})
	for _, dialect := range []string{devdb.Postgres, devdb.TiDB} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			if dialect == devdb.Postgres {
				if _, err := devdb.FindPostgres(""); err != nil {
					dbtest.Unavailable(t, err.Error())
				}
			} else if _, err := devdb.FindTiDBServer(""); err != nil {
				dbtest.Unavailable(t, err.Error())
			}
			var progress bytes.Buffer
			url, release, err := devdb.Dev(context.Background(), dialect, "", &progress)
			if err != nil {
				t.Fatal(err)
			}
			defer release()
			if !strings.Contains(url, "/"+devdb.DevDatabase) {
				t.Errorf("dev URL %s does not name %s", url, devdb.DevDatabase)
			}
			db, err := devdb.Open(url)
			if err != nil {
				t.Fatal(err)
			}
			q := "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
			if dialect == devdb.Postgres {
				q = "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'"
			}
			var n int
			if err := db.QueryRow(q).Scan(&n); err != nil || n != 0 {
				t.Errorf("dev database has %d tables (%v), want none", n, err)
			}
			db.Close()
			release()
			release()
			if err := devdb.Ping(context.Background(), url); err == nil {
				t.Error("dev database still answers after release")
			}
			t.Logf("progress:\n%s", progress.String())
			for _, want := range []string{"no " + dialect + " dev database URL configured", "starting an embedded", "ready on", "stopped the embedded"} {
				if !strings.Contains(progress.String(), want) {
					t.Errorf("progress lacks %q", want)
				}
			}
		})
	}
}

// TestFindTiDBServerNotFound: the error names the command that builds it
// without a checkout and the dev URL variable.
func TestFindTiDBServerNotFound(t *testing.T) {
	t.Setenv(devdb.TiDBServerEnv, "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Chdir(t.TempDir())
	_, err := devdb.FindTiDBServer("")
	if !errors.Is(err, devdb.ErrNotFound) || !strings.Contains(err.Error(), "`schemagen dev install tidb`") ||
		!strings.Contains(err.Error(), "SCHEMAGEN_DEV_TIDB_URL") || strings.Contains(err.Error(), "checkout") {
		t.Fatalf("FindTiDBServer: %v", err)
	}
	_, err = devdb.StartTiDB(context.Background(), devdb.Options{})
	if !errors.Is(err, devdb.ErrNotFound) {
		t.Fatalf("StartTiDB: %v", err)
	}
}

func TestDriverDSN(t *testing.T) {
	for _, tc := range []struct{ url, driver, dsn string }{
		{"postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "pgx", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"},
		{"mysql://root@127.0.0.1:4000/", "mysql", "root@tcp(127.0.0.1:4000)/"},
		{"mysql://bob:p%40ss@db:4000/app?parseTime=true", "mysql", "bob:p@ss@tcp(db:4000)/app?parseTime=true"},
		{"tidb://root@db/app", "mysql", "root@tcp(db:3306)/app"},
	} {
		driver, dsn, err := devdb.DriverDSN(tc.url)
		if err != nil || driver != tc.driver || dsn != tc.dsn {
			t.Errorf("DriverDSN(%q) = %q, %q, %v; want %q, %q", tc.url, driver, dsn, err, tc.driver, tc.dsn)
		}
	}
	if _, _, err := devdb.DriverDSN("sqlite://x.db"); err == nil || !strings.Contains(err.Error(), "want postgres:// or mysql://") {
		t.Errorf("sqlite://: %v, want an error listing the dialects' schemes", err)
	}
	// The dialect's DSN error is shown without the password.
	if _, _, err := devdb.DriverDSN("mysql://bob:s3cret@db:4000/app?readTimeout=soon"); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a bad parameter: %v, want an error without the password", err)
	}
	if got, _ := devdb.WithDatabase("postgres://u:p@h:1/postgres?sslmode=disable", "x"); got != "postgres://u:p@h:1/x?sslmode=disable" {
		t.Errorf("WithDatabase = %q", got)
	}
}
