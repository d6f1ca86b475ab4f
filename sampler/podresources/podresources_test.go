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
	serveFakeAt(t, socket)
	return socket
}

func serveFakeAt(t *testing.T, socket string) {
	t.Helper()
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	podresourcesapi.RegisterPodResourcesListerServer(s, fakeKubelet{})
	go func() { _ = s.Serve(l) }()
	t.Cleanup(s.Stop)
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
		"GPU-aaa": {Namespace: "ml", Name: "train-0", Container: "trainer"},
		"GPU-bbb": {Namespace: "ml", Name: "train-0", Container: "trainer"},
		"GPU-ccc": {Namespace: "alice", Name: "notebook", Container: "jupyter"},
		"MIG-ddd": {Namespace: "ml", Name: "mig-user", Container: "server"},
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

// TestWatch: the first answer is there at once; a kubelet that was not up
// yet is asked again in the background once the answer is stale, and a
// missing socket is an error, not a hang.
func TestWatch(t *testing.T) {
	c := Watch(serveFake(t), time.Hour, 5*time.Second)
	if p, ok := c.Lookup("GPU-ccc"); !ok || p.Name != "notebook" || c.Err() != nil {
		t.Fatalf("first answer: %+v %v, err %v", p, ok, c.Err())
	}

	socket := filepath.Join(t.TempDir(), "kubelet.sock")
	late := Watch(socket, 10*time.Millisecond, time.Second)
	if _, ok := late.Lookup("GPU-aaa"); ok || late.Err() == nil {
		t.Fatalf("a missing socket: ok %v, err %v", ok, late.Err())
	}
	serveFakeAt(t, socket)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if p, ok := late.Lookup("GPU-aaa"); ok && p.Name == "train-0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never refreshed: %v", late.Err())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if late.Err() != nil {
		t.Errorf("err %v after a good answer", late.Err())
	}
}
