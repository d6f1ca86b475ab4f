package summary

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// GPUs named with no reading (nvidia-smi -L) leave the rules nothing to
// judge: the report says so rather than letting "no findings" stand as a
// clean bill; one reading on one GPU is something judged.
func TestNoReadingSaidNotJudged(t *testing.T) {
	at := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	names := sampler.Snapshot{Time: at, GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H100 80GB HBM3"}, {Index: 1, Name: "NVIDIA H100 80GB HBM3"}}}
	r := build(t, &sampler.Snapshots{names}, Options{})
	if !r.NoReading() || !strings.Contains(strings.Join(r.Absent, "\n"), "GPU readings: absent") {
		t.Fatalf("names only: NoReading %v, absent %q", r.NoReading(), r.Absent)
	}
	read := names
	read.GPUs = append([]sampler.GPU(nil), names.GPUs...)
	read.GPUs[1].Temp = sampler.Some(41)
	r = build(t, &sampler.Snapshots{read}, Options{})
	if r.NoReading() || strings.Contains(strings.Join(r.Absent, "\n"), "GPU readings") {
		t.Fatalf("a temperature read: NoReading %v, absent %q", r.NoReading(), r.Absent)
	}
}
