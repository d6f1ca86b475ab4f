package record

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestToggleRecordsOnlyWhileOn(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	freshSeen := 0
	tg := NewToggle(dir, func() time.Duration { return time.Second }, func(fresh bool, s sampler.Snapshot) (json.RawMessage, error) {
		if fresh {
			freshSeen++
		}
		return json.RawMessage(`[]`), nil
	})
	snap := func(i int) sampler.Snapshot {
		return sampler.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Seq: uint64(i),
			Node: sampler.Node{Hostname: "gpu-node-17"}, GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200"}}}
	}
	_ = tg.Write(snap(0)) // not recording: only remembered for the header
	status, on, err := tg.Flip(t0)
	if err != nil || !on || !strings.Contains(status, "gpuscope-20260101-120000.jsonl.gz") {
		t.Fatalf("flip on: %q %v %v", status, on, err)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(status, "recording to "), " (r stops)")
	for i := 1; i <= 3; i++ {
		if err := tg.Write(snap(i)); err != nil {
			t.Fatal(err)
		}
	}
	status, on, err = tg.Flip(t0.Add(4 * time.Second))
	if err != nil || on || !strings.Contains(status, "3 snapshots") {
		t.Fatalf("flip off: %q %v %v", status, on, err)
	}
	_ = tg.Write(snap(5)) // off again: not written
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Header(); h.Host != "gpu-node-17" || len(h.GPUs) != 1 {
		t.Errorf("header from the last snapshot seen: %+v", h)
	}
	var seqs []uint64
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, e.Seq)
	}
	if len(seqs) != 3 || seqs[0] != 1 || seqs[2] != 3 || freshSeen != 1 {
		t.Fatalf("recorded seqs %v, fresh starts %d", seqs, freshSeen)
	}
}
