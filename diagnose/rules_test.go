package diagnose

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

func TestRulesTable(t *testing.T) {
	want := []string{"input_starved", "io_bound", "launch_bound", "sync_stall", "copy_bound", "memory_bandwidth_bound",
		"tensor_cores_idle", "memory_idle_held", "allocated_idle", "memory_pressure", "load_imbalance", "straggler", "comm_bound",
		"gpu_contention", "power_capped", "thermal_throttle", "pcie_link_degraded", "pcie_errors", "xid_error",
		"ecc_errors", "serving_underfilled", "fabric_manager", "host_wait", "vgpu_unlicensed", "container_gpu_lost",
		"memory_preallocated"}
	if len(Rules) != len(want) {
		t.Fatalf("%d rules, want %d", len(Rules), len(want))
	}
	if len(Rules) > 32 {
		t.Fatalf("%d rules do not fit gpuCtx.suppressed's 32 bits", len(Rules))
	}
	refs := regexp.MustCompile(`^\[gpu-idle-(pipeline|handbook)\]( §[0-9.]+)+$`)
	for i, id := range want {
		r := Rules[i]
		if r.ID != id || r.Title == "" {
			t.Errorf("Rules[%d] = %+v, want id %s with a title", i, r, id)
		}
		for _, ref := range strings.Split(r.Refs, "; ") {
			if !refs.MatchString(ref) {
				t.Errorf("%s: reference %q is not a docs/references.md key with sections", id, ref)
			}
		}
		if len(r.Steps) == 0 {
			t.Errorf("%s shows on no checklist step", id)
		}
		for _, s := range r.Steps {
			if s < 1 || s > len(stepTitles) {
				t.Errorf("%s: step %d is not one of the %d", id, s, len(stepTitles))
			}
		}
		for _, s := range r.Suppresses {
			if sr, ok := Lookup(s); !ok || sr.Scope != ScopeWorkload || r.Scope != ScopeWorkload {
				t.Errorf("%s suppresses %q: both must be workload rules", id, s)
			}
		}
		perGPU := r.Scope == ScopeGPU || r.Scope == ScopeWorkload
		if hasFn := gpuCheck(id) != nil; hasFn != perGPU {
			t.Errorf("%s: scope %d, but gpuCheck given: %v", id, r.Scope, hasFn)
		}
		if node := r.Scope == ScopeJob || r.Scope == ScopeNode; node && !r.Node {
			t.Errorf("%s judges a job or the node but is not a node rule", id)
		}
		if ri, ok := Lookup(id); !ok || ri.ID != id || RuleOrder(id) != i {
			t.Errorf("Lookup(%q) = %+v, %v; RuleOrder %d", id, ri, ok, RuleOrder(id))
		}
	}
	if _, ok := Lookup("nope"); ok || RuleOrder("nope") != len(Rules) {
		t.Error("an unknown id was found, or does not sort last")
	}
}

// TestPlanRunsSuppressorsFirst: a rule that suppresses another runs before
// it, or the suppression would come too late; every per-GPU rule runs once.
func TestPlanRunsSuppressorsFirst(t *testing.T) {
	ran := map[int]int{}
	for i, r := range plan.workload {
		ran[r.rule] = i
	}
	for i, r := range plan.anyGPU {
		if _, dup := ran[r.rule]; dup {
			t.Errorf("%s runs twice", Rules[r.rule].ID)
		}
		ran[r.rule] = -1 - i
	}
	for i, r := range Rules {
		at, ok := ran[i]
		if perGPU := gpuCheck(r.ID) != nil; ok != perGPU {
			t.Errorf("%s: in the plan %v, per-GPU %v", r.ID, ok, perGPU)
		}
		for _, s := range r.Suppresses {
			if later := ran[ruleIndex(s)]; later <= at {
				t.Errorf("%s (step %d) suppresses %s, which runs first (step %d)", r.ID, at, s, later)
			}
		}
	}
	// A cycle in the table still yields every rule once (the last one
	// waiting goes anyway) rather than looping.
	cyc := []RuleInfo{
		{ID: RuleIOBound, Scope: ScopeWorkload, Suppresses: []string{RuleInputStarved}},
		{ID: RuleInputStarved, Scope: ScopeWorkload, Suppresses: []string{RuleIOBound}},
	}
	if p := newRulePlan(cyc); len(p.workload) != 2 {
		t.Errorf("a cycle planned %d rules, want 2", len(p.workload))
	}
}

