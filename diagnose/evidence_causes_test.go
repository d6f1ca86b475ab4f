package diagnose

import (
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

func compute(pid int, name string, gib float64) sampler.GPUProc {
	return sampler.GPUProc{PID: pid, Type: "C", MemUsed: sampler.Some(gib * (1 << 30)), Host: &sampler.Proc{PID: pid, Name: name}}
}

// Fewer lanes than the link's maximum are a fault at any load; a lower
// generation at idle is power saving.
func TestEvidenceLanesAtAnyLoad(t *testing.T) {
	narrow := busyGPU(0, 0, 24, 575)
	narrow.PCIeGen, narrow.PCIeGenMax, narrow.PCIeWidth, narrow.PCIeWidthMax = sampler.Some(1), sampler.Some(5), sampler.Some(8), sampler.Some(16)
	gen1 := busyGPU(1, 0, 24, 575)
	gen1.PCIeGen, gen1.PCIeGenMax, gen1.PCIeWidth, gen1.PCIeWidthMax = sampler.Some(1), sampler.Some(5), sampler.Some(16), sampler.Some(16)
	full8 := busyGPU(2, 0, 6, 70) // an eight-lane card at its width
	full8.PCIeWidth, full8.PCIeWidthMax = sampler.Some(8), sampler.Some(8)
	fs := Evidence([]sampler.Snapshot{evSnap(0, narrow, gen1, full8)})
	f := requireRule(t, fs, RulePCIeLinkDegraded, 0)
	if !strings.Contains(f.Evidence, "x8 of x16") {
		t.Errorf("evidence %q does not name the lanes", f.Evidence)
	}
	forbidRule(t, fs, RulePCIeLinkDegraded, 1)
	forbidRule(t, fs, RulePCIeLinkDegraded, 2)
}

// Two jobs on one busy GPU are contention, and they explain its low power
// better than small kernels; a job's DataLoader workers (a CUDA context
// each) and the MPS server are not competitors.
func TestEvidenceContentionFromOneProcessList(t *testing.T) {
	shared := busyGPU(0, 100, 120, 700)
	shared.Procs = []sampler.GPUProc{compute(11, "./gpu_burn", 15), compute(12, "python", 20)}
	workers := busyGPU(1, 100, 500, 700)
	workers.Procs = []sampler.GPUProc{compute(21, "python", 30), compute(22, "python", 0.4), compute(23, "python", 0.4)}
	mps := busyGPU(2, 100, 600, 700)
	mps.Procs = []sampler.GPUProc{compute(31, "nvidia-cuda-mps-server", 1.2), {PID: 32, Type: "M+C", MemUsed: sampler.Some(9 << 30)}}
	idle := busyGPU(3, 0, 60, 700)
	idle.Procs = []sampler.GPUProc{compute(41, "python", 5), compute(42, "jupyter", 6)}
	// Another program holding a context and a little more is another job,
	// even where the input shows no load (a process block alone).
	programs := sampler.GPU{Index: 4, Procs: []sampler.GPUProc{compute(51, "/cuda-samples/sample", 0.73), compute(52, "./gpu_burn", 20.7)}}
	fs := Evidence([]sampler.Snapshot{evSnap(0, shared, workers, mps, idle, programs)})
	requireRule(t, fs, RuleGPUContention, 0)
	requireRule(t, fs, RuleGPUContention, 4)
	forbidRule(t, fs, RuleLaunchBound, 0)
	for _, g := range []int{1, 2, 3} {
		forbidRule(t, fs, RuleGPUContention, g)
	}
}

// Several GPUs of one job spinning are one node finding about the
// collective; a lone spinning GPU stays launch_bound, and GPUs of
// different jobs are not one collective.
func TestEvidenceCollectiveAcrossAJob(t *testing.T) {
	var gpus []sampler.GPU
	for i := range 4 {
		g := busyGPU(i, 100, 200, 700)
		g.Procs = []sampler.GPUProc{compute(100+i, "...env/bin/python", 60)}
		gpus = append(gpus, g)
	}
	fs := Evidence([]sampler.Snapshot{evSnap(0, gpus...)})
	f := requireRule(t, fs, RuleCommBound, -1)
	if f.FixID != hintHang.id || f.Hint != hintHang.en || !strings.Contains(f.Evidence, "0, 1, 2, 3") {
		t.Errorf("collective finding %q / %q", f.Evidence, f.Hint)
	}
	for i := range 4 {
		forbidRule(t, fs, RuleLaunchBound, i)
	}
	a, b := busyGPU(0, 100, 200, 700), busyGPU(1, 100, 200, 700)
	a.Procs, b.Procs = []sampler.GPUProc{compute(1, "bench_a", 10)}, []sampler.GPUProc{compute(2, "bench_b", 10)}
	fs = Evidence([]sampler.Snapshot{evSnap(0, a, b)})
	forbidRule(t, fs, RuleCommBound, -1)
	requireRule(t, fs, RuleLaunchBound, 0)
}

// Without a process list only the whole node tells GPUs are one job: every
// GPU shown spinning is a collective (a hung job holding the node), a few
// spinning beside idle ones on a shared server are not.
func TestEvidenceCollectiveWithoutProcessesNeedsTheWholeNode(t *testing.T) {
	hung := []sampler.GPU{busyGPU(0, 100, 97, 350), busyGPU(1, 100, 94, 350)}
	requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, hung...)}), RuleCommBound, -1)
	shared := []sampler.GPU{busyGPU(0, 0, 69, 450), busyGPU(1, 100, 93, 450), busyGPU(2, 100, 106, 450),
		busyGPU(3, 0, 124, 450), busyGPU(4, 99, 118, 450), busyGPU(5, 12, 21, 450)}
	forbidRule(t, Evidence([]sampler.Snapshot{evSnap(0, shared...)}), RuleCommBound, -1)
}

