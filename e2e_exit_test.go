package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/record"
)

// TestExitStatusTable holds docs/exit-status.md: SIGINT is 130 and SIGTERM
// 143 for the dashboard, replay and record alike, with the terminal restored
// and a recording complete. One binary build for all of it.
func TestExitStatusTable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "short.jsonl")
	if out, err := exec.Command(bin, "record", "-o", rec, "--demo", "--duration", "30s").CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name string
		args []string
		sig  syscall.Signal
		want int
	}{
		{"dashboard SIGINT", []string{"--demo"}, syscall.SIGINT, 130},
		{"dashboard SIGTERM", []string{"--demo"}, syscall.SIGTERM, 143},
		{"replay SIGINT", []string{"replay", rec}, syscall.SIGINT, 130},
		{"replay SIGTERM", []string{"replay", rec}, syscall.SIGTERM, 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			cmd.Env = []string{"TERM=screen"}
			tm := startPTY(t, cmd, 24, 80)
			tm.waitFor("the first frame", func(s string) bool { return strings.Contains(s, "H200") })
			if code := signalAndWait(t, cmd, c.sig); code != c.want {
				t.Fatalf("exit %d, want %d; output tail %q", code, c.want, tail(tm.out.String()))
			}
			// The last bytes can still be in the pty when Wait returns.
			tm.waitFor("the terminal restored", func(s string) bool { return strings.Contains(s, "\x1b[?1049l") })
			if s := tm.out.String(); strings.Contains(s, "program was") {
				t.Errorf("an error printed: %q", tail(s))
			}
		})
	}
	for _, c := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run("record "+c.sig.String(), func(t *testing.T) {
			path := filepath.Join(dir, "live-"+c.sig.String()+".jsonl.gz")
			cmd := exec.Command(bin, "record", "-o", path, "--demo", "--realtime", "--interval", "100ms", "--duration", "1m")
			var stderr screen // written by exec's copying goroutine: locked
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// The first snapshot is written before this line, and the
			// signals are caught from then on (ui/cli record.go).
			waitFor(t, &stderr, "the start line", func(s string) bool { return strings.Contains(s, "Ctrl-C stops") })
			if code := signalAndWait(t, cmd, c.sig); code != c.want {
				t.Fatalf("exit %d, want %d; stderr %q", code, c.want, stderr.String())
			}
			if !strings.Contains(stderr.String(), "recorded ") {
				t.Errorf("no summary line: %q", stderr.String())
			}
			r, err := record.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := r.Next(); err != nil {
				t.Fatalf("recording stopped by %s unreadable: %v", c.sig, err)
			}
		})
	}
}
