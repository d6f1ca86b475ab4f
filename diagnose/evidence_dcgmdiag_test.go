package diagnose

import (
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

func diagSnap(checks ...sampler.DiagCheck) []sampler.Snapshot {
	s := sampler.Snapshot{Time: time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC), Node: sampler.Node{Diag: checks}}
	for i := 0; i < 8; i++ {
		s.GPUs = append(s.GPUs, sampler.GPU{Index: i})
	}
	return []sampler.Snapshot{s}
}

func warnMsg(gpu int, text string) []sampler.DiagMessage {
	return []sampler.DiagMessage{{Kind: "warning", GPU: gpu, Text: text}}
}

// Each failed check's message maps to the rule it proves, with DCGM's
// words as the evidence; passes, skips and Info rows prove nothing.
func TestDiagMapsMessagesToRules(t *testing.T) {
	for _, c := range []struct {
		name, rule string
		gpu        int
		sev        Severity
		check      sampler.DiagCheck
	}{
		{"row remap pending with DBE", RuleECCErrors, 3, Critical, sampler.DiagCheck{Category: "Deployment", Result: "fail",
			Messages: []sampler.DiagMessage{{Kind: "error", GPU: 3, Text: "GPU 3 has uncorrectable memory errors and row remappings are pending"}}}},
		{"pending retirement only", RuleECCErrors, 1, Warning, sampler.DiagCheck{Test: "Page Retirement/Row Remap", Result: "fail",
			Messages: warnMsg(1, "A pending retired page has been detected in GPU 1.")}},
		{"thermal", RuleThermalThrottle, 0, Warning, sampler.DiagCheck{Test: "GPU Memory", Result: "fail", GPUs: []int{0},
			Messages: warnMsg(0, "GPU 0 Thermal violations totaling 13.3 seconds started at 9.7 seconds into the test for GPU 0")}},
		{"nvlink down", RulePCIeLinkDegraded, 0, Warning, sampler.DiagCheck{Test: "PCIe", Result: "fail",
			Messages: warnMsg(0, "GPU 0's NvLink link 3 is currently down")}},
		{"pcie bandwidth", RulePCIeLinkDegraded, 2, Warning, sampler.DiagCheck{Test: "pcie", Result: "fail", GPUs: []int{2},
			Messages: warnMsg(-1, "Bandwidth of GPU 2 in direction h2d of 3.10 did not exceed minimum required bandwidth of 10.00.")}},
		{"xid hardware", RuleXidError, 5, Critical, sampler.DiagCheck{Test: "Diagnostic", Result: "fail",
			Messages: warnMsg(5, "Detected XID 79 for GPU 5")}},
		{"fabric manager", RuleFabricManager, -1, Critical, sampler.DiagCheck{Test: "software", Result: "fail",
			Messages: warnMsg(0, "GPU 0: Fabric State is In Progress (1).")}},
		{"busy", RuleGPUContention, 0, Warning, sampler.DiagCheck{Test: "GPU Memory", Result: "fail", GPUs: []int{0},
			Messages: warnMsg(0, "Unable to create CUDA context: 'CUDA-capable device(s) is/are busy or unavailable'.")}},
		{"memory test without its reason", RuleECCErrors, 4, Warning, sampler.DiagCheck{Test: "memory", Result: "fail", GPUs: []int{4}}},
		{"warned DBE is a warning", RuleECCErrors, 6, Warning, sampler.DiagCheck{Test: "memory", Result: "warn", GPUs: []int{6},
			Messages: warnMsg(6, "Detected 2 volatile double-bit ECC error(s) in GPU 6.")}},
	} {
		fs := Evidence(diagSnap(c.check))
		if len(fs) != 1 || fs[0].Rule != c.rule || fs[0].GPU != c.gpu || fs[0].Severity != c.sev {
			t.Errorf("%s: findings %+v, want one %s on GPU %d (%v)", c.name, fs, c.rule, c.gpu, c.sev)
			continue
		}
		if len(c.check.Messages) > 0 && !strings.Contains(fs[0].Evidence, c.check.Messages[0].Text) {
			t.Errorf("%s: evidence %q lacks DCGM's message", c.name, fs[0].Evidence)
		}
		if strings.Contains(fs[0].Title+fs[0].Evidence, "{{") {
			t.Errorf("%s: unfilled template: %+v", c.name, fs[0])
		}
	}
}

