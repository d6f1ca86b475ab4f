package importer

import "strings"

// nvidia-smi opening /dev/nvidiactl, /dev/nvidia-uvm or /dev/nvidiaN
// refused with EPERM (strace) beside NVML's Unknown Error is the devices
// cgroup denying the node, the container's loss NVIDIA's notice describes
// (container.go): cgroup v1's devices controller and v2's device program
// answer EPERM, where a node's file mode gives EACCES and a missing node
// ENOENT.
var devEPERMRE = lazy(`\bopen(?:at)?\(.*"/dev/nvidia(?:ctl|-uvm|\d+)".*=\s*-1\s+EPERM\b`)

// containerEvidence says why section i, nvidia-smi's error lines, ran in
// a container: the command above it (containerCommand) or a device node
// refused with EPERM anywhere in the input; "" when nothing does.
func containerEvidence(secs []section, i int) string {
	if c := containerCommand(secs[:i]); c != "" {
		return c
	}
	for _, s := range secs {
		for _, l := range s.lines {
			if strings.Contains(l, "EPERM") && devEPERMRE.MatchString(l) {
				return strings.TrimSpace(l)
			}
		}
	}
	return ""
}
