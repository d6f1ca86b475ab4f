package timeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/diagnose"
)

// What each real trace is known to be (sampler/trace/testdata/INDEX.md:
// its source's own name for it, and figures counted there with Python),
// held against what the findings say.
func TestFindingsOnRealTraces(t *testing.T) {
	// ResNet-50, fp32, num_workers=0 on a V100 (torch_tb_profiler's sample):
	// the DataLoader takes 39.92% of the complete steps on the main thread;
	// 1462 kernels per step, median 2 µs, 61.9% shorter than their launch;
	// no kernel named as a tensor-core variant on a compute 7.0 device.
	fs := rules(Findings([]Rank{rankOf(t, "tb_resnet50_workers0.pt.trace.json.gz")}))
	in := fs[diagnose.RuleInputStarved]
	if !in.Confirmed || !strings.Contains(in.Title, "DataLoader on the main thread (num_workers=0), 40% of each step") {
		t.Errorf("num_workers=0: input_starved %+v", in)
	}
	if l := fs[diagnose.RuleLaunchBound]; !strings.Contains(l.Title, "1462 kernels per step, median 2 µs") {
		t.Errorf("num_workers=0: launch_bound %+v", l)
	}
	if _, ok := fs[diagnose.RuleTensorCoresIdle]; !ok {
		t.Errorf("fp32 on a V100: no tensor_cores_idle in %v", fs)
	}
	// The same model with num_workers=4: the DataLoader is 0.99% of a step.
	fs = rules(Findings([]Rank{rankOf(t, "tb_resnet50_workers4.pt.trace.json.gz")}))
	if f, ok := fs[diagnose.RuleInputStarved]; ok {
		t.Errorf("num_workers=4 reported as input-starved: %+v", f)
	}
	if _, ok := fs[diagnose.RuleLaunchBound]; !ok {
		t.Errorf("num_workers=4 keeps its 1478 short kernels per step: no launch_bound in %v", fs)
	}
	// Two ranks of a 128-rank NCCL job: NCCL 28-33% of the trace with
	// 11.81% / 20.05% of it overlapped (HTA's definitions, hta_oracle.py).
	for n, file := range []string{"hta_sampled_rank-0.json.gz", "hta_sampled_rank-1.json.gz"} {
		fs := rules(Findings([]Rank{rankOf(t, file)}))
		if f := fs[diagnose.RuleCommBound]; f.Rank != n || !f.Confirmed {
			t.Errorf("%s: comm_bound %+v", file, f)
		}
	}
	// AlexNet benchmark: idle 99.49%, all of stream 7's idle host wait, no
	// DataLoader; its 21 syncs last 1.5 ms in a 12.9 s trace.
	fs = rules(Findings([]Rank{rankOf(t, "hta_alexnet.json.gz")}))
	if f := fs[diagnose.RuleInputStarved]; f.Confirmed || f.Severity != diagnose.Info || !strings.Contains(f.Evidence, "no DataLoader") {
		t.Errorf("alexnet: input_starved %+v", f)
	}
	if f, ok := fs[diagnose.RuleSyncStall]; ok {
		t.Errorf("alexnet: 1.5 ms of syncs reported as a stall: %+v", f)
	}
}

// Every finding carries its messages and a first fix a reader can translate.
func TestFindingsCarryMessagesAndFixes(t *testing.T) {
	var ranks []Rank
	for _, f := range []string{"tb_resnet50_workers0.pt.trace.json.gz", "hta_sampled_rank-0.json.gz", "hta_alexnet.json.gz"} {
		ranks = append(ranks, rankOf(t, f))
	}
	fs := Findings(ranks)
	if len(fs) < 4 {
		t.Fatalf("%d findings", len(fs))
	}
	for i, f := range fs {
		if f.I18n == nil || f.I18n.Title.ID == "" || f.FixID == "" || diagnose.FirstFix(f.FixID) != f.Hint || f.Evidence == "" {
			t.Errorf("finding %d: %+v", i, f)
		}
		if i > 0 && f.Severity > fs[i-1].Severity {
			t.Errorf("finding %d (%v) after a %v one", i, f.Severity, fs[i-1].Severity)
		}
		if strings.Contains(fmt.Sprint(f.Title, f.Evidence), "{{") {
			t.Errorf("unfilled template in %+v", f)
		}
	}
}
