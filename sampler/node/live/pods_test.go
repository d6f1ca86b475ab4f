package live

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	podresourcesapi "k8s.io/kubelet/pkg/apis/podresources/v1"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/node"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// kubelet answers List with one pod holding one GPU.
type kubelet struct {
	podresourcesapi.UnimplementedPodResourcesListerServer
	uuid string
}

func (k kubelet) List(context.Context, *podresourcesapi.ListPodResourcesRequest) (*podresourcesapi.ListPodResourcesResponse, error) {
	return &podresourcesapi.ListPodResourcesResponse{PodResources: []*podresourcesapi.PodResources{
		{Name: "train-0", Namespace: "ml", Containers: []*podresourcesapi.ContainerResources{
			{Name: "trainer", Devices: []*podresourcesapi.ContainerDevices{{ResourceName: "nvidia.com/gpu", DeviceIds: []string{k.uuid}}}},
		}},
	}}, nil
}

// TestWatchPodsNamesProcesses: with a kubelet on the socket, the next tick
// names the pod of the processes on the GPU it allocated (and of their
// workers), and of no other GPU's.
func TestWatchPodsNamesProcesses(t *testing.T) {
	d, err := node.NewDemo("healthy", 2, t0)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Sampler("healthy")
	first := s.Tick(t0)
	socket := filepath.Join(t.TempDir(), "kubelet.sock")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	podresourcesapi.RegisterPodResourcesListerServer(srv, kubelet{uuid: first.GPUs[3].UUID})
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(srv.Stop)

	if !WatchPods(s, socket) {
		t.Fatal("the socket was not watched")
	}
	snap := s.Tick(t0.Add(1e9))
	want := sampler.Pod{Namespace: "ml", Name: "train-0", Container: "trainer"}
	for _, g := range snap.GPUs {
		if (g.Pod == want) != (g.Index == 3) {
			t.Errorf("GPU %d: pod %+v", g.Index, g.Pod)
		}
		for _, p := range g.Procs {
			if got := p.Host.Pod; (got == want) != (g.Index == 3) {
				t.Errorf("GPU %d pid %d: pod %+v", g.Index, p.PID, got)
			}
			for _, c := range p.Host.Children {
				if got := snap.Host.Procs[c].Pod; (got == want) != (g.Index == 3) {
					t.Errorf("GPU %d worker %d: pod %+v", g.Index, c, got)
				}
			}
		}
	}
}
