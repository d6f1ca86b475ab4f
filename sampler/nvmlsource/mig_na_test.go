package nvmlsource

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// TestMIGUtilNotAsked: with MIG enabled NVML answers NOT_SUPPORTED for the
// device's utilisation and for per-process utilisation; the reader does
// not ask, and says why (docs/driver-compatibility.md, the MIG rows).
func TestMIGUtilNotAsked(t *testing.T) {
	base := fakenvml.BaseTruth(8, fakenvml.ModelH200)
	f, box, src := newFake(t, 8, fakenvml.ModelH200, nil, base)
	var g sampler.GPU
	for k := range 3 {
		box.set(migTruth(base, k, "3g.71gb", 2))
		gpus, _ := src.Sample(tickTime(k))
		g = gpus[migGPU]
	}
	for _, method := range []string{"GetUtilizationRates", "GetProcessUtilization"} {
		if n := f.Calls(migGPU, method); n != 0 {
			t.Errorf("%s called %d times on a MIG GPU", method, n)
		}
	}
	if g.NA[sampler.NAUtil] != sampler.ReasonMIG || g.NA[sampler.NAProcUtil] != sampler.ReasonMIG {
		t.Errorf("NA util %q, proc_util %q, want %q", g.NA[sampler.NAUtil], g.NA[sampler.NAProcUtil], sampler.ReasonMIG)
	}
}
