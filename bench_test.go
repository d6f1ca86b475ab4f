package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// BenchmarkFirstFrameDemo measures, per start, the wall time from exec of
// the built binary (--demo, 200x50 pty) until its first frame shows all 8
// GPUs: process start, two minutes of pre-rolled simulated history, the
// first diagnosis and the first render. Budget: 150 ms (docs/benchmarks.md).
func BenchmarkFirstFrameDemo(b *testing.B) {
	firstFrame(b, func(s string) bool { return strings.Count(s, "H200") >= 8 }, buildBinary(b), "--demo")
}

// BenchmarkFirstFrameHtop is the reference for the one above, measured the
// same way in the same run: htop's first frame shows its column header
// and its load average.
func BenchmarkFirstFrameHtop(b *testing.B) {
	htop, err := exec.LookPath("htop")
	if err != nil {
		b.Skip("htop is not installed (apt-get install htop): no reference to measure")
	}
	firstFrame(b, func(s string) bool { return strings.Contains(s, "Load average") && strings.Contains(s, "Command") }, htop, "-d", "10")
}

// firstFrame reports, per start, the wall time from exec of name in a
// 200x50 pty until done holds for what it has written. It reads the pty
// itself, not through startPTY: a measurement wants the first byte that
// completes the frame, not the next poll.
func firstFrame(b *testing.B, done func(string) bool, name string, args ...string) {
	var total time.Duration
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(name, args...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		start := time.Now()
		ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 200})
		if err != nil {
			b.Fatal(err)
		}
		var seen strings.Builder
		buf := make([]byte, 64<<10)
		answered := false
		for !done(seen.String()) {
			n, err := ptmx.Read(buf)
			if err != nil {
				b.Fatalf("read: %v", err)
			}
			seen.Write(buf[:n])
			// Answer the cursor-position query that termenv sends (with an
			// OSC 11 background query) at start, as any terminal does; a
			// bare pty that stays silent costs termenv's 5 s timeout.
			if !answered && strings.Contains(seen.String(), "\x1b[6n") {
				_, _ = ptmx.WriteString("\x1b[1;1R")
				answered = true
			}
		}
		total += time.Since(start)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		ptmx.Close()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/first-frame") // the mean, not the last start
}

// BenchmarkNoGPUStart measures `gpuscope --once` on a machine without the
// NVIDIA driver: the failed NVML load, the explanation and a host reading.
func BenchmarkNoGPUStart(b *testing.B) {
	if _, ok := os.LookupEnv("NVIDIA_VISIBLE_DEVICES"); ok {
		b.Skip("a GPU environment")
	}
	bin := buildBinary(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// Without a GPU --once prints the explanation and the host line,
		// then exits 1 (docs/user-guide.md): that is the path measured, so
		// only another status or a missing explanation is a failure.
		out, err := exec.Command(bin, "--once").CombinedOutput()
		var exit *exec.ExitError
		if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
			b.Fatalf("--once: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "no GPU") || !strings.Contains(string(out), "host") {
			b.Fatalf("--once without a GPU did not explain itself:\n%s", out)
		}
	}
}
