package summary

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The counter's rises add up, a reload (the counter back near 0) counts
// from 0, and a pause in the log loses nothing, where power × time would:
// 1 h at 500 W with a 10-minute gap is 0.5 kWh by the counter.
func TestEnergyFromTheCounter(t *testing.T) {
	var e energyAcc
	at := func(j float64, dt time.Duration) {
		e.add(&sampler.GPU{Energy: sampler.Some(j), Power: sampler.Some(500)}, dt)
	}
	at(1e6, 0)
	at(1e6+500*1800, time.Second) // 30 min later, after a pause
	at(500*600, 0)                // driver reloaded 10 min ago
	at(500*1800, 20*time.Minute)
	kwh, from := e.kWh()
	if from != EnergyFromCounter || math.Abs(kwh.V-0.5) > 1e-9 {
		t.Errorf("%v kWh from %s, want 0.5 from the counter", kwh.V, from)
	}
}

// Without a counter (older recordings, nvidia-smi logs) energy is power
// times the interval each reading describes; with neither it is n/a.
func TestEnergyFromPowerWithoutTheCounter(t *testing.T) {
	var e energyAcc
	for range 3600 {
		e.add(&sampler.GPU{Power: sampler.Some(400)}, time.Second)
	}
	if kwh, from := e.kWh(); from != EnergyFromPower || math.Abs(kwh.V-0.4) > 1e-9 {
		t.Errorf("%v kWh from %s, want 0.4 from power × time", kwh.V, from)
	}
	var none energyAcc
	none.add(&sampler.GPU{}, time.Second)
	if kwh, from := none.kWh(); kwh.OK || from != "" {
		t.Errorf("no readings gave %v from %q", kwh, from)
	}
}

// The report's total adds the GPUs that have a figure, and its cost is the
// total at the price given; without a price there is no cost, without any
// figure no total.
func TestEnergyTotalAndCost(t *testing.T) {
	gpus := []GPU{{EnergyKWh: sampler.Some(0.5)}, {EnergyKWh: sampler.Some(0.25)}, {}}
	e := energyTotal(gpus, 0.12)
	if e == nil || e.KWh != 0.75 || e.GPUs != 2 || !e.Cost.OK || math.Abs(e.Cost.V-0.09) > 1e-12 || e.PricePerKWh != 0.12 {
		t.Errorf("total %+v, want 0.75 kWh on 2 GPUs costing 0.09 at 0.12", e)
	}
	if e := energyTotal(gpus, 0); e == nil || e.Cost.OK || e.PricePerKWh != 0 {
		t.Errorf("without a price: %+v, want no cost", e)
	}
	if e := energyTotal([]GPU{{}}, 0.12); e != nil {
		t.Errorf("no figures: %+v, want nil", e)
	}
}

