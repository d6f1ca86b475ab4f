package sampler

import (
	"testing"
	"time"
)

// gpusWith serves one GPU running pids.
type gpusWith struct{ pids *[]int }

func (g gpusWith) Node() Node { return Node{} }
func (g gpusWith) Sample(time.Time) ([]GPU, []string) {
	gpu := GPU{Index: 0}
	for _, pid := range *g.pids {
		gpu.Procs = append(gpu.Procs, GPUProc{PID: pid})
	}
	return []GPU{gpu}, nil
}
func (g gpusWith) Topology() *Topology { return nil }
func (g gpusWith) Close() error        { return nil }

// countingHost answers every PID asked for, and counts its readings.
type countingHost struct{ reads *int }

func (h countingHost) Sample(_ time.Time, pids []int) (*Host, error) {
	*h.reads++
	out := &Host{Procs: map[int]*Proc{}}
	for _, pid := range pids {
		out.Procs[pid] = &Proc{PID: pid}
	}
	return out, nil
}

// At 100 ms the host is read once a second (HostEvery), and the ticks
// between share that reading, joined to their GPU processes; a GPU process
// the reading lacks is read at once; at 1 s every tick reads.
func TestHostReadAtMostOnceASecond(t *testing.T) {
	pids, reads := []int{10}, 0
	s := &Sampler{GPU: gpusWith{&pids}, Host: countingHost{&reads}}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 20 { // 2 s at 100 ms
		snap := s.Tick(t0.Add(time.Duration(i) * 100 * time.Millisecond))
		if hp := snap.GPUs[0].Procs[0].Host; hp == nil || hp.PID != 10 {
			t.Fatalf("tick %d: the GPU process is not joined to the host", i)
		}
	}
	if reads != 2 {
		t.Errorf("%d host readings in 2 s at 100 ms, want 2", reads)
	}
	pids = append(pids, 11) // a new GPU process: read now, not up to a second later
	snap := s.Tick(t0.Add(2050 * time.Millisecond))
	if reads != 3 || snap.GPUs[0].Procs[1].Host == nil {
		t.Errorf("a new GPU process: %d readings, joined %v; want 3, true", reads, snap.GPUs[0].Procs[1].Host != nil)
	}
	for i := range 5 { // 1 s ticks, one arriving a little early
		s.Tick(t0.Add(3*time.Second + time.Duration(i)*time.Second - time.Duration(i%2)*3*time.Millisecond))
	}
	if reads != 8 {
		t.Errorf("%d readings after five 1 s ticks, want 8", reads)
	}
}
