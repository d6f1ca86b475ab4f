// Package podresources asks the kubelet which pod each GPU is allocated to,
// through its pod-resources gRPC API on a unix socket
// (k8s.io/kubelet/pkg/apis/podresources/v1, the API dcgm-exporter uses for
// the same purpose). Off Kubernetes the socket does not exist and nothing
// is attributed.
package podresources

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	podresourcesapi "k8s.io/kubelet/pkg/apis/podresources/v1"
)

// DefaultSocket is where the kubelet serves the pod-resources API.
const DefaultSocket = "/var/lib/kubelet/pod-resources/kubelet.sock"

// Pod is the container a device is allocated to.
type Pod struct {
	Namespace, Name, Container string
}

// List returns, by device id (a GPU's UUID, or a MIG device's), the
// container it is allocated to. Time-sliced replicas are named
// "GPU-…::N" by the NVIDIA device plugin; the suffix is dropped so the id
// is the GPU's UUID (as dcgm-exporter does).
func List(ctx context.Context, socket string) (map[string]Pod, error) {
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("kubelet pod-resources %s: %w", socket, err)
	}
	defer conn.Close()
	resp, err := podresourcesapi.NewPodResourcesListerClient(conn).List(ctx, &podresourcesapi.ListPodResourcesRequest{})
	if err != nil {
		return nil, fmt.Errorf("kubelet pod-resources %s: %w", socket, err)
	}
	out := map[string]Pod{}
	for _, p := range resp.GetPodResources() {
		for _, c := range p.GetContainers() {
			for _, d := range c.GetDevices() {
				if !strings.HasPrefix(d.GetResourceName(), "nvidia.com/") {
					continue // not a GPU (an RDMA NIC, a hugepage …)
				}
				for _, id := range d.GetDeviceIds() {
					id, _, _ = strings.Cut(id, "::")
					out[id] = Pod{Namespace: p.GetNamespace(), Name: p.GetName(), Container: c.GetName()}
				}
			}
		}
	}
	return out, nil
}

// Cache keeps the last answer and refreshes it in the background, so a
// scrape reads a map and never waits on the kubelet.
type Cache struct {
	mu   sync.RWMutex
	pods map[string]Pod
	err  error
}

// Run refreshes every period until ctx ends; the first refresh is at once.
func (c *Cache) Run(ctx context.Context, socket string, every time.Duration) {
	for {
		q, cancel := context.WithTimeout(ctx, 5*time.Second)
		pods, err := List(q, socket)
		cancel()
		c.mu.Lock()
		if err == nil {
			c.pods = pods
		}
		c.err = err
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

// Lookup returns the container a device id is allocated to.
func (c *Cache) Lookup(id string) (Pod, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p, ok := c.pods[id]
	return p, ok
}

// Err is the last refresh's error, nil when it worked.
func (c *Cache) Err() error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.err
}