func TestDiagPassSkipAndUnprovedGiveNothing(t *testing.T) {
	fs := Evidence(diagSnap(
		sampler.DiagCheck{Test: "PCIe", Result: "pass"},
		sampler.DiagCheck{Test: "Targeted Stress", Result: "skip", Messages: warnMsg(-1, "The targeted stress test is skipped.")},
		sampler.DiagCheck{Test: "GPU Memory", Result: "pass", GPUs: []int{1},
			Messages: []sampler.DiagMessage{{Kind: "info", GPU: 1, Text: "GPU 1 Allocated 1 bytes; uncorrectable 0"}}},
		sampler.DiagCheck{Test: "Persistence Mode", Result: "fail", Messages: warnMsg(0, "Persistence mode for GPU 0 is disabled.")},
	))
	if len(fs) != 0 {
		t.Errorf("findings %+v, want none: a pass, a skip (not judged), an Info row and a check no rule covers", fs)
	}
}

// One message per link makes one finding, its evidence capped.
func TestDiagRepeatsMergeIntoOneFinding(t *testing.T) {
	var ms []sampler.DiagMessage
	for l := 0; l < 6; l++ {
		ms = append(ms, sampler.DiagMessage{Kind: "warning", GPU: 0, Text: "GPU 0's NvLink link " + string(rune('0'+l)) + " is currently down"})
	}
	fs := Evidence(diagSnap(sampler.DiagCheck{Test: "PCIe", Result: "fail", Messages: ms}))
	if len(fs) != 1 || !strings.Contains(fs[0].Evidence, "and more of the same") || strings.Contains(fs[0].Evidence, "link 5") {
		t.Errorf("findings %+v, want one with three messages and a 'more' mark", fs)
	}
}

// A DCGM health watch's log line maps its message like a diag row's, but
// says it came from the watch, not from a diagnostic run.
func TestDiagHealthWatchWording(t *testing.T) {
	fs := Evidence(diagSnap(sampler.DiagCheck{Category: "Health", Test: "Thermal", Result: "warn", GPUs: []int{2},
		Messages: warnMsg(2, "Detected clocks event due to thermal violation in GPU 2. Verify that the cooling on this machine is functional")}))
	if len(fs) != 1 || fs[0].Rule != RuleThermalThrottle || fs[0].GPU != 2 || fs[0].Severity != Warning {
		t.Fatalf("got %+v", fs)
	}
	if !strings.Contains(fs[0].Title, "health watch") || strings.Contains(fs[0].Title, "diagnostic") ||
		!strings.HasPrefix(fs[0].Evidence, "DCGM health watch Thermal warned: Detected clocks event") {
		t.Errorf("title %q, evidence %q", fs[0].Title, fs[0].Evidence)
	}
}

// dcgmi's NVLink state with links Down: pcie_link_degraded (the rule a
// diag run's NvLink message gets), worded as the link state, not a run.
func TestDiagNVLinkStatusWording(t *testing.T) {
	fs := Evidence(diagSnap(sampler.DiagCheck{Category: "NVLink", Test: "link status", Result: "fail", GPUs: []int{1},
		Messages: []sampler.DiagMessage{{Kind: "error", GPU: 1, Text: "GPU 1: 18 of 18 NvLink links Down"}}}))
	if len(fs) != 1 || fs[0].Rule != RulePCIeLinkDegraded || fs[0].GPU != 1 || strings.Contains(fs[0].Title, "check") ||
		fs[0].Evidence != "dcgmi nvlink --link-status: GPU 1: 18 of 18 NvLink links Down" {
		t.Fatalf("got %+v", fs)
	}
}

// A job's NCCL warning about NVLink (sampler/importer/ncclwarn.go):
// pcie_link_degraded on the GPU NCCL names, worded as what the job hit,
// with NCCL's message and a first fix that does not send the reader back
// to dcgmi diag, which does not exercise NVLS.
func TestDiagNCCLNVLinkWording(t *testing.T) {
	msg := "Failed to bind NVLink SHARP (NVLS) Multicast memory of size 2097152 : CUDA error 401 'the operation cannot be performed in the present state'."
	fs := Evidence(diagSnap(sampler.DiagCheck{Category: "NCCL", Test: "NVLink", Result: "fail", GPUs: []int{5},
		Messages: []sampler.DiagMessage{{Kind: "error", GPU: 5, Text: msg}}}))
	if len(fs) != 1 || fs[0].Rule != RulePCIeLinkDegraded || fs[0].GPU != 5 || fs[0].Severity != Warning {
		t.Fatalf("got %+v", fs)
	}
	if !strings.Contains(fs[0].Title, "NCCL") || strings.Contains(fs[0].Title, "DCGM") || fs[0].Evidence != "NCCL WARN: "+msg ||
		fs[0].FixID != "nccl_nvlink" {
		t.Errorf("title %q, evidence %q, fix %q", fs[0].Title, fs[0].Evidence, fs[0].FixID)
	}
}
