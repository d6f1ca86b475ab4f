package pipeline

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/node"
)

func demo(t *testing.T, scenario string) *sampler.Sampler {
	t.Helper()
	d, err := node.NewDemo(scenario, 1, time.Now().Add(-time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	return d.Sampler(scenario)
}

// The recorder and the subscriber get the same diagnosis: one computation.
// Run returns on cancel and closes the subscription.
func TestRecorderAndSubscriberShareOneDiagnosis(t *testing.T) {
	s := demo(t, "input_starved")
	s.SetInterval(sampler.MinInterval)
	var mu sync.Mutex
	recorded := map[uint64]diagnose.Frame{}
	col := New(s, Options{Sinks: []Sink{{Name: "recording", Take: func(f diagnose.Frame) error {
		mu.Lock()
		defer mu.Unlock()
		recorded[f.Snapshot.Seq] = f
		return nil
	}}}})
	sub := col.Subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { col.Run(ctx, nil) })
	for range 3 {
		f := <-sub
		mu.Lock()
		r, ok := recorded[f.Snapshot.Seq]
		mu.Unlock()
		if !ok || r.Diagnosis != f.Diagnosis || f.Diagnosis == nil {
			t.Fatalf("seq %d: recorded %v, same diagnosis %v", f.Snapshot.Seq, ok, r.Diagnosis == f.Diagnosis)
		}
	}
	if latest, ok := col.Latest(); !ok || latest.Snapshot.Seq == 0 {
		t.Error("Latest has no frame")
	}
	cancel()
	wg.Wait()
	for range sub { // drain what is left; the loop ends only if it is closed
	}
	if _, ok := <-col.Subscribe(); ok {
		t.Error("a subscription after Run ended is open")
	}
}

// A subscriber that does not read never blocks the collector: it finds the
// newest frame.
func TestSlowSubscriberGetsLatest(t *testing.T) {
	s := demo(t, "healthy")
	col := New(s, Options{})
	sub := col.Subscribe()
	start := time.Now()
	var last diagnose.Frame
	for i := range 5 {
		last = col.Push(s.Tick(start.Add(time.Duration(i) * time.Second)))
	}
	if got := <-sub; got.Snapshot.Seq != last.Snapshot.Seq {
		t.Errorf("subscriber got seq %d, want the newest %d", got.Snapshot.Seq, last.Snapshot.Seq)
	}
}

// A failing sink is said on the frame's snapshot, not lost, and the sinks
// after it still take the frame, in order.
func TestSinkErrorShown(t *testing.T) {
	s := demo(t, "healthy")
	var order []string
	sink := func(name string, err error) Sink {
		return Sink{Name: name, Take: func(diagnose.Frame) error { order = append(order, name); return err }}
	}
	col := New(s, Options{Sinks: []Sink{sink("recording", errors.New("disk full")), sink("exporter", nil)}})
	f := col.Push(s.Tick(time.Now()))
	if len(f.Snapshot.Problems) == 0 || !strings.Contains(f.Snapshot.Problems[len(f.Snapshot.Problems)-1], "recording: disk full") {
		t.Errorf("problems %v", f.Snapshot.Problems)
	}
	if strings.Join(order, ",") != "recording,exporter" {
		t.Errorf("sinks took the frame in order %v", order)
	}
}

// Preroll hands each snapshot on whole in its frame, in order, and clears
// the caller's copy as it goes: the pre-roll holds one copy of its history.
func TestPrerollHandsSnapshotsOver(t *testing.T) {
	s := demo(t, "mixed")
	start := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	snaps := sampler.Preroll(s, start, start.Add(30*time.Second), time.Second)
	want := make([]uint64, len(snaps))
	for i := range snaps {
		want[i] = snaps[i].Seq
	}
	i := 0
	New(s, Options{}).Preroll(snaps, func(f diagnose.Frame) {
		if f.Snapshot.Seq != want[i] || f.Snapshot.Host == nil || f.Snapshot.Host.Procs == nil || snaps[i].Host != nil {
			t.Fatalf("frame %d: #%d, host %v; the caller's copy %+v", i, f.Snapshot.Seq, f.Snapshot.Host != nil, snaps[i].Time)
		}
		i++
	})
	if i != len(snaps) {
		t.Fatalf("%d frames for %d snapshots", i, len(snaps))
	}
}
