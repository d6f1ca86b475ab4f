package sampler

// AttributePods sets GPU.Pod on each GPU a container holds and Proc.Pod on
// each GPU process of snap (joined by
// JoinProcs) from podOf, the kubelet's allocation of devices to containers,
// and on the descendants that share its container (DataLoader workers run
// in the same container as their trainer). A MIG instance's own allocation
// wins over its GPU's (the device plugin's mixed strategy allocates
// instances). A nil podOf does nothing.
func AttributePods(snap *Snapshot, podOf func(deviceUUID string) (Pod, bool)) {
	if podOf == nil {
		return
	}
	for gi := range snap.GPUs {
		g := &snap.GPUs[gi]
		gpuPod, gpuOK := podOf(g.UUID)
		g.Pod = gpuPod
		if snap.Host == nil {
			continue
		}
		if gpuOK {
			attributeProcs(snap.Host, g.Procs, gpuPod)
		}
		for mi := range g.MIGDevices {
			m := &g.MIGDevices[mi]
			if pod, ok := podOf(m.UUID); ok {
				attributeProcs(snap.Host, m.Procs, pod)
			} else if gpuOK {
				attributeProcs(snap.Host, m.Procs, gpuPod)
			}
		}
	}
}

func attributeProcs(h *Host, procs []GPUProc, pod Pod) {
	for i := range procs {
		hp := procs[i].Host
		if hp == nil {
			hp = h.Procs[procs[i].PID] // MIG processes are not joined
		}
		if hp != nil {
			attributeTree(h, hp, pod, len(h.Procs))
		}
	}
}

// attributeTree names p's pod and its descendants' in the same container;
// depth bounds the walk should a broken tree loop.
func attributeTree(h *Host, p *Proc, pod Pod, depth int) {
	p.Pod = pod
	if depth == 0 {
		return
	}
	for _, pid := range p.Children {
		if c := h.Procs[pid]; c != nil && c.Container == p.Container && c.Pod != pod {
			attributeTree(h, c, pod, depth-1)
		}
	}
}
