package live

import (
	"os"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/podresources"
)

// podRefresh is how often the kubelet is asked again: pods come and go in
// seconds to minutes, and each answer is one List over the local socket.
const podRefresh = 10 * time.Second

// podFirstWait bounds the wait for the kubelet's first answer at start.
const podFirstWait = time.Second

// WatchPods names the pod of each GPU process from the kubelet's
// pod-resources socket, where it exists (a node of a Kubernetes cluster, or
// a DaemonSet that mounts it): s.PodOf is then a cache refreshed in the
// background. It reports whether the socket was there.
func WatchPods(s *sampler.Sampler, socket string) bool {
	if _, err := os.Stat(socket); err != nil {
		return false
	}
	s.PodOf = podresources.Watch(socket, podRefresh, podFirstWait).Lookup
	return true
}