func TestHealthyNodeHasNoWarnings(t *testing.T) {
	w := makeWindow(180, healthyNode()...)
	for end := 40; end <= len(w); end += 20 {
		for _, f := range Evaluate(w[max(0, end-120):end]) {
			if f.Severity >= Warning {
				t.Fatalf("healthy window ending at %d s: %s %s: %s", end, f.Rule, f.Severity, f.Evidence)
			}
		}
	}
}

func TestIdleGPUsWithoutProcessesAreFine(t *testing.T) {
	if fs := Evaluate(makeWindow(150)); len(fs) != 0 {
		t.Fatalf("idle node: %s", describe(fs))
	}
}

func TestWorkloadRules(t *testing.T) {
	cases := []struct {
		name   string
		n      int
		scenes []scene
		rule   string
		gpu    int
		want   bool
	}{
		{"input: main proc saturated, 0 workers", 120, []scene{inputStarved(99, 0, 0)}, RuleInputStarved, 0, true},
		{"input: workers all saturated", 120, []scene{inputStarved(40, 2, 100)}, RuleInputStarved, 0, true},
		{"input near miss: 8 relaxed workers", 120, []scene{inputStarved(50, 8, 40)}, RuleInputStarved, 0, false},
		{"io: iowait and D state", 120, []scene{ioBound(40, "D")}, RuleIOBound, 0, true},
		{"io near miss: no iowait, sleeping workers", 120, []scene{ioBound(6, "S")}, RuleIOBound, 0, false},
		{"io wins over input", 120, []scene{ioBound(40, "D")}, RuleInputStarved, 0, false},
		{"launch: SM 20", 90, []scene{launchBound(20, true)}, RuleLaunchBound, 0, true},
		{"launch near miss: SM 62", 90, []scene{launchBound(62, true)}, RuleLaunchBound, 0, false},
		{"sync: regular dips", 120, []scene{syncStall(1, 55)}, RuleSyncStall, 0, true},
		{"sync near miss: main proc CPU-bound", 120, []scene{syncStall(1, 99)}, RuleSyncStall, 0, false},
		{"sync near miss: irregular dips", 120, []scene{syncStall(6, 55)}, RuleSyncStall, 0, false},
		{"copy: PCIe alternates with compute", 90, []scene{copyBound(30e9)}, RuleCopyBound, 0, true},
		{"copy near miss: no PCIe traffic", 90, []scene{copyBound(0.2e9)}, RuleCopyBound, 0, false},
		{"membw: DRAM 90", 90, []scene{kernelMix(55, 2, 90)}, RuleMemoryBandwidth, 0, true},
		{"membw silences tensor_cores_idle", 90, []scene{kernelMix(55, 2, 90)}, RuleTensorCoresIdle, 0, false},
		{"membw near miss: DRAM 60", 90, []scene{kernelMix(55, 40, 60)}, RuleMemoryBandwidth, 0, false},
		{"tensor: SM 80 tensor 1", 90, []scene{kernelMix(80, 1, 30)}, RuleTensorCoresIdle, 0, true},
		{"tensor near miss: tensor 9", 90, []scene{kernelMix(80, 9, 30)}, RuleTensorCoresIdle, 0, false},
		{"idle held: notebook with 80 GB", 150, []scene{notebook(80e9, 0)}, RuleMemoryIdleHeld, 0, true},
		{"idle held near miss: 5 GB", 150, []scene{notebook(5e9, 0)}, RuleMemoryIdleHeld, 0, false},
		{"idle held near miss: window too short", 80, []scene{notebook(80e9, 0)}, RuleMemoryIdleHeld, 0, false},
		{"idle held near miss: the encoder works", 150, []scene{notebook(80e9, 0), encoding(70)}, RuleMemoryIdleHeld, 0, false},
		{"pressure: 97% creeping", 90, []scene{memoryFull(0.97)}, RuleMemoryPressure, 0, true},
		{"pressure near miss: 88%", 90, []scene{memoryFull(0.88)}, RuleMemoryPressure, 0, false},
		{"serving: vLLM underfilled", 90, []scene{server("python -m vllm.entrypoints.openai.api_server --model x", 10, 35)}, RuleServingUnderfilled, 0, true},
		{"serving silences input_starved", 90, []scene{server("vllm serve meta-llama/Llama-3-8B", 10, 35)}, RuleInputStarved, 0, false},
		{"serving silences memory_pressure", 90, []scene{server("tritonserver --model-repository=/m", 10, 35)}, RuleMemoryPressure, 0, false},
		{"serving near miss: busy server", 90, []scene{server("tritonserver --model-repository=/m", 70, 90)}, RuleServingUnderfilled, 0, false},
		{"same load without a server is input_starved", 90, []scene{server("python loop.py", 10, 35)}, RuleInputStarved, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := Evaluate(makeWindow(tc.n, tc.scenes...))
			if tc.want {
				requireRule(t, fs, tc.rule, tc.gpu)
			} else {
				forbidRule(t, fs, tc.rule, tc.gpu)
			}
			for _, f := range fs {
				if f.GPU > 0 {
					t.Errorf("idle GPU %d flagged: %s", f.GPU, f.Rule)
				}
			}
		})
	}
}

