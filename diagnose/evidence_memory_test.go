package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// One reading of a full memory bar: pressure at the allocation edge
// whoever holds it; a framework that reserves memory at start is said to
// be that, not pressure; with no compute process listed nothing is said
// (the corpus' container job, loaded model and guide example).
func TestEvidenceFullMemory(t *testing.T) {
	gib := float64(1 << 30)
	full := func(idx int, usedGiB, totalGiB float64, procs ...sampler.GPUProc) sampler.GPU {
		g := busyGPU(idx, 14, 74, 250)
		g.MemUsed, g.MemTotal, g.Procs = sampler.Some(usedGiB*gib), sampler.Some(totalGiB*gib), procs
		return g
	}
	proc := func(name, typ string) sampler.GPUProc {
		return sampler.GPUProc{PID: 7, Type: typ, Host: &sampler.Proc{PID: 7, Name: name}}
	}
	for _, c := range []struct {
		name string
		g    sampler.GPU
		want string
	}{
		{"no process, headroom", full(0, 11.37, 11.92), ""},
		{"no process, at the edge", full(0, 1.89, 1.95), "memory_pressure:0"},
		{"graphics only, headroom", full(0, 11.4, 11.92, proc("Xorg", "G")), ""},
		{"python", full(0, 11.4, 11.92, proc("python", "C")), "memory_pressure:0"},
		{"vllm", full(0, 76, 80, proc("VLLM::EngineCore", "C")), "memory_preallocated:0"},
		{"tensorflow serving", full(0, 76, 80, proc("/usr/bin/tensorflow_model_server", "C")), "memory_preallocated:0"},
		{"vllm at the edge", full(0, 79.9, 80, proc("vllm", "C")), "memory_pressure:0"},
	} {
		fs := Evidence([]sampler.Snapshot{evSnap(0, c.g)})
		if got := evRules(fs); got != c.want {
			t.Errorf("%s: findings %q, want %q", c.name, got, c.want)
		}
		if c.want == "memory_preallocated:0" && (fs[0].Severity != Info || !strings.Contains(fs[0].Hint, "allocator") || fs[0].FixID != "prealloc") {
			t.Errorf("%s: %+v; want an info finding pointing at the framework's allocator", c.name, fs[0])
		}
	}
}

// A container's slice exceeded is memory_pressure with the pod's limit as
// the evidence and the fix that raises the slice, not the card's memory.
func TestEvidenceSliceOOM(t *testing.T) {
	s := evSnap(0)
	s.Node.SliceOOM = []sampler.SliceOOM{{Device: 0, Want: 3171158016, Limit: 3145728000}}
	f := requireRule(t, Evidence([]sampler.Snapshot{s}), RuleMemoryPressure, -1)
	if f.FixID != hintSliceOOM.id || !strings.Contains(f.Evidence, "3000 MiB") || !strings.Contains(f.Title, "2.9 GiB") {
		t.Errorf("finding %q / %q / %s", f.Title, f.Evidence, f.FixID)
	}
	forbidRule(t, Evidence([]sampler.Snapshot{evSnap(0)}), RuleMemoryPressure, -1)
}

// vcuda-controller's refusal gives the usage only: the finding says what the
// container uses, that the limit is not known, and the vCUDA fix.
func TestEvidenceVCUDASliceOOM(t *testing.T) {
	s := evSnap(0)
	s.Node.SliceOOM = []sampler.SliceOOM{{Want: 30645682176, Layer: "vcuda"}}
	f := requireRule(t, Evidence([]sampler.Snapshot{s}), RuleMemoryPressure, -1)
	if f.FixID != hintVCUDASlice.id || !strings.Contains(f.Title, "28.5 GiB") || strings.Contains(f.Evidence, "HAMi") ||
		!strings.Contains(f.Evidence, "does not give the limit") {
		t.Errorf("finding %q / %q / %s", f.Title, f.Evidence, f.FixID)
	}
}

