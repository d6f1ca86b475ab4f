package diagnose

import (
	"slices"
	"testing"
)

// TestScenesYieldOnlyTheirRule is a small accuracy matrix: every scene gives
// exactly its own rule (at any severity) and nothing else.
func TestScenesYieldOnlyTheirRule(t *testing.T) {
	cases := []struct {
		name   string
		scenes []scene
		want   []string
	}{
		{"healthy", healthyNode(), nil},
		{"input_starved", []scene{inputStarved(99, 0, 0)}, []string{RuleInputStarved}},
		{"io_bound", []scene{ioBound(40, "D")}, []string{RuleIOBound}},
		{"launch_bound", []scene{launchBound(20, true)}, []string{RuleLaunchBound}},
		{"sync_stall", []scene{syncStall(1, 55)}, []string{RuleSyncStall}},
		{"copy_bound", []scene{copyBound(30e9)}, []string{RuleCopyBound}},
		{"memory_bandwidth_bound", []scene{kernelMix(55, 2, 90)}, []string{RuleMemoryBandwidth}},
		{"tensor_cores_idle", []scene{kernelMix(80, 1, 30)}, []string{RuleTensorCoresIdle}},
		{"memory_idle_held", []scene{notebook(80e9, 0)}, []string{RuleMemoryIdleHeld}},
		{"memory_pressure", []scene{memoryFull(0.97)}, []string{RuleMemoryPressure}},
		// Jobs piled on GPU 0 with 7 GPUs empty: the node view and GPU 0's view.
		{"load_imbalance", []scene{crowded("ana", "bo", "cy")}, []string{RuleLoadImbalance, RuleGPUContention}},
		{"gpu_contention", busyElsewhere(crowded("ana", "bo", "cy")), []string{RuleGPUContention}},
		{"straggler", []scene{stragglerJob(90), nvlinkTopology}, []string{RuleStraggler}},
		{"comm_bound", []scene{lockstep(), pcieTopology}, []string{RuleCommBound}},
		{"serving_underfilled", []scene{server("vllm serve x", 10, 35)}, []string{RuleServingUnderfilled}},
		{"power_capped", []scene{healthyRank(0), powerCap(1450)}, []string{RulePowerCapped}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range Evaluate(makeWindow(150, tc.scenes...)) {
				if !slices.Contains(got, f.Rule) {
					got = append(got, f.Rule)
				}
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("rules %v, want %v", got, want)
			}
		})
	}
}