func TestInputStarvedEvidenceNamesTheProcess(t *testing.T) {
	f := requireRule(t, Evaluate(makeWindow(120, inputStarved(99, 0, 0))), RuleInputStarved, 0)
	if f.PID != 4121 || f.Severity != Warning || f.Estimated != "" {
		t.Fatalf("finding %+v", f)
	}
	for _, want := range []string{"p5", "p95", "PID 4121", "python train.py", "0 worker"} {
		if !contains(f.Evidence, want) {
			t.Errorf("evidence %q lacks %q", f.Evidence, want)
		}
	}
}

func TestInputStarvedWithoutHostDataIsEstimated(t *testing.T) {
	w := makeWindow(120, inputStarved(99, 0, 0), func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		s.Host = nil
		for i := range s.GPUs[0].Procs {
			s.GPUs[0].Procs[i].Host = nil
		}
	})
	f := requireRule(t, Evaluate(w), RuleInputStarved, 0)
	if f.Estimated == "" || f.Severity != Info {
		t.Fatalf("no host data must give an estimated info finding, got %+v", f)
	}
}

func TestLaunchBoundWithoutGPMIsEstimatedFromPower(t *testing.T) {
	f := requireRule(t, Evaluate(makeWindow(90, launchBound(20, false))), RuleLaunchBound, 0)
	if f.Estimated == "" || f.Severity != Info {
		t.Fatalf("want estimated info finding, got %+v", f)
	}
	// Without GPM, high power means real work: silent.
	w := makeWindow(90, launchBound(20, false), func(_ int, r *rand.Rand, s *sampler.Snapshot) {
		s.GPUs[0].Power = sampler.Some(between(r, 500, 650))
	})
	forbidRule(t, Evaluate(w), RuleLaunchBound, 0)
}

func TestTensorCoresIdleNeedsGPM(t *testing.T) {
	w := makeWindow(90, kernelMix(80, 1, 30), func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		s.GPUs[0].TensorActive = sampler.NA
	})
	forbidRule(t, Evaluate(w), RuleTensorCoresIdle, 0)
}

func TestNewProcessGracePeriod(t *testing.T) {
	late := func(t int, r *rand.Rand, s *sampler.Snapshot) {
		if t < 100 {
			s.GPUs[0].Procs = nil
			delete(s.Host.Procs, 4121)
			s.GPUs[0] = idleGPU(0)
		}
	}
	w := makeWindow(180, inputStarved(99, 0, 0), late)
	forbidRule(t, Evaluate(w[:125]), RuleInputStarved, 0) // 25 s old
	requireRule(t, Evaluate(w[60:180]), RuleInputStarved, 0)
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestPowerCapAtTheNodesOwnLimitIsInfo(t *testing.T) {
	allAt450 := func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		for i := range s.GPUs {
			s.GPUs[i].PowerLimit = sampler.Some(450)
		}
	}
	f := requireRule(t, Evaluate(makeWindow(90, healthyRank(0), powerCap(1450), allAt450)), RulePowerCapped, 0)
	if f.Severity != Info {
		t.Fatalf("node-wide limit: severity %s, want info", f.Severity)
	}
}

// An imported log (no host data, no process list): a busy GPU is judged as
// an unlisted process, estimated; idle GPUs stay silent.
func TestImportedLogWithoutProcesses(t *testing.T) {
	strip := func(_ int, _ *rand.Rand, s *sampler.Snapshot) {
		s.Host = nil
		for i := range s.GPUs {
			s.GPUs[i].Procs = nil
		}
	}
	fs := Evaluate(makeWindow(90, launchBound(20, false), strip))
	f := requireRule(t, fs, RuleLaunchBound, 0)
	if f.PID != 0 || f.Severity != Info || !contains(f.Estimated, "no process list") || !contains(f.Estimated, "power") {
		t.Fatalf("finding %+v", f)
	}
	if len(fs) != 1 {
		t.Fatalf("only GPU 0 is busy: %s", describe(fs))
	}
	if fs := Evaluate(makeWindow(90, strip)); len(fs) != 0 {
		t.Fatalf("idle imported log: %s", describe(fs))
	}
}
