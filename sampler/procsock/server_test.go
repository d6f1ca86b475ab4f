package procsock

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// serveFake serves on a socket in a temporary directory with this test
// process as the container's PID 1 (fakeFS: SO_PEERCRED gives our PID).
func serveFake(t *testing.T, srv *Server) string {
	t.Helper()
	me := os.Getpid()
	fs := node()
	fs.cgroup[me], fs.nspid[me], fs.ns[me] = v1("/docker/box"), []int{me, 1}, []NS{boxNS, hostNS}
	srv.FS = fs
	if srv.Latest == nil {
		srv.Latest = func() []sampler.GPU { return []sampler.GPU{{UUID: "GPU-a", Procs: procs(501, 504)}} }
	}
	path := filepath.Join(t.TempDir(), "run", "procs.sock")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		if _, err := os.Lstat(path); !os.IsNotExist(err) {
			t.Errorf("the socket is left behind: %v", err)
		}
	})
	return path
}

func TestServerAnswersThePeer(t *testing.T) {
	path := serveFake(t, &Server{})
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o666 {
		t.Fatalf("socket mode: %v %v, want 0666 (any container may ask, each for itself)", fi, err)
	}
	r, err := Query(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Procs) != 1 || r.Procs[0].PID != 7 || r.Procs[0].Device != "GPU-a" {
		t.Errorf("answer %+v, want GPU-a's PID 7 only", r)
	}
	procs, err := Client{Path: path, ProcRoot: "/proc"}.GPUProcs(time.Now())
	if err != nil || len(procs["GPU-a"]) != 1 || procs["GPU-a"][0].PID != 7 || procs["GPU-a"][0].SMUtil != sampler.Some(40) {
		t.Errorf("client: %+v %v", procs, err)
	}
}

// A peer that connects and says nothing is cut at the deadline; past the
// connection cap a new peer is closed at once, and answered again once the
// silent one is gone.
func TestServerBoundsSilentPeers(t *testing.T) {
	path := serveFake(t, &Server{Timeout: 300 * time.Millisecond, MaxConns: 1})
	silent, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	time.Sleep(50 * time.Millisecond) // accepted, holding the one slot
	if r, err := Query(path, time.Second); err == nil {
		t.Errorf("over the cap: answered %+v", r)
	}
	_ = silent.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, err := io.ReadAll(silent)
	if err != nil {
		t.Fatalf("the silent peer was not cut at the deadline: %v", err)
	}
	if r, err := ParseRequest(b); err == nil {
		t.Errorf("the silent peer got %+v", r)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := Query(path, time.Second); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("never answered again after the silent peer left: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServerRefusesABadRequest(t *testing.T) {
	path := serveFake(t, &Server{})
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, _ = io.WriteString(c, "{\"version\":9}\n")
	b, _ := io.ReadAll(c)
	if !contains(string(b), "this server speaks 1") || contains(string(b), `"procs"`) {
		t.Errorf("answer %s", b)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestListen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(file); err == nil {
		t.Error("a regular file was replaced")
	}
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(stale); err == nil {
		t.Error("took over a socket another server answers on")
	}
	ln.SetUnlinkOnClose(false)
	_ = ln.Close()
	ln2, err := Listen(stale)
	if err != nil {
		t.Fatalf("a stale socket was not replaced: %v", err)
	}
	_ = ln2.Close()
}
