package timeline

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/trace"
)

// synth builds a rank's events in the test: kernels with their launch
// calls, CPU ranges, steps.
type synth struct {
	b    *Builder
	corr int64
}

func newSynth() *synth { return &synth{b: New()} }

// kernel queues name on stream at launch (a launchDur µs call) and runs it
// [start, start+dur).
func (s *synth) kernel(name string, stream int, launch, launchDur, start, dur float64) {
	s.corr++
	s.add(trace.Event{Kind: trace.Runtime, Name: "cudaLaunchKernel", TS: launch, Dur: launchDur, Corr: s.corr, Stream: -1, Device: -1, TID: 1})
	s.add(trace.Event{Kind: trace.Kernel, Name: name, TS: start, Dur: dur, Corr: s.corr, Stream: stream, Device: 0})
}

func (s *synth) cpu(kind trace.Kind, name string, ts, dur float64) {
	s.add(trace.Event{Kind: kind, Name: name, TS: ts, Dur: dur, Stream: -1, Device: -1, TID: 1})
}

func (s *synth) add(e trace.Event) {
	if err := s.b.Add(e); err != nil {
		panic(err)
	}
}

func (s *synth) rank(n int) Rank { return s.b.Rank(trace.Meta{Rank: n}) }

func rules(fs []Finding) map[string]Finding {
	out := map[string]Finding{}
	for _, f := range fs {
		out[f.Rule] = f
	}
	return out
}

// Each 3 ms step: 1 ms of kernels, then .item() syncs on the last one and
// the host does 2 ms of other work before the next step's first launch.
func TestSyncStallNamesItsCaller(t *testing.T) {
	s := newSynth()
	for i := range 10 {
		t0 := float64(i) * 3000
		s.cpu(trace.ProfilerStep, "ProfilerStep#"+string(rune('0'+i)), t0, 3000)
		s.kernel("volta_sgemm_128x64_nn", 7, t0, 5, t0+10, 990)
		s.cpu(trace.CPUOp, "aten::item", t0+20, 990)
		s.cpu(trace.Runtime, "cudaStreamSynchronize", t0+25, 980)
	}
	fs := rules(Findings([]Rank{s.rank(0)}))
	f, ok := fs[diagnose.RuleSyncStall]
	if !ok {
		t.Fatalf("no sync_stall in %+v", fs)
	}
	for _, want := range []string{"cudaStreamSynchronize from aten::item (.item())", "(1 per step)"} {
		if !strings.Contains(f.Evidence, want) {
			t.Errorf("evidence %q lacks %q", f.Evidence, want)
		}
	}
	if !f.Confirmed || f.Hint != diagnose.FirstFix("sync") || f.Hint == "" {
		t.Errorf("finding %+v", f)
	}
	if _, ok := fs[diagnose.RuleInputStarved]; ok {
		t.Errorf("the idle after the syncs also blamed on the input: %+v", fs)
	}
}

// A 1 ms step whose first 0.4 ms is the DataLoader on the main thread.
func loaderSteps(iter string, loaderUS float64) Rank {
	s := newSynth()
	for i := range 6 {
		t0 := float64(i) * 1000
		s.cpu(trace.ProfilerStep, "ProfilerStep#"+string(rune('0'+i)), t0, 1000)
		s.cpu(trace.Annotation, "enumerate(DataLoader)#"+iter+".__next__", t0, loaderUS)
		s.kernel("volta_sgemm_128x64_nn", 7, t0+loaderUS+10, 5, t0+loaderUS+20, 990-loaderUS-20)
	}
	return s.rank(3)
}