// A GPU's energy goes to its processes by their SM share, to the job their
// launcher makes them ranks of, and to their users; a GPU with no process
// is idle. The parts add up to the GPUs' figure.
func TestEnergyByJobAndUser(t *testing.T) {
	host := &sampler.Host{Procs: map[int]*sampler.Proc{
		2000: {PID: 2000, PPID: 1, Name: "torchrun", User: "alice"},
		2001: {PID: 2001, PPID: 2000, Name: "python", User: "alice"},
		2002: {PID: 2002, PPID: 2000, Name: "python", User: "alice"},
		3000: {PID: 3000, PPID: 1, Name: "jupyter-kernel", User: "bob"},
	}}
	proc := func(pid int, sm float64) sampler.GPUProc {
		return sampler.GPUProc{PID: pid, SMUtil: sampler.Some(sm), Host: host.Procs[pid]}
	}
	var b builder
	b.opts, b.gpus = Options{}, map[int]*gpuAcc{}
	for k := range 3601 {
		s := sampler.Snapshot{Time: time.Unix(int64(k), 0), Host: host, GPUs: []sampler.GPU{
			{Index: 0, Energy: sampler.Some(float64(k) * 600), Procs: []sampler.GPUProc{proc(2001, 75), proc(3000, 25)}},
			{Index: 1, Energy: sampler.Some(float64(k) * 400), Procs: []sampler.GPUProc{proc(2002, 50)}},
			{Index: 2, Energy: sampler.Some(float64(k) * 100)},
		}}
		for i := range s.GPUs {
			g := &s.GPUs[i]
			if b.gpus[g.Index] == nil {
				b.gpus[g.Index] = &gpuAcc{index: g.Index}
			}
			b.jobs.add(&s, g, b.gpus[g.Index].add(s.Time, g))
		}
	}
	var gpus []GPU
	for i := range 3 {
		gpus = append(gpus, b.gpus[i].finish())
	}
	e := energyTotal(gpus, 0)
	b.jobs.finish(e)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if len(e.Jobs) != 2 || e.Jobs[0].Job != "torchrun, PPID 2000" || e.Jobs[0].User != "alice" || !near(e.Jobs[0].KWh, 0.85) ||
		!slices.Equal(e.Jobs[0].GPUs, []int{0, 1}) || e.Jobs[1].Job != "PID 3000" || e.Jobs[1].Command != "jupyter-kernel" || !near(e.Jobs[1].KWh, 0.15) {
		t.Errorf("jobs %+v, want torchrun 0.85 kWh on GPUs 0-1 (alice), PID 3000 0.15 kWh (bob)", e.Jobs)
	}
	if len(e.Users) != 2 || e.Users[0].User != "alice" || e.Users[1].User != "bob" || !near(e.IdleKWh, 0.1) || !near(e.KWh, 1.1) {
		t.Errorf("users %+v, idle %v, total %v; want alice, bob, 0.1 idle of 1.1", e.Users, e.IdleKWh, e.KWh)
	}
}

// The same process under another parent name, or another user, is another
// job's.
func TestEnergyJobFollowsParentAndUser(t *testing.T) {
	var e jobEnergy
	for k, c := range []struct{ parent, user string }{{"torchrun", "alice"}, {"torchrun", "alice"}, {"deepspeed", "alice"}, {"deepspeed", "bob"}} {
		host := &sampler.Host{Procs: map[int]*sampler.Proc{
			2000: {PID: 2000, PPID: 1, Name: c.parent, User: c.user},
			2001: {PID: 2001, PPID: 2000, Name: "python", User: c.user},
		}}
		s := sampler.Snapshot{Time: time.Unix(int64(k), 0), Host: host,
			GPUs: []sampler.GPU{{Index: 0, Procs: []sampler.GPUProc{{PID: 2001}}}}}
		e.add(&s, &s.GPUs[0], joulesPerKWh)
	}
	var t0 EnergyTotal
	e.finish(&t0)
	got := map[string]float64{}
	for _, j := range t0.Jobs {
		got[j.Job+" "+j.User] = j.KWh
	}
	want := map[string]float64{"torchrun, PPID 2000 alice": 2, "deepspeed, PPID 2000 alice": 1, "deepspeed, PPID 2000 bob": 1}
	if !maps.Equal(got, want) {
		t.Errorf("jobs %v, want %v", got, want)
	}
}

// A user's energy is one sum whatever the map's order: its jobs' figures
// added in their sorted order, to the last digit, run after run.
func TestUserEnergyInOneOrder(t *testing.T) {
	var first float64
	for run := range 30 {
		e := jobEnergy{byKey: map[string]*JobEnergy{}}
		for i, kwh := range []float64{1e16, 1, 1, 1, 1, 1, 1} {
			k := fmt.Sprintf("PID %d", i)
			e.byKey[k] = &JobEnergy{Job: k, User: "alice", KWh: kwh}
		}
		tot := &EnergyTotal{}
		e.finish(tot)
		if run == 0 {
			first = tot.Users[0].KWh
		} else if got := tot.Users[0].KWh; math.Float64bits(got) != math.Float64bits(first) {
			t.Fatalf("run %d: alice %v, run 0 %v", run, got, first)
		}
	}
}
