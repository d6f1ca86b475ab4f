package podresources

import (
	"context"
	"net"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	podresourcesapi "k8s.io/kubelet/pkg/apis/podresources/v1"
)

// fakeKubelet answers List like a kubelet with two GPU pods, a time-sliced
// replica and a non-GPU device.
type fakeKubelet struct {
	podresourcesapi.UnimplementedPodResourcesListerServer
}

func (fakeKubelet) List(context.Context, *podresourcesapi.ListPodResourcesRequest) (*podresourcesapi.ListPodResourcesResponse, error) {
	dev := func(res string, ids ...string) *podresourcesapi.ContainerDevices {
		return &podresourcesapi.ContainerDevices{ResourceName: res, DeviceIds: ids}
	}
	return &podresourcesapi.ListPodResourcesResponse{PodResources: []*podresourcesapi.PodResources{
		{Name: "train-0", Namespace: "ml", Containers: []*podresourcesapi.ContainerResources{
			{Name: "trainer", Devices: []*podresourcesapi.ContainerDevices{dev("nvidia.com/gpu", "GPU-aaa", "GPU-bbb"), dev("rdma/hca", "mlx5_0")}},
		}},
		{Name: "notebook", Namespace: "alice", Containers: []*podresourcesapi.ContainerResources{
			{Name: "jupyter", Devices: []*podresourcesapi.ContainerDevices{dev("nvidia.com/gpu", "GPU-ccc::2")}},
			{Name: "sidecar"},
		}},
		{Name: "mig-user", Namespace: "ml", Containers: []*podresourcesapi.ContainerResources{
			{Name: "server", Devices: []*podresourcesapi.ContainerDevices{dev("nvidia.com/mig-1g.18gb", "MIG-ddd")}},
		}},
	}}, nil
}

func serveFake(t *testing.T) string {
	t.Helper()
	socket := filepath.Join(t.TempDir(), "kubelet.sock")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	podresourcesapi.RegisterPodResourcesListerServer(s, fakeKubelet{})
	go func() { _ = s.Serve(l) }()
	t.Cleanup(s.Stop)
	return socket
}

func TestListAgainstAFakeKubelet(t *testing.T) {
	socket := serveFake(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := List(ctx, socket)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Pod{
		"GPU-aaa": {"ml", "train-0", "trainer"},
		"GPU-bbb": {"ml", "train-0", "trainer"},
		"GPU-ccc": {"alice", "notebook", "jupyter"},
		"MIG-ddd": {"ml", "mig-user", "server"},
	}
	if len(got) != len(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for id, p := range want {
		if got[id] != p {
			t.Errorf("%s: %+v, want %+v", id, got[id], p)
		}
	}
}

func TestCacheAndAMissingSocket(t *testing.T) {
	socket := serveFake(t)
	var c Cache
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx, socket, time.Hour); close(done) }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if p, ok := c.Lookup("GPU-ccc"); ok && p.Name == "notebook" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("cache never filled: %v", c.Err())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done

	ctx2, cancel2 := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel2()
	if _, err := List(ctx2, filepath.Join(t.TempDir(), "none.sock")); err == nil {
		t.Error("a missing socket gave no error")
	}
}
