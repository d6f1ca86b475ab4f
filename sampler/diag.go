package sampler

// DiagCheck is one result of one test of a DCGM diagnostic run (`dcgmi
// diag -r N`): a test passes on some GPUs and fails on others, so each
// (test, result) pair is its own check. Diag results are what the run
// concluded, not readings: a skipped test judged nothing.
type DiagCheck struct {
	// Category is the table's block: "Deployment", "Integration",
	// "Hardware", "Stress" ("" when the paste starts below its header).
	Category string `json:"category,omitempty"`
	// Test as DCGM names it: "GPU Memory", "PCIe", "Page Retirement/Row
	// Remap" (2.x/3.x), "memory", "pcie", "software" (4.x).
	Test string `json:"test"`
	// Result is "pass", "fail", "warn", "skip" or "not run".
	Result string `json:"result"`
	// GPUs the result names; nil means all GPUs of the run, or a check of
	// the node (the Deployment checks).
	GPUs []int `json:"gpus,omitempty"`
	// Messages are the Warning/Error/Info rows printed under the test,
	// joined across the table's 45-character wrap.
	Messages []DiagMessage `json:"messages,omitempty"`
}

// DiagMessage is one Warning, Error or Info row of a diagnostic test.
type DiagMessage struct {
	Kind string `json:"kind"` // "warning", "error", "info"
	GPU  int    `json:"gpu"`  // the GPU it names, -1 for none
	Text string `json:"text"` // DCGM's words, rejoined
}

// SliceOOM is one allocation refused over a GPU memory limit: a
// container's slice (a Kubernetes pod's under HAMi-core), where the limit is
// the pod's, not the card's memory; or, Layer "pytorch", the card itself,
// as PyTorch's out-of-memory message reports a failed allocation.
type SliceOOM struct {
	Device int     `json:"device"` // the container's CUDA device number, not the node's index
	Want   float64 `json:"want"`   // bytes the allocation would have brought it to
	Limit  float64 `json:"limit"`  // the container's limit on that device, bytes (Layer "pytorch": the card's total); 0 where the log does not say
	// Layer is what refused it: "" HAMi-core, "vcuda" vcuda-controller's
	// hijack_call.c (whose line gives the usage only), "pytorch" the CUDA
	// allocator with the card's free memory short of the request (Limit is
	// the card's total), "hami_driver" the driver under HAMi-core, out of
	// memory on the card within the pod's slice (no bytes, no limit),
	// "cuda" the CUDA runtime's out-of-memory error a program printed (no
	// device: Device is -1; Want is the allocation's own size where the
	// line gives it, as ggml's does, else 0).
	Layer string `json:"layer,omitempty"`
	// Own is what the refusing program's allocator held itself when it
	// refused (Layer "pytorch": the memory PyTorch reserved, or allocated
	// where its message says only that), bytes; 0 where not said. The
	// card's use beyond it is its CUDA context and the other programs.
	Own float64 `json:"own,omitempty"`
}
