package importer

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// nvidia-smi run inside a container that prints "Failed to initialize NVML:
// Unknown Error" while the host's GPUs work: the container lost its GPU
// devices. NVIDIA's notice ([nvidia-container-gpu-loss]) names the cause:
// with systemd managing the container's cgroups, a reload of unit files
// (systemctl daemon-reload, or anything that changes the pod's cgroup, such
// as a resize) rewrites its device rules without the NVIDIA devices; the
// container must be recreated. Outside a container the same words have
// other causes, so only a command that runs nvidia-smi in one (kubectl or
// oc exec, docker/podman/nerdctl exec or run, crictl exec) just above the
// error says this, or a shell prompt inside one: Docker and Podman name a
// container's host after the first 12 hex digits of its ID
// (root@239f910629d5:/workspace#), a name no host is given by hand. So
// does the container's own log (kubectl/oc logs, docker, podman, nerdctl
// or crictl logs): a pod that loops nvidia-smi lists its GPUs, then fails
// once its devices are gone, as the notice's reproduction shows.
var (
	// group 1: the 12-hex host of a prompt; a digit among them keeps a
	// word spelt in hex (a host "deadbeefcafe") out
	containerCmdRE = lazy(`\b(?:(?:kubectl|k|oc)\s+exec|(?:docker|podman|nerdctl)\s+(?:exec|run|container\s+exec)|crictl\s+exec)\b.*\bnvidia-smi\b|^[\w.-]+@([0-9a-f]{12}):[^#$]*[#$]\s*nvidia-smi\b|\b(?:(?:kubectl|k|oc)|(?:docker|podman|nerdctl|crictl)(?:\s+container)?)\s+logs\b`)
	nvmlUnknownRE  = lazy(`(?i)failed to initialize nvml:\s*unknown error`)
	// a reporter who does not paste the command says it in words on the
	// line above: "容器内执行nvidia-smi 输出" ("nvidia-smi run inside the
	// container prints"), "running nvidia-smi inside the pod gives"; the
	// same fact as the command (corpus: b32-nvml-unknown-error-in-container-*,
	// written in Chinese)
	containerProseRE = lazy(`(?i)(?:容器|\bpod)\s*(?:内|里|中)[^\n]*nvidia-smi|nvidia-smi[^\n]*(?:容器|\bpod)\s*(?:内|里|中)|\b(?:in|inside|within)\s+(?:the\s+|a\s+|my\s+|this\s+)?(?:docker\s+)?(?:container|pod)\b[^\n]*\bnvidia-smi\b|\bnvidia-smi\b[^\n]*\b(?:in|inside|within)\s+(?:the\s+|a\s+|my\s+|this\s+)?(?:docker\s+)?(?:container|pod)\b`)
)

// nvmlUnknownAlone refuses NVML's Unknown Error with nothing to show where
// it ran: a container that lost its devices prints it (the container
// toolkit's troubleshooting page: recreate the container), and so does a
// host whose device nodes nvidia-smi may not open, so it names both
// rather than claim either (corpus: b15-nvml-unknown-error-container-*).
const nvmlUnknownAlone = `nvidia-smi failed with NVML's "Unknown Error" and nothing shows where it ran: a container ` +
	`that lost its GPU devices (a systemctl daemon-reload or a container update: recreate it), or a host ` +
	`(gpuscope doctor there says why)`

// noDevices refuses nvidia-smi's "No devices were found" (-L's "No
// devices found."): it reached the driver, which lists no GPU, a fact of
// where it ran rather than of a GPU (corpus: b13-smi-no-devices-found-*, a
// node without GPUs; b15-smi-L-no-devices-found-*, a Slurm login session).
const noDevices = `nvidia-smi reached the driver and found no GPU: a node, job or container ` +
	`given none, or a GPU the driver failed to initialise (dmesg there says which); nothing to judge`

// containerCommand is the command line that ran nvidia-smi in a container,
// or the reporter's words saying so, when the text right above a section is one: the last line of the
// nearest section above that is not nvidia-smi's own output (its -L,
// table or error lines, which that command printed); "" otherwise.
func containerCommand(before []section) string {
	for j := len(before) - 1; j >= 0; j-- {
		if k := before[j].kind; k == kindList || k == kindTable || k == kindSMIError {
			continue
		}
		ls := before[j].lines
		for i := len(ls) - 1; i >= 0; i-- {
			if t := strings.TrimSpace(ls[i]); t != "" {
				if m := containerCmdRE.FindStringSubmatch(t); m != nil && (m[1] == "" || strings.ContainsAny(m[1], "0123456789")) {
					return t
				}
				if containerProseRE.MatchString(t) {
					return t
				}
				return ""
			}
		}
		return ""
	}
	return ""
}

// containerLost reads NVML's Unknown Error under a container command as
// the node's fact (no GPU is named); nil when the section is not that.
func containerLost(sec *section, cmd string) *part {
	if cmd == "" {
		return nil
	}
	for i, l := range sec.lines {
		if !nvmlUnknownRE.MatchString(l) {
			continue
		}
		p := newPart(sec)
		p.where(-1, "container_error", sec.first+i)
		p.snaps = []sampler.Snapshot{{Node: sampler.Node{ContainerError: strings.TrimSpace(l) + " (" + cmd + ")"}}}
		p.note(fmt.Sprintf("nvidia-smi inside a container cannot initialise NVML (line %d, under %q)", sec.first+i, cmd))
		return p
	}
	return nil
}
