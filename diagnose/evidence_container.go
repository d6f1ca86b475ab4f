package diagnose

// A container that lost its GPU devices: nvidia-smi inside it fails with
// NVML's "Unknown Error" while the host's GPUs are fine. NVIDIA's notice
// ([nvidia-container-gpu-loss]) gives the cause: with systemd managing the
// container's cgroups, reloading unit files (systemctl daemon-reload, a
// pod resize that rewrites the cgroup) drops the NVIDIA devices from its
// device rules; the container must be recreated, and the node fixed so it
// does not recur. The importer reads it only under a command that ran
// nvidia-smi in a container (sampler/importer/container.go).

var hintContainerLost = fix{"container_lost", "Recreate the pod or container (kubectl delete pod, docker rm -f; a restart of its process is not " +
	"enough): it gets its devices back. So it does not recur on this node: create the /dev/char symlinks the runtime " +
	"needs (nvidia-ctk system create-dev-char-symlinks --create-all, or the GPU Operator's validator), or run the " +
	"container runtime with the cgroupfs driver; avoid systemctl daemon-reload and in-place pod resizes on GPU pods " +
	"until then ([nvidia-container-gpu-loss]; [gpu-idle-handbook] §5.2)"}

// containerLost reports the node's container that cannot reach its GPUs.
func (e *evCtx) containerLost() {
	c := e.last.Node.ContainerError
	if c == "" {
		return
	}
	e.add(RuleContainerGPULost, Critical, -1,
		say("evidence.container_lost_title", "nvidia-smi inside the container cannot open the GPUs: the container lost its GPU devices"),
		Text{say("evidence.container_lost", "NVML failed inside a container: {{.Error}}", "Error", c)}, hintContainerLost,
		Text{say("evidence.container_lost_est", "the error names no GPU: nvidia-smi on the host tells a container that lost its devices (the host's "+
			"GPUs fine) from a driver fault (the host fails too); NVIDIA's notice ties it to systemd rewriting the container's device cgroup "+
			"(systemctl daemon-reload), and an in-place pod resize, which rewrites the pod's cgroup, is seen to do the same")},
		Use{-1, "container_error"})
}
