package live

import (
	"os"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/host"
	"github.com/gpuscope/gpuscope/sampler/nvmlsource"
	"github.com/gpuscope/gpuscope/sampler/podresources"
	"github.com/gpuscope/gpuscope/sampler/slurm"
)

// liveInitTimeout bounds nvmlInit: without persistence mode a large node
// takes seconds to start, a wedged driver never returns
// (docs/driver-compatibility.md, the Init rows).
const liveInitTimeout = 30 * time.Second

// Open opens this machine: NVML through libnvidia-ml.so.1 and the host's
// /proc. When NVML does not load (no driver, a container without GPUs, WSL
// without /dev/dxg) the sampler still runs with the host only, and
// Sampler.GPUError says what was tried and what to do; ok is then false.
// On a Kubernetes node (the kubelet's pod-resources socket at its default
// path) each GPU process is named with its pod (WatchPods); on a Slurm
// node each GPU with its job and user (sampler/slurm: the processes'
// environment or cgroup, and scontrol where it is installed).
func Open() (s *sampler.Sampler, ok bool) {
	hostname, _ := os.Hostname()
	s = &sampler.Sampler{Host: host.New(host.Options{}), Hostname: hostname, Source: "nvml"}
	s.Jobs = slurm.New(slurm.Options{Proc: "/proc", Hostname: hostname, Scontrol: slurm.ScontrolCommand()})
	WatchPods(s, podresources.DefaultSocket)
	src, err := nvmlsource.New(nvmlsource.Guarded(nvml.New()), nvmlsource.Options{InitTimeout: liveInitTimeout})
	if err != nil {
		s.GPUError = nvmlsource.Explain(err)
		return s, false
	}
	s.GPU = src
	return s, true
}
