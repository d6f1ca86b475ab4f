package diagnose

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestKeptStateMatchesFresh holds an evaluation that reuses what the
// evaluations before it left (the sorted series, the scratch series, the
// per-GPU answers asked once: orders.go, procs.go; each GPU's column of
// samples: column.go) to one that starts from nothing, on windows of
// several scenes that slide, jump, scrub back and shrink, a GPU missing
// from a snapshot now and then, one Engine state carried from scene to
// scene (the same times, other snapshots). The GPUs' statistics are
// compared too: a column kept out of line moves a mean before a finding.
// The kept side reads the older hosts slimmed, as the History keeps them,
// so a process's figures kept on a column (colprocs.go) are held to the
// whole host's.
func TestKeptStateMatchesFresh(t *testing.T) {
	scenes := map[string][]scene{
		"healthy, GPU 3 starved": append(healthyNode(), inputStarvedOn(3)),
		"straggler":              {stragglerJob(60)},
		"lockstep":               {lockstep()},
		"thermal hw":             {thermal(sampler.ClockHwThermal, 90)},
		"thermal sw":             {thermal(sampler.ClockSwThermal, 86)},
		"launch bound":           {launchBound(20, true)},
		"launch bound, no GPM":   {launchBound(20, false)},
		"io bound":               {ioBound(30, "D")},
		"starved main":           {inputStarved(99, 1, 20)},
		"starved workers":        {inputStarved(40, 8, 99)},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var o orders
	compared, found, slid, slimmed := 0, 0, 0, 0
	for _, name := range []string{"healthy, GPU 3 starved", "straggler", "lockstep", "thermal hw", "thermal sw",
		"launch bound", "launch bound, no GPM", "io bound", "starved main", "starved workers"} {
		w := makeWindow(400, scenes[name]...)
		for j := 5; j < len(w); j += 5 + rng.IntN(20) { // a GPU missing from a snapshot now and then
			dropGPU(&w[j], rng.IntN(len(w[j].GPUs)))
		}
		// The kept evaluations see the hosts older than the newest as the
		// History keeps them, slimmed to figures (slim.go); the fresh ones
		// see them whole.
		slim, rows := slices.Clone(w), make([]procRows, len(w))
		from, to := 0, 1
		for step := 0; step < 150; step++ {
			switch r := rng.IntN(10); {
			case r < 7: // the usual tick
				to++
				if to-from > 120 {
					from++
				}
			case r < 8: // a jump ahead
				from, to = from+rng.IntN(60), to+rng.IntN(60)+1
			case r < 9: // scrub back
				from, to = max(0, from-rng.IntN(40)), max(1, to-rng.IntN(40))
			default: // shrink from the front
				from += rng.IntN(10)
			}
			to = min(to, len(w))
			from = min(from, to-1)
			win := w[from:to]
			o.rows = rows[from:to]
			c := newCtxOrders(slim[from:to], &o)
			if o.cols.kept > 0 {
				slid++
			}
			kept := c.evaluate(nil)
			fc := newCtx(win)
			fresh := fc.evaluate(nil)
			if !reflect.DeepEqual(kept, fresh) {
				t.Fatalf("%s, window [%d,%d): kept state found\n%+v\nfrom nothing\n%+v", name, from, to, kept, fresh)
			}
			if k, f := gpuStats(c), gpuStats(fc); k != f {
				t.Fatalf("%s, window [%d,%d): kept state summed up the GPUs as\n%s\nfrom nothing\n%s", name, from, to, k, f)
			}
			compared++
			found += len(kept)
			for i := from; i < to-1; i++ {
				if h := slim[i].Host; h != nil && h.Procs != nil {
					slim[i].Host, rows[i] = slimHost(h)
					slimmed++
				}
			}
		}
	}
	if compared < 1400 || found == 0 || slid < compared/2 || slimmed == 0 {
		t.Fatalf("%d windows compared, %d findings, %d kept samples of the window before, %d hosts slimmed: the scenes judged nothing, never slid or had no process table", compared, found, slid, slimmed)
	}
}

// gpuStats prints what each GPU's window summed up to (NaN equal to NaN).
func gpuStats(c *ctx) string {
	out := ""
	for _, g := range c.gpus {
		out += fmt.Sprintf("%d: %d %v %v %v %v %v %v\n", g.idx, g.samples, g.util, g.sm, g.tensor, g.dram, g.power, g.mem)
	}
	return out
}

// dropGPU takes GPU position k out of s, on a copy of its GPUs.
func dropGPU(s *sampler.Snapshot, k int) {
	s.GPUs = append(append([]sampler.GPU(nil), s.GPUs[:k]...), s.GPUs[k+1:]...)
}
