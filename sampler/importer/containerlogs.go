package importer

import "strings"

// Two more ways a paste shows that NVML's Unknown Error came from a
// container that lost its GPU devices (NVIDIA's notice, container.go),
// besides a command or prompt right above the error:
//
//   - the container's own log (kubectl/oc logs, docker/podman/nerdctl/crictl
//     logs) above it: a pod that loops nvidia-smi prints its GPUs and then
//     the error once its devices are gone, as the notice's reproduction
//     shows, so the logs command may stand above nvidia-smi's own output;
//   - nvidia-smi opening /dev/nvidiactl, /dev/nvidia-uvm or /dev/nvidiaN
//     refused with EPERM (strace): the devices cgroup denying the node
//     (cgroup v1's devices controller and v2's device program answer
//     EPERM; a node's file mode gives EACCES, a missing node ENOENT).
var (
	containerLogsRE = lazy(`\b(?:(?:kubectl|k|oc)\s+logs|(?:docker|podman|nerdctl|crictl)\s+(?:container\s+)?logs)\b`)
	devEPERMRE      = lazy(`\bopen(?:at)?\(.*"/dev/nvidia(?:ctl|-uvm|\d+)".*=\s*-1\s+EPERM\b`)
)

// containerEvidence says why section i, nvidia-smi's error lines, ran in
// a container: the command right above it, a logs command above the
// nvidia-smi output before it, or a device node refused with EPERM
// anywhere in the input; "" when nothing does.
func containerEvidence(secs []section, i int) string {
	if c := containerCommand(secs[:i]); c != "" {
		return c
	}
	if c := containerLogsAbove(secs[:i]); c != "" {
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

// containerLogsAbove is the logs command on the last non-empty line of
// the nearest section above that is not nvidia-smi's own output (its -L,
// table or error lines, which the logs command printed); "" otherwise.
func containerLogsAbove(before []section) string {
	for j := len(before) - 1; j >= 0; j-- {
		switch before[j].kind {
		case kindList, kindTable, kindSMIError:
			continue
		}
		ls := before[j].lines
		for k := len(ls) - 1; k >= 0; k-- {
			if t := strings.TrimSpace(ls[k]); t != "" {
				if containerLogsRE.MatchString(t) {
					return t
				}
				return ""
			}
		}
	}
	return ""
}
