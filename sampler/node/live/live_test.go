package live

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// This machine has no NVIDIA driver: Open still returns a sampler (host
// only) and says what was tried.
func TestLiveWithoutDriverExplains(t *testing.T) {
	s, ok := Open()
	if ok {
		t.Skip("an NVIDIA driver is present")
	}
	if s.GPUError == nil || s.GPUError.Tried == "" || len(s.GPUError.Causes) == 0 {
		t.Fatalf("no explanation: %+v", s.GPUError)
	}
	snap := s.Tick(time.Now())
	if snap.Host == nil || len(snap.GPUs) != 0 || snap.Node.GPUError == nil {
		t.Fatalf("host-only snapshot expected: host %v, %d GPUs", snap.Host != nil, len(snap.GPUs))
	}
}

// TestWatchPodsNeedsTheSocket: off Kubernetes nothing is watched.
func TestWatchPodsNeedsTheSocket(t *testing.T) {
	s := &sampler.Sampler{}
	if WatchPods(s, filepath.Join(t.TempDir(), "kubelet.sock")) || s.PodOf != nil {
		t.Error("a missing socket was watched")
	}
}
