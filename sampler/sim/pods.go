package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// containerIDs are what a container runtime would name the container of
// process pid: a short 12-digit id (as /proc/PID/cgroup gives the host
// source) and, in a pod, the pod's UID. They derive from the host name and
// the PID, never from the scenario's random stream, so putting a process in
// a container leaves every other reading of the scenario as it was.
func (b *builder) containerIDs(pid int) (short, podUID string) {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d", b.n.hostname, pid))
	h := hex.EncodeToString(sum[:])
	return h[:12], h[12:20] + "-" + h[20:24] + "-" + h[24:28] + "-" + h[28:32] + "-" + h[32:44]
}

// inContainer puts hp and its descendants in one container (docker, podman:
// an id, no pod).
func (b *builder) inContainer(hp *hostProc) {
	id, _ := b.containerIDs(hp.p.PID)
	b.setContainer(hp, id, "")
}

// inPod puts hp and its descendants in a container of a Kubernetes pod and
// allocates gpu to it, as the kubelet's pod-resources API would say.
func (b *builder) inPod(gpu int, hp *hostProc, pod sampler.Pod) {
	id, uid := b.containerIDs(hp.p.PID)
	_, other := b.containerIDs(-hp.p.PID)
	h := strings.ReplaceAll(other, "-", "")
	pod.Name += "-" + h[:10] + "-" + h[10:15] // a Deployment's pod: <name>-<pod-template hash>-<5 chars>
	b.setContainer(hp, id, uid)
	if b.n.pods == nil {
		b.n.pods = map[int]sampler.Pod{}
	}
	b.n.pods[gpu] = pod
}

func (b *builder) setContainer(hp *hostProc, id, podUID string) {
	hp.p.Container, hp.p.PodUID = id, podUID
	for _, pid := range hp.p.Children {
		for _, c := range b.n.host.procs {
			if c.p.PID == pid {
				b.setContainer(c, id, podUID)
			}
		}
	}
}

// PodOf says which pod the kubelet allocated a GPU (by UUID) to, for the
// scenarios whose processes run in Kubernetes: the demo's stand-in for the
// pod-resources socket (sampler.Sampler.PodOf).
func (n *Node) PodOf(uuid string) (sampler.Pod, bool) {
	for i, u := range n.uuids {
		if u == uuid {
			p, ok := n.pods[i]
			return p, ok
		}
	}
	return sampler.Pod{}, false
}
