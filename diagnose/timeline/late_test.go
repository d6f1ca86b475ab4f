package timeline

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

func eventsOf(t *testing.T, name string) ([]trace.Event, trace.Meta) {
	t.Helper()
	var evs []trace.Event
	m, err := trace.ReadFile(filepath.Join("../../sampler/trace/testdata", name), func(e trace.Event) error {
		evs = append(evs, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs, m
}

func rankJSON(t *testing.T, evs []trace.Event, m trace.Meta) (string, Rank) {
	t.Helper()
	b := New()
	for _, e := range evs {
		if err := b.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	r := b.Rank(m)
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(js), r
}

// GPU events out of order within the window give the figures of the trace
// in order, exactly; the sampled HTA traces are themselves out of order by
// most of their length (docs/benchmarks.md).
func TestOutOfOrderWithinTheWindowIsExact(t *testing.T) {
	evs, m := eventsOf(t, "tb_resnet50_workers0.pt.trace.json.gz")
	want, r := rankJSON(t, evs, m)
	if r.Approximate != 0 {
		t.Fatalf("the trace as written: %d events approximate, want 0", r.Approximate)
	}
	// Reverse the GPU events (with their launches, which follow them) in
	// runs of 500, each run's events in the run's places.
	shuffled := append([]trace.Event(nil), evs...)
	var gpu []int
	for i, e := range shuffled {
		if e.Kind.GPU() {
			gpu = append(gpu, i)
		}
	}
	for lo := 0; lo < len(gpu); lo += 500 {
		run := gpu[lo:min(lo+500, len(gpu))]
		for i, j := 0, len(run)-1; i < j; i, j = i+1, j-1 {
			shuffled[run[i]], shuffled[run[j]] = shuffled[run[j]], shuffled[run[i]]
		}
	}
	if got, _ := rankJSON(t, shuffled, m); got != want {
		t.Errorf("GPU events reversed in runs of 500 change the figures:\n got %s\nwant %s", got, want)
	}
}

// An event later than the window is counted, never silently folded in.
func TestLaterThanTheWindowIsCounted(t *testing.T) {
	var evs []trace.Event
	late := trace.Event{Kind: trace.Kernel, Name: "k", TS: 5, Dur: 1, Stream: 7}
	for i := range maxOrdered + 10 {
		evs = append(evs, trace.Event{Kind: trace.Kernel, Name: "k", TS: 10 + float64(i)*2, Dur: 1, Stream: 7})
	}
	evs = append(evs, late)
	_, r := rankJSON(t, evs, trace.Meta{})
	if r.Approximate != 1 {
		t.Errorf("one event %d events late: %d approximate, want 1", maxOrdered+10, r.Approximate)
	}
	if r.Kernels.Count != maxOrdered+11 {
		t.Errorf("%d kernels counted, want all %d (the order-free figures stay exact)", r.Kernels.Count, maxOrdered+11)
	}
	// A launch that comes after its kernel was let go, a step that begins
	// before kernels already placed: both counted.
	b := New()
	b.Add(trace.Event{Kind: trace.ProfilerStep, Name: "ProfilerStep#1", TS: 0, Dur: 10})
	b.Add(trace.Event{Kind: trace.ProfilerStep, Name: "ProfilerStep#2", TS: 100, Dur: 10})
	b.Add(trace.Event{Kind: trace.Runtime, Name: "cudaLaunchKernel", TS: 1, Dur: 1, Corr: 1})
	b.Add(trace.Event{Kind: trace.Kernel, Name: "k", TS: 2, Dur: 1, Corr: 1, Stream: 7})
	b.Add(trace.Event{Kind: trace.ProfilerStep, Name: "ProfilerStep#0", TS: -10, Dur: 20})
	if r := b.Rank(trace.Meta{}); r.Approximate != 1 {
		t.Errorf("a step after the kernel it holds: %d approximate, want 1", r.Approximate)
	}
}

// Kernels waiting for launches that do not come fill the queue; past its
// bound the oldest go unlaunched, and a launch that comes after its kernel
// went is counted, not dropped in silence.
func TestQueueFullLetsGoAndCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("adds half a million kernels")
	}
	b := New()
	n := maxQueued + 100
	for i := range n {
		b.Add(trace.Event{Kind: trace.Kernel, Name: "k", TS: float64(i) * 2, Dur: 1, Corr: int64(i + 1), Stream: 7})
	}
	for i := range 10 {
		b.Add(trace.Event{Kind: trace.Runtime, Name: "cudaLaunchKernel", TS: float64(i)*2 - 1, Dur: 1, Corr: int64(i + 1)})
	}
	r := b.Rank(trace.Meta{})
	if r.Approximate != 10 || r.Kernels.Count != n {
		t.Errorf("%d approximate, %d kernels; want the 10 late launches counted and all %d kernels", r.Approximate, r.Kernels.Count, n)
	}
	if len(b.pending) != 0 {
		t.Errorf("%d kernels still wait for a launch after the trace's end", len(b.pending))
	}
}
