package importer

import "strings"

// kindCtrRuntime: a container runtime's own error for a container it
// started, or failed to start, without GPU access. The line names the
// cause exactly (the runtime's setup, not a GPU), and the text holds no
// reading of a GPU, so it is refused with that cause and its fix rather
// than as other text.
const kindCtrRuntime = "container runtime error"

// ctrRuntimeCauses maps a runtime's words (lower case) to what they prove.
// Corpus: b21-docker-could-not-select-device-driver-* (the toolkit not
// installed), b23-kind-pod-oci-exec-nvidia-smi-not-found-* (nothing
// injected; the volume-mounts setting), b23-pyxis-enroot-hook-* (the CLI
// missing on the node); the toolkit's set-up: [nvidia-container-toolkit]
// in docs/references.md.
var ctrRuntimeCauses = []struct{ words, why string }{
	{`could not select device driver "" with capabilities: [[gpu]]`,
		"Docker has no GPU runtime for --gpus: the NVIDIA Container Toolkit is not installed on that host or not set up " +
			"for Docker (install nvidia-container-toolkit, run nvidia-ctk runtime configure --runtime=docker, restart docker)"},
	{`unknown or invalid runtime name: nvidia`,
		"Docker has no runtime named nvidia: nvidia-ctk runtime configure --runtime=docker, then restart docker"},
	{`load library failed: libnvidia-ml.so`,
		"the toolkit cannot load the host's NVML library: the host has no working NVIDIA driver (nvidia-smi on the host " +
			"fails too), or this Docker cannot see the host's libraries (a snap or rootless install)"},
	{`exec: "nvidia-smi": executable file not found`,
		"the container was started without the driver's tools: the NVIDIA runtime injected nothing (no --gpus, no nvidia " +
			"runtime class, NVIDIA_VISIBLE_DEVICES unset, or NVIDIA_DRIVER_CAPABILITIES without utility; where the device " +
			"plugin passes GPUs as volume mounts, as in kind, accept-nvidia-visible-devices-as-volume-mounts = true in " +
			"/etc/nvidia-container-runtime/config.toml)"},
	{`command not found: nvidia-container-cli`,
		"the node lacks nvidia-container-cli (libnvidia-container), which the container's NVIDIA hook calls: install the " +
			"NVIDIA Container Toolkit on the node"},
}

// ctrRuntimeWhy is what line proves, or "" where it is no such line.
func ctrRuntimeWhy(line string) string {
	if !strings.Contains(line, "nvidia") && !strings.Contains(line, "[[gpu]]") { // every line below has one, as written
		return ""
	}
	l := strings.ToLower(line)
	for _, c := range ctrRuntimeCauses {
		if strings.Contains(l, c.words) {
			return c.why
		}
	}
	return ""
}

func isCtrRuntimeLine(line string) bool { return ctrRuntimeWhy(line) != "" }

// parseCtrRuntime refuses the section with the first line's cause.
func parseCtrRuntime(sec *section) *part {
	l := strings.TrimSpace(sec.lines[0])
	return newPart(sec).skip(ctrRuntimeWhy(l) + "; nothing about the GPUs was judged (" + clip(l, 160) + ")")
}
