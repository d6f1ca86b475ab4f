package timeline

import (
	"os"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/trace"
)

func summaryOf(t *testing.T, files ...string) Summary {
	t.Helper()
	s := &trace.Stats{}
	for _, f := range files {
		fh, err := os.Open("../../sampler/trace/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		st, err := trace.ReadStats(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		s.Tables = append(s.Tables, st.Tables...)
	}
	return Summarise(s)
}

// The vLLM MoE serving run on an H100 without CUDA graphs (INDEX.md):
// 995175 kernels, most of a few µs, and 19207 cudaStreamSynchronize.
func TestSummaryMoE(t *testing.T) {
	s := summaryOf(t, "nsysstats_moe_h100_2024.5_kern_sum.csv", "nsysstats_moe_h100_2024.5_api_sum.csv")
	k := s.Kernels
	if k.Count != 995175 || len(k.Top) != topN {
		t.Fatalf("kernels %d, top %d", k.Count, len(k.Top))
	}
	if k.MedianUS <= 0 || k.MedianUS >= launchUS {
		t.Errorf("median %v µs", k.MedianUS)
	}
	if k.TensorCoreUS == 0 || k.TensorCoreUS > k.MatmulUS {
		t.Errorf("tensor-core %v of matmul %v", k.TensorCoreUS, k.MatmulUS)
	}
	if s.Launches < 900000 || len(s.Syncs) == 0 || s.Syncs[0].Name != "cudaStreamSynchronize" || s.Syncs[0].Count != 19207 {
		t.Errorf("launches %d syncs %+v", s.Launches, s.Syncs)
	}
	got := rules(s.Findings)
	if _, ok := got[diagnose.RuleLaunchBound]; !ok {
		t.Errorf("no launch_bound: %+v", s.Findings)
	}
	if _, ok := got[diagnose.RuleTensorCoresIdle]; ok {
		t.Errorf("findings %+v", s.Findings)
	}
	for _, f := range s.Findings {
		if f.Confirmed || f.Severity != diagnose.Info {
			t.Errorf("%s: a summary confirms nothing", f.Rule)
		}
	}
}

// The dotLLM prefill paste (RTX 4090): the cuBLAS GEMMs are s1688/s16816
// tensor-core kernels; 679 kernels (the rows' sum; the source's own table
// says 676), whose median (≈ 250 µs) is no launch-bound one.
func TestSummaryDotLLMPaste(t *testing.T) {
	s := summaryOf(t, "nsysstats_dotllm_rtx4090_2024.6_paste.txt")
	k := s.Kernels
	if k.Count != 679 || k.Top[0].Name != "flash_attention_prefill_f16" {
		t.Fatalf("kernels %d top %q", k.Count, k.Top[0].Name)
	}
	if k.TensorCoreUS != k.MatmulUS || k.MatmulUS == 0 {
		t.Errorf("tensor-core %v of matmul %v", k.TensorCoreUS, k.MatmulUS)
	}
	if s.Launches != 455+224 {
		t.Errorf("launch calls %d", s.Launches)
	}
	if _, ok := rules(s.Findings)[diagnose.RuleLaunchBound]; ok {
		t.Errorf("launch_bound on long kernels: %+v", s.Findings)
	}
}