// A GPU not registered with the NVSwitch fabric, or CUDA's error 802, is
// the fabric manager; a completed fabric and N/A (no NVSwitch) are not.
func TestEvidenceFabricManager(t *testing.T) {
	waiting := busyGPU(0, 0, 67, 700)
	waiting.FabricState, waiting.FabricStatus = "In Progress", ""
	done := busyGPU(1, 0, 67, 700)
	done.FabricState, done.FabricStatus = "Completed", "Success"
	fs := Evidence([]sampler.Snapshot{evSnap(0, waiting, done)})
	f := requireRule(t, fs, RuleFabricManager, -1)
	if f.Severity != Critical || !strings.Contains(f.Evidence, "GPU 0") || strings.Contains(f.Evidence, "GPU 1") {
		t.Errorf("fabric finding %s: %q", f.Severity, f.Evidence)
	}
	failed := done
	failed.FabricStatus = "NV_ERR_TIMEOUT"
	requireRule(t, Evidence([]sampler.Snapshot{evSnap(0, failed)}), RuleFabricManager, -1)
	forbidRule(t, Evidence([]sampler.Snapshot{evSnap(0, done)}), RuleFabricManager, -1)
	s := evSnap(0)
	s.Node.CUDAError = "802: system not yet initialized (cudaGetDeviceCount returned 802)"
	f = requireRule(t, Evidence([]sampler.Snapshot{s}), RuleFabricManager, -1)
	if !strings.Contains(f.Evidence, "802") {
		t.Errorf("evidence %q does not quote the error", f.Evidence)
	}
}

// CUDA's 46 (all devices busy or unavailable) is something else holding
// the GPU: gpu_contention for the node, never the fabric manager.
func TestEvidenceCUDABusy(t *testing.T) {
	s := evSnap(0)
	s.Node.CUDAError = "46: all CUDA-capable devices are busy or unavailable (THCudaCheck FAIL error=46)"
	fs := Evidence([]sampler.Snapshot{s})
	f := requireRule(t, fs, RuleGPUContention, -1)
	if f.Severity != Warning || f.FixID != hintGPUBusy.id || !strings.Contains(f.Evidence, "error=46") {
		t.Errorf("finding %s %s: %q", f.Severity, f.FixID, f.Evidence)
	}
	forbidRule(t, fs, RuleFabricManager, -1)
	// The line alone: an unlicensed vGPU guest gives the same error, so the
	// finding names both and its fix tells them apart.
	if !strings.Contains(f.Title, "licence") || !strings.Contains(f.Hint, "Licensed Product") {
		t.Errorf("line alone: title %q, fix %q", f.Title, f.Hint)
	}
	// A physical GPU shown beside it rules the licence out.
	s.GPUs = []sampler.GPU{busyGPU(0, 0, 60, 300)}
	if f := requireRule(t, Evidence([]sampler.Snapshot{s}), RuleGPUContention, -1); strings.Contains(f.Title, "licence") {
		t.Errorf("physical GPU: title %q", f.Title)
	}
	// An unlicensed guest is the licence's finding, not another process.
	g := busyGPU(0, 0, 0, 0)
	g.Name, g.Virtualization, g.License = "GRID A100-4C", "VGPU", "Unlicensed (Restricted)"
	s.GPUs = []sampler.GPU{g}
	fs = Evidence([]sampler.Snapshot{s})
	forbidRule(t, fs, RuleGPUContention, -1)
	requireRule(t, fs, RuleVGPUUnlicensed, 0)
	// A GPU the input shows lost is why CUDA found it unavailable: its own
	// finding, not another process.
	lost := busyGPU(0, 0, 0, 0)
	lost.Lost = true
	s.GPUs = []sampler.GPU{lost}
	fs = Evidence([]sampler.Snapshot{s})
	forbidRule(t, fs, RuleGPUContention, -1)
	requireRule(t, fs, RuleXidError, 0)
}

