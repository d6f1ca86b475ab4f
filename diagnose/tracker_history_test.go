package diagnose

import (
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// ObserveHistory ends on the frame Observe gives for the same snapshots,
// levels and checklists included, whether the last snapshot runs the rules
// or falls inside the stride; the frames before it carry findings alone.
func TestObserveHistoryEndsAsObserve(t *testing.T) {
	for _, interval := range []time.Duration{time.Second, 300 * time.Millisecond} {
		w := makeWindow(200, append(healthyNode(), inputStarvedOn(3))...)
		snaps := make([]sampler.Snapshot, 0, 2*len(w))
		for i := range w { // the window's snapshots at the interval
			s := w[i]
			s.Time = w[0].Time.Add(time.Duration(i) * interval)
			snaps = append(snaps, s)
		}
		for _, n := range []int{1, 2, 50, 121, 200} {
			a, b := NewViewTracker(Options{}), NewViewTracker(Options{})
			var want Frame
			for _, s := range snaps[:n] {
				want = a.Observe(s)
			}
			var last Frame
			frames := 0
			b.ObserveHistory(snaps[:n], func(f Frame) {
				if frames < n-1 && f.Diagnosis != nil && f.Diagnosis.Levels != nil {
					t.Fatalf("interval %v, %d snapshots: frame %d of the history has levels", interval, n, frames)
				}
				last = f
				frames++
			})
			if frames != n {
				t.Fatalf("interval %v, %d snapshots: %d frames handed on", interval, n, frames)
			}
			if !reflect.DeepEqual(last.Diagnosis, want.Diagnosis) {
				t.Fatalf("interval %v, %d snapshots: last diagnosis differs from Observe's", interval, n)
			}
			if len(last.Diagnosis.Levels) == 0 || len(last.Diagnosis.Checklists) == 0 {
				t.Fatalf("interval %v, %d snapshots: no levels or checklists on the last frame", interval, n)
			}
			// And the tracker goes on as the other.
			next := snaps[n%len(snaps)]
			next.Time = snaps[n-1].Time.Add(time.Second)
			if x, y := a.Observe(next), b.Observe(next); !reflect.DeepEqual(x.Diagnosis, y.Diagnosis) {
				t.Fatalf("interval %v, %d snapshots: the next diagnosis differs", interval, n)
			}
		}
	}
}
