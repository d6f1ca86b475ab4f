package spool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/record"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func snap(i int) sampler.Snapshot {
	return sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i + 1),
		Node: sampler.Node{Hostname: "n1", Source: "nvml"},
		GPUs: []sampler.GPU{{Index: 0, UUID: "GPU-0", Name: "NVIDIA H100", Util: sampler.Some(float64(i % 100))}}}
}

// recordingText is a recording of n snapshots, as the recorder writes it.
func recordingText(t *testing.T, n int) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w, err := record.Create(path, record.HeaderFor(snap(0), time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := w.Write(record.Entry{Snapshot: snap(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func waitDone(t *testing.T, sp *Spool) Progress {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if p := sp.Progress(); p.Done {
			return p
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the loader did not finish in 10 s")
	return Progress{}
}

// Open returns with at least the first block readable; the rest arrives
// behind it, in order, and the progress ends at the whole file.
func TestOpenGrowsBehindFirstBlock(t *testing.T) {
	const n = 5*BlockLen + 17
	sp, _, err := Open(writeFile(t, recordingText(t, n)), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if l := sp.Len(); l < BlockLen {
		t.Fatalf("Open returned with %d snapshots readable, want at least the first block (%d)", l, BlockLen)
	}
	if got := sp.At(3).Time; !got.Equal(snap(3).Time) {
		t.Fatalf("snapshot 3 at %v, want %v", got, snap(3).Time)
	}
	p := waitDone(t, sp)
	if p.Err != nil || p.Fraction != 1 || p.Sorted {
		t.Fatalf("progress at the end = %+v, want no error, fraction 1, not sorted", p)
	}
	if sp.Len() != n {
		t.Fatalf("spool holds %d snapshots, want %d", sp.Len(), n)
	}
	for _, i := range []int{0, BlockLen, n - 1} {
		if got := sp.At(i); !got.Time.Equal(snap(i).Time) || got.GPUs[0].Util != snap(i).GPUs[0].Util {
			t.Fatalf("snapshot %d = %v util %v, want %v util %v", i, got.Time, got.GPUs[0].Util, snap(i).Time, snap(i).GPUs[0].Util)
		}
	}
}

// A damaged line, after the first block or in it, is skipped with a
// warning naming it: everything else loads.
func TestOpenDamagedLine(t *testing.T) {
	good := recordingText(t, 3*BlockLen)
	lines := bytes.SplitAfter(good, []byte("\n"))
	cut := func(at int) []byte { // header + at snapshots, a bad line, the rest
		var b []byte
		for _, l := range lines[:1+at] {
			b = append(b, l...)
		}
		b = append(b, "{\"time\": broken\n"...)
		for _, l := range lines[1+at:] {
			b = append(b, l...)
		}
		return b
	}
	for _, at := range []int{2*BlockLen + 5, 5} {
		sp, _, err := Open(writeFile(t, cut(at)), t.TempDir())
		if err != nil {
			t.Fatalf("damaged line after %d: Open = %v", at, err)
		}
		p := waitDone(t, sp)
		want := fmt.Sprintf("line %d: skipped, damaged", at+2)
		if p.Err != nil || !strings.Contains(strings.Join(p.Warnings, "\n"), want) {
			t.Errorf("damaged line after %d: error %v, warnings %q; want %q", at, p.Err, p.Warnings, want)
		}
		if sp.Len() != 3*BlockLen {
			t.Errorf("damaged line after %d: spool holds %d snapshots, want all %d", at, sp.Len(), 3*BlockLen)
		}
		sp.Close()
	}
}

// Close stops a loader blocked reading a pipe whose writer stays open, and
// waits for it (the replay's quit must not hang on a silent input).
func TestCloseStopsBlockedLoader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "in.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	text := recordingText(t, 2*BlockLen)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		_, _ = w.Write(text[:len(text)-200]) // the last line never completes
		time.Sleep(time.Minute)              // the writer stays open
		w.Close()
	}()
	sp, _, err := Open(fifo, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if sp.Progress().Done {
		t.Fatal("loader finished though its input is still open")
	}
	closed := make(chan error)
	go func() { closed <- sp.Close() }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return in 5 s with the loader blocked in a read")
	}
}

// A log out of time order ends sorted, and Progress says so (the replay
// rebuilds at the cursor's time).
func TestOpenSortsOutOfOrder(t *testing.T) {
	text := recordingText(t, 2)
	var hdr, l1, l2 json.RawMessage
	parts := bytes.Split(bytes.TrimSpace(text), []byte("\n"))
	hdr, l1, l2 = parts[0], parts[1], parts[2]
	sp, warnings, err := Open(writeFile(t, bytes.Join([][]byte{hdr, l2, l1, nil}, []byte("\n"))), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	p := waitDone(t, sp)
	if !p.Sorted || !sp.Time(0).Before(sp.Time(1)) {
		t.Fatalf("progress %+v, times %v %v: want sorted", p, sp.Time(0), sp.Time(1))
	}
	if !strings.Contains(strings.Join(append(warnings, p.Warnings...), "\n"), "out of time order") {
		t.Fatalf("warnings %q, want one saying the log was sorted", append(warnings, p.Warnings...))
	}
}