// The driver's out-of-memory under HAMi-core (its limit check passed) is
// the card full beneath the pod's slice: memory_pressure with the card
// named, not the pod's limit, and the fix that looks at the card's other
// tenants rather than raising the slice.
func TestEvidenceHAMiDriverOOM(t *testing.T) {
	s := evSnap(0)
	s.Node.SliceOOM = []sampler.SliceOOM{{Layer: "hami_driver"}}
	f := requireRule(t, Evidence([]sampler.Snapshot{s}), RuleMemoryPressure, -1)
	if f.FixID != hintSliceCard.id || !strings.Contains(f.Evidence, "res=2") || strings.Contains(f.Title, "0 B") {
		t.Errorf("finding %q / %q / %s", f.Title, f.Evidence, f.FixID)
	}
}

// PyTorch's refused allocation is pressure on its GPU however much the
// reading shows free (2.56 GiB asked with 1.83 GiB free, 88 % used; corpus
// b9-torch-oom-16gb-*), said with the request; the same reading without
// it is not, and it is no container's slice.
func TestEvidenceAllocationFailed(t *testing.T) {
	gib := float64(1 << 30)
	g := busyGPU(0, 14, 74, 250)
	g.MemUsed, g.MemTotal = sampler.Some(14.07*gib), sampler.Some(15.90*gib)
	s := evSnap(0, g)
	forbidRule(t, Evidence([]sampler.Snapshot{s}), RuleMemoryPressure, 0)
	s.Node.SliceOOM = []sampler.SliceOOM{{Device: 0, Want: 16.63 * gib, Limit: 15.90 * gib, Layer: "pytorch"}}
	fs := Evidence([]sampler.Snapshot{s})
	f := requireRule(t, fs, RuleMemoryPressure, 0)
	if f.Severity != Warning || !strings.Contains(f.Estimated, "failed") || !strings.Contains(f.Estimated, "2.6 GiB") {
		t.Errorf("finding %q / %q; want the failed request said", f.Title, f.Estimated)
	}
	forbidRule(t, fs, RuleMemoryPressure, -1)
}

// Where the out-of-memory message says what PyTorch held, the card's use
// beyond it past evHeldBytes is other programs' (a desktop's browser, a
// second UI): said in the evidence, and where freeing it would have
// covered the request, freeing it is the first fix; a request larger
// than that keeps the usual fix; a message without PyTorch's own hold
// says nothing of others.
func TestMemoryHeldOutsideAllocator(t *testing.T) {
	gib, mib := float64(1<<30), float64(1<<20)
	oom := func(own, ask float64) []Finding {
		g := busyGPU(0, 14, 74, 250)
		g.MemUsed, g.MemTotal = sampler.Some(24*gib), sampler.Some(24*gib)
		s := evSnap(0, g)
		s.Node.SliceOOM = []sampler.SliceOOM{{Device: 0, Want: 24*gib + ask, Limit: 24 * gib, Layer: "pytorch", Own: own}}
		return Evidence([]sampler.Snapshot{s})
	}
	f := requireRule(t, oom(21.55*gib, 952*mib), RuleMemoryPressure, 0)
	if f.FixID != hintMemOthers.id || !strings.Contains(f.Evidence, "2.4 GiB of it is held outside") {
		t.Errorf("browser beside the job: fix %q, evidence %q; want others' 2.4 GiB said and freed first", f.FixID, f.Evidence)
	}
	if f := requireRule(t, oom(21.55*gib, 6*gib), RuleMemoryPressure, 0); f.FixID != hintMemPressure.id {
		t.Errorf("a request beyond what others hold: fix %q; want %q", f.FixID, hintMemPressure.id)
	}
	for _, own := range []float64{0, 23.5 * gib} { // not said; only a context's worth outside
		if f := requireRule(t, oom(own, 952*mib), RuleMemoryPressure, 0); f.FixID != hintMemPressure.id || strings.Contains(f.Evidence, "outside") {
			t.Errorf("own %.0f: fix %q, evidence %q; want the usual fix, no others named", own, f.FixID, f.Evidence)
		}
	}
}