// CUDA's out of memory creating a context (error 2 from cuCtxCreate) is
// other processes holding the GPU's memory: gpu_contention for the node.
func TestEvidenceCUDAContextOOM(t *testing.T) {
	s := evSnap(0)
	s.Node.CUDAError = "2: out of memory creating a CUDA context (jcuda.CudaException: CUDA_ERROR_OUT_OF_MEMORY)"
	fs := Evidence([]sampler.Snapshot{s})
	f := requireRule(t, fs, RuleGPUContention, -1)
	if f.Severity != Warning || f.FixID != hintGPUBusy.id || !strings.Contains(f.Evidence, "CUDA_ERROR_OUT_OF_MEMORY") {
		t.Errorf("finding %s %s: %q", f.Severity, f.FixID, f.Evidence)
	}
	forbidRule(t, fs, RuleFabricManager, -1)
}

// CUDA's 214 (an uncorrectable ECC error) is a fault of a card: ecc_errors
// for the node, critical, with the ECC fix; never the fabric manager.
func TestEvidenceCUDAECCUncorrectable(t *testing.T) {
	s := evSnap(0)
	s.Node.CUDAError = "214: uncorrectable ECC error encountered (RuntimeError: CUDA error: uncorrectable ECC error encountered)"
	fs := Evidence([]sampler.Snapshot{s})
	f := requireRule(t, fs, RuleECCErrors, -1)
	if f.Severity != Critical || f.FixID != hintECC.id || !strings.Contains(f.Evidence, "uncorrectable ECC") {
		t.Errorf("finding %s %s: %q", f.Severity, f.FixID, f.Evidence)
	}
	forbidRule(t, fs, RuleFabricManager, -1)
	forbidRule(t, fs, RuleGPUContention, -1)
}

// A container's NVML failure the importer read is one critical node
// finding with the first fix that recreates the container.
func TestEvidenceContainerLostGPUs(t *testing.T) {
	snap := evSnap(0)
	snap.Node.ContainerError = "Failed to initialize NVML: Unknown Error (kubectl exec pod -- nvidia-smi)"
	f := requireRule(t, Evidence([]sampler.Snapshot{snap}), RuleContainerGPULost, -1)
	if f.Severity != Critical || f.FixID != hintContainerLost.id || !strings.Contains(f.Evidence, "kubectl exec") {
		t.Errorf("finding %+v", f)
	}
	forbidRule(t, Evidence([]sampler.Snapshot{evSnap(0, busyGPU(0, 0, 60, 700))}), RuleContainerGPULost, -1)
}

// The fabric manager's own failure line is the fabric finding, with the
// fix for a manager that started and failed (its error, its version, its
// configuration), quoting the line.
func TestEvidenceFabricManagerFailed(t *testing.T) {
	s := evSnap(0)
	s.Node.FabricError = "nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver version 530.41.03."
	f := requireRule(t, Evidence([]sampler.Snapshot{s}), RuleFabricManager, -1)
	if f.Severity != Critical || f.FixID != hintFabricFailed.id || !strings.Contains(f.Evidence, "530.41.03") {
		t.Errorf("finding %s %s: %q", f.Severity, f.FixID, f.Evidence)
	}
}

// A fabric manager failing beside GeForce or workstation boards, which no
// NVSwitch system carries, stops nothing.
func TestEvidenceFabricManagerFailedWithoutNVSwitch(t *testing.T) {
	g := busyGPU(0, 0, 15, 120)
	g.Name = "NVIDIA GeForce RTX 4090"
	s := evSnap(0, g)
	s.Node.FabricError = "Job for nvidia-fabricmanager.service failed because the control process exited with error code."
	forbidRule(t, Evidence([]sampler.Snapshot{s}), RuleFabricManager, -1)
	s.GPUs[0].Name = "NVIDIA H100 80GB HBM3"
	requireRule(t, Evidence([]sampler.Snapshot{s}), RuleFabricManager, -1)
}
