package importer

// kindSlurmGRES: Slurm's own error about a node's GPUs as generic
// resources (GRES), from slurmd or slurmctld. The line names what Slurm's
// configuration and the node disagree on, not a reading of a GPU, so it is
// refused with that cause and the check that settles it rather than as
// other text ([slurm-gres] in docs/references.md).
const kindSlurmGRES = "Slurm GRES error"

// slurmGRES maps Slurm's words (lower case) to what they prove.
// Corpus: b26-slurmctld-gres-count-changed-* (a MIG layout shrunk under
// slurm.conf's count), b26-slurmctld-invalid-gres-core-specification-*,
// b26-slurmd-fatal-gres-conf-duplicate-records-*, b26-slurmd-cant-stat-*
// (a device node made by a boot script that ran after slurmd).
var slurmGRES = causeLines{sieve: []string{"gres", "GRES"}, fold: true, causes: []cause{
	{"gres/gpu count reported lower than configured",
		"Slurm drained the node: it reports fewer GPUs than slurm.conf's Gres= declares (a GPU lost or hidden, a " +
			"changed MIG layout, or a wrong count); nvidia-smi -L on the node says which, then fix the GPU or the " +
			"count and scontrol update nodename=<node> state=resume"},
	{"gres/gpu: count changed on node",
		"Slurm sees a different number of GPUs on the node than it was configured with (a GPU lost or hidden, or a " +
			"changed MIG layout); nvidia-smi -L on the node says which"},
	{"invalid gres core specification",
		"Slurm rejects the CPU binding gres.conf gives the GPUs (a CPUs= range where this release wants Cores=, or " +
			"cores the node lacks): Slurm's configuration, not the GPUs; write Cores= or use AutoDetect=nvml"},
	{"gres.conf duplicate records for gpu",
		"gres.conf declares the GPUs twice (AutoDetect=nvml beside Name=gpu lines, or a repeated line): Slurm's " +
			"configuration, not the GPUs; keep AutoDetect=nvml alone or one line per GPU"},
	{"stat gres.conf file /dev/",
		"slurmd found no device node for a GPU gres.conf names: the NVIDIA driver is not loaded, nothing has made " +
			"/dev/nvidia* yet at boot (nvidia-persistenced or nvidia-modprobe before slurmd), or the node has no such " +
			"GPU; ls /dev/nvidia*, lsmod | grep nvidia and nvidia-smi on the node tell them apart"},
	{"waiting for gres.conf file /dev/",
		"slurmd is waiting for a GPU's device node gres.conf names: the NVIDIA driver is not loaded or /dev/nvidia* " +
			"is not made yet at boot; ls /dev/nvidia* and lsmod | grep nvidia on the node tell which"},
}}
