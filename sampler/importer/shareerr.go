package importer

// kindShareErr: an error from the layer that partitions or shares a GPU
// (the vGPU manager's daemon, MPS's control daemon, nvidia-smi's MIG
// commands), not a reading of a GPU. Each line names what the layer
// could not do, so it is refused with that cause and the check that
// settles it rather than as other text ([vgpu-user-guide], [mps-guide],
// [mig-guide] in docs/references.md).
const kindShareErr = "GPU sharing layer error"

// shareErr maps the layer's words (as it prints them) to what they
// prove, the most telling first. Corpus: b29-vgpud-gpu-not-supported-*
// (nvidia-vgpud on a GeForce card), b29-mps-daemon-crashloop-* (the MPS
// control daemon started without its pipe directory),
// b29-mig-lci-insufficient-permissions-*.
var shareErr = causeLines{causes: []cause{
	{"GPU not supported by vGPU",
		"the vGPU manager (nvidia-vgpud) does not support this GPU, so it offers it no vGPU types and the host can " +
			"create no vGPU on it: use a GPU the vGPU release supports (its release notes list them) or pass the whole " +
			"GPU through; the GPU itself is not at fault"},
	{"CUDA_MPS_PIPE_DIRECTORY must be set",
		"the MPS control daemon (nvidia-cuda-mps-control) cannot start or be reached: CUDA_MPS_PIPE_DIRECTORY is not " +
			"set where it runs, so MPS clients wait or fail; set it (and CUDA_MPS_LOG_DIRECTORY) to the same directory " +
			"for the daemon and its clients"},
	{"Failed to display compute instances: Insufficient Permissions",
		"nvidia-smi could not list the MIG compute instances: the caller lacks the privilege (not root, or a " +
			"container without the MIG capability devices), so it says nothing about the instances; run it as root " +
			"on the host, and nvidia-smi -q's MIG Mode (Current and Pending) for each GPU"},
	{"Failed to display GPU instances: Insufficient Permissions",
		"nvidia-smi could not list the MIG GPU instances: the caller lacks the privilege (not root, or a container " +
			"without the MIG capability devices), so it says nothing about the instances; run it as root on the host"},
}}