func TestDataLoaderOnTheMainThreadConfirmed(t *testing.T) {
	f, ok := rules(Findings([]Rank{loaderSteps("_SingleProcessDataLoaderIter", 400)}))[diagnose.RuleInputStarved]
	if !ok || !f.Confirmed || f.Severity != diagnose.Warning {
		t.Fatalf("input_starved %+v", f)
	}
	if !strings.Contains(f.Title, "rank 3: DataLoader on the main thread (num_workers=0), 40% of each step") {
		t.Errorf("title %q", f.Title)
	}
	if f.Hint != diagnose.FirstFix("num_workers") || !strings.Contains(f.Hint, "num_workers") {
		t.Errorf("hint %q", f.Hint)
	}
	if _, ok := rules(Findings([]Rank{loaderSteps("_MultiProcessingDataLoaderIter", 30)}))[diagnose.RuleInputStarved]; ok {
		t.Error("a DataLoader at 3% of the step reported")
	}
	f = rules(Findings([]Rank{loaderSteps("_MultiProcessingDataLoaderIter", 300)}))[diagnose.RuleInputStarved]
	if f.Hint != diagnose.FirstFix("workers_saturated") {
		t.Errorf("workers that cannot keep up: hint %q", f.Hint)
	}
}

// kernels of kernelUS each, launched back to back by calls of 8 µs.
func launches(kernelUS float64) Rank {
	s := newSynth()
	for i := range 300 {
		at := float64(i) * 10
		s.kernel("vectorized_elementwise_kernel", 7, at, 8, at+9, kernelUS)
	}
	return s.rank(0)
}

func TestLaunchBoundNeedsKernelsShorterThanTheirLaunch(t *testing.T) {
	f, ok := rules(Findings([]Rank{launches(3)}))[diagnose.RuleLaunchBound]
	if !ok || !strings.Contains(f.Title, "300 kernels, median 3 µs") || !strings.Contains(f.Evidence, "100% ran shorter than their launch call") {
		t.Fatalf("launch_bound %+v", f)
	}
	if _, ok := rules(Findings([]Rank{launches(9.5)}))[diagnose.RuleLaunchBound]; ok {
		t.Error("kernels longer than their launch reported as launch-bound")
	}
}

// NCCL on stream 20 for [0, 500), computation on stream 7 for [400, 600).
func TestCommBoundCountsOnlyTheExposedPart(t *testing.T) {
	s := newSynth()
	s.kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 20, 0, 5, 0, 500)
	s.kernel("volta_sgemm_128x64_nn", 7, 0, 5, 400, 200)
	f, ok := rules(Findings([]Rank{s.rank(0)}))[diagnose.RuleCommBound]
	if !ok || !strings.Contains(f.Title, "67% of the trace") || !strings.Contains(f.Evidence, "20% of it under computation") {
		t.Fatalf("comm_bound %+v", f)
	}
	s = newSynth()
	s.kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 20, 0, 5, 100, 400)
	s.kernel("volta_sgemm_128x64_nn", 7, 0, 5, 0, 600)
	if f, ok := rules(Findings([]Rank{s.rank(0)}))[diagnose.RuleCommBound]; ok {
		t.Errorf("fully overlapped communication reported: %+v", f)
	}
}

func stepRank(n int, computeUS float64) Rank {
	s := newSynth()
	for i := range 3 {
		t0 := float64(i) * 1000
		s.cpu(trace.ProfilerStep, "ProfilerStep#"+string(rune('0'+i)), t0, 1000)
		s.kernel("volta_sgemm_128x64_nn", 7, t0+1, 5, t0+10, computeUS)
		s.kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 20, t0+2, 5, t0+10+computeUS, 980-computeUS)
	}
	return s.rank(n)
}

func TestStragglerAcrossRanks(t *testing.T) {
	f, ok := rules(Findings([]Rank{stepRank(0, 400), stepRank(1, 410), stepRank(2, 600)}))[diagnose.RuleStraggler]
	if !ok || f.Rank != 2 || !strings.Contains(f.Title, "rank 2 is the straggler: 600 µs of computation per step vs 400 µs on the other 2 ranks") {
		t.Fatalf("straggler %+v", f)
	}
	if f, ok := rules(Findings([]Rank{stepRank(0, 400), stepRank(1, 410), stepRank(2, 480)}))[diagnose.RuleStraggler]; ok {
		t.Errorf("1.17× reported as a straggler: %+v", f)
	}
}
