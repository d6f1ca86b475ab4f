package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/procsock"
)

// TestServeProcSocket: `serve --proc-socket` creates the socket (mode
// 0666, its directory made), answers this process for its own cgroup, and
// removes the socket on SIGTERM. With no driver here it serves the host
// only, so the answer holds no process; what is answered to whom is
// sampler/procsock's tests.
func TestServeProcSocket(t *testing.T) {
	bin := buildBinary(t)
	path := filepath.Join(t.TempDir(), "run", "procs.sock")
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--proc-socket", path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		if fi, err := os.Stat(path); err == nil {
			if fi.Mode().Perm() != 0o666 || fi.Mode().Type() != os.ModeSocket {
				t.Errorf("%s: mode %v, want a socket, 0666", path, fi.Mode())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no socket at %s after 20 s; stderr:\n%s", path, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	r, err := procsock.Query(path, 5*time.Second)
	if err != nil && !strings.Contains(err.Error(), "root cgroup") { // a test run from the root cgroup is refused, as it should
		t.Fatalf("query: %v", err)
	}
	if len(r.Procs) != 0 || r.Version != procsock.Version {
		t.Errorf("answer %+v, want version %d and no process (no GPU here)", r, procsock.Version)
	}
	if code := signalAndWait(t, cmd, syscall.SIGTERM); code != 0 {
		t.Errorf("exit %d after SIGTERM; stderr:\n%s", code, stderr.String())
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("the socket is left behind: %v", err)
	}
	if !strings.Contains(stderr.String(), "answering containers for their own GPU processes on "+path) {
		t.Errorf("stderr does not say where it answers:\n%s", stderr.String())
	}
}
