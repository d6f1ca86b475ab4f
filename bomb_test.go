package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// maxBombRSS is the bound this test holds on the peak memory of the real
// binary refusing a gzip bomb: docs/security.md "Hostile files" says
// ~100 MB; on main it was 620 MB.
const maxBombRSS = 150 << 20

// writeBomb writes prefix and then total bytes of chunk, gzipped: 512 MiB
// of text in a few MB of file.
func writeBomb(t *testing.T, path string, prefix, chunk string, total int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	_, _ = zw.Write([]byte(prefix))
	blk := bytes.Repeat([]byte(chunk), (1<<20)/len(chunk))
	for n := 0; n < total; n += len(blk) {
		if _, err := zw.Write(blk); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// Gzip bombs are refused quickly, in one line, by the real binary, with a
// peak RSS under maxBombRSS: zeros, text without newlines, short lines, and
// a recording whose second line never ends.
func TestGzipBombsRefusedInLittleMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and inflates 2 GiB")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	const total = 512 << 20
	hdr := `{"gpuscope_recording":2,"host":"h","gpus":[],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}` + "\n"
	bombs := []struct{ name, prefix, chunk string }{
		{"zeros", "", "\x00"},
		{"text", "", "a"},
		{"lines", "", "x\n"},
		{"recording", hdr + `{"seq":1,"node":{"hostname":"`, "a"},
	}
	for _, b := range bombs {
		path := filepath.Join(dir, b.name+".gz")
		writeBomb(t, path, b.prefix, b.chunk, total)
		for _, args := range [][]string{{"report", path}, {"check", "--from", path}} {
			cmd := exec.Command(bin, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			took := time.Since(start)
			rss := int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) << 10
			lines := strings.Count(stderr.String(), "\n")
			if err == nil || lines < 1 || lines > 2 || rss > maxBombRSS || took > 10*time.Second {
				t.Errorf("%s %s: %v in %v, peak RSS %d MB (want an error line, under %d MB): %q",
					args[0], b.name, err, took.Round(time.Millisecond), rss>>20, maxBombRSS>>20, tail(stderr.String()))
				continue
			}
			t.Logf("%s %s: refused in %v, peak RSS %d MB: %s", args[0], b.name, took.Round(time.Millisecond), rss>>20,
				strings.TrimSpace(stderr.String()))
		}
	}
}
