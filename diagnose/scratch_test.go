package diagnose

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestKeptStateMatchesFresh holds an evaluation that reuses what the
// evaluations before it left (the sorted series, the scratch series, the
// per-GPU answers asked once: orders.go, procs.go) to one that starts from
// nothing, on windows of several scenes that slide, jump, scrub back and
// shrink, one Engine state carried from scene to scene.
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
	compared, found := 0, 0
	for _, name := range []string{"healthy, GPU 3 starved", "straggler", "lockstep", "thermal hw", "thermal sw",
		"launch bound", "launch bound, no GPM", "io bound", "starved main", "starved workers"} {
		w := makeWindow(400, scenes[name]...)
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
			c := newCtxOrders(win, &o)
			kept := c.evaluate(nil)
			o.keep(c)
			fresh := newCtx(win).evaluate(nil)
			if !reflect.DeepEqual(kept, fresh) {
				t.Fatalf("%s, window [%d,%d): kept state found\n%+v\nfrom nothing\n%+v", name, from, to, kept, fresh)
			}
			compared++
			found += len(kept)
		}
	}
	if compared < 1400 || found == 0 {
		t.Fatalf("%d windows compared, %d findings: the scenes judged nothing", compared, found)
	}
}
