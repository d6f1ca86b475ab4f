package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// replay of the articles' example trace draws its strip and says what the
// timeline proves, in a terminal; q quits with status 0.
func TestReplayTracePTY(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	cmd := exec.Command(buildBinary(t), "replay", filepath.Join(traceData, "tb_resnet50_workers0.pt.trace.json.gz"))
	tm := startPTY(t, cmd, 24, 80)
	tm.waitText(0, "input_starved, confirmed")
	tm.waitText(0, "s7 ")
	mark := tm.mark()
	tm.send("+")
	tm.waitText(mark, "╵101ms")
	tm.send("q")
	if code := waitExit(t, cmd, 10*time.Second); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
}

// A trace replay cannot draw is one line and a non-zero status, before any
// screen: a CPU-only profile, a directory without traces.
func TestReplayTraceRefusesInOneLine(t *testing.T) {
	empty := t.TempDir()
	_ = os.WriteFile(filepath.Join(empty, "notes.json"), []byte(`{"lr": 0.1}`), 0o600)
	for _, c := range []struct{ arg, want string }{
		{filepath.Join(traceData, "hta_cpu_only.pt.trace.json.gz"), "no GPU kernels or copies in the trace"},
		{filepath.Join(traceData, "hta_rocm_mi250.json.gz"), "ROCm"},
		{empty, "no profiler traces"},
	} {
		var out, errb bytes.Buffer
		code := run([]string{"replay", c.arg}, &out, &errb)
		if code == 0 || !strings.Contains(errb.String(), c.want) || strings.Count(strings.TrimSpace(errb.String()), "\n") > 0 {
			t.Errorf("replay %s: exit %d, stderr %q; want one line with %q", c.arg, code, errb.String(), c.want)
		}
	}
}
