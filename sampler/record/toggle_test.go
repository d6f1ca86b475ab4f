package record

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestToggleRecordsOnlyWhileOn(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tg := NewToggle(dir, func() time.Duration { return time.Second })
	snap := func(i int) sampler.Snapshot {
		return sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i),
			Node: sampler.Node{Hostname: "gpu-node-17"}, GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200"}}}
	}
	_ = tg.Write(snap(0), nil) // not recording: only remembered for the header
	status, on, err := tg.Flip(t0)
	if err != nil || !on || !strings.Contains(status, "gpuscope-20260101-120000.jsonl.gz") {
		t.Fatalf("flip on: %q %v %v", status, on, err)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(status, "recording to "), " (r stops)")
	for i := 1; i <= 3; i++ {
		if err := tg.Write(snap(i), []string{"finding"}); err != nil {
			t.Fatal(err)
		}
	}
	status, on, err = tg.Flip(t0.Add(4 * time.Second))
	if err != nil || on || !strings.Contains(status, "3 snapshots") {
		t.Fatalf("flip off: %q %v %v", status, on, err)
	}
	_ = tg.Write(snap(5), nil) // off again: not written
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Header(); h.Host != "gpu-node-17" || len(h.GPUs) != 1 {
		t.Errorf("header from the last snapshot seen: %+v", h)
	}
	var seqs []uint64
	var findings []string
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, e.Seq)
		findings = append(findings, string(e.Findings))
	}
	if len(seqs) != 3 || seqs[0] != 1 || seqs[2] != 3 {
		t.Fatalf("recorded seqs %v", seqs)
	}
	if findings[0] != `["finding"]` {
		t.Errorf("findings stored as %q, want what the caller passed", findings[0])
	}
}

// TestToggleStartOnCallersFile: `gpuscope record -o FILE` creates the file
// itself and records through the same Toggle as the dashboard's r.
func TestToggleStartOnCallersFile(t *testing.T) {
	path := t.TempDir() + "/run.jsonl"
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	snap := sampler.Snapshot{Time: t0, GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200"}}}
	w, err := Create(path, HeaderFor(snap, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	tg := NewToggle("", func() time.Duration { return time.Second })
	if err := tg.Start(w); err != nil {
		t.Fatal(err)
	}
	if err := tg.Start(w); err == nil {
		t.Fatal("a second Start while recording succeeded")
	}
	for i := range 2 {
		snap.Time = t0.Add(time.Duration(i) * time.Second)
		if err := tg.Write(snap, []string{"finding"}); err != nil {
			t.Fatal(err)
		}
	}
	status, err := tg.Stop()
	if err != nil || !strings.Contains(status, "2 snapshots in "+path) || tg.Count() != 2 {
		t.Fatalf("stop: %q %v, count %d", status, err, tg.Count())
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := 0
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if string(e.Findings) != `["finding"]` {
			t.Errorf("entry %d findings %s", n, e.Findings)
		}
		n++
	}
	if n != 2 {
		t.Fatalf("read %d entries, want 2", n)
	}
}
