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

	"github.com/gpuscope/gpuscope/sampler"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	podresourcesapi "k8s.io/kubelet/pkg/apis/podresources/v1"
)

// DefaultSocket is where the kubelet serves the pod-resources API.
const DefaultSocket = "/var/lib/kubelet/pod-resources/kubelet.sock"

// Pod is the container a device is allocated to (the sampler's type, so a
// Cache's Lookup is a sampler.Sampler's PodOf).
type Pod = sampler.Pod

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
// scrape or a tick reads a map and never waits on the kubelet.
type Cache struct {
	mu   sync.RWMutex
	pods map[string]Pod
	err  error
	// Set by Watch: Lookup starts a refresh when the answer is older than
	// every (no goroutine lives between refreshes).
	socket     string
	every      time.Duration
	at         time.Time
	refreshing bool
}

// listTimeout bounds one question to the kubelet (it answers from memory in
// milliseconds; a hung kubelet must not hold a refresh for long).
const listTimeout = 5 * time.Second

// Watch returns a cache over socket that refreshes itself on Lookup, in
// the background, once its answer is older than every. The first answer
// is asked for at once, waiting at most firstWait, so the first tick of a
// one-shot run already names pods.
func Watch(socket string, every, firstWait time.Duration) *Cache {
	c := &Cache{socket: socket, every: every}
	ctx, cancel := context.WithTimeout(context.Background(), firstWait)
	defer cancel()
	c.refresh(ctx)
	return c
}

func (c *Cache) refresh(ctx context.Context) {
	pods, err := List(ctx, c.socket)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil {
		c.pods = pods
	}
	c.err, c.at, c.refreshing = err, time.Now(), false
}

// refreshIfStale starts one background refresh of a Watch cache whose
// answer is older than its period.
func (c *Cache) refreshIfStale() {
	if c.socket == "" {
		return // the zero Cache: nothing to ask
	}
	c.mu.Lock()
	stale := !c.refreshing && time.Since(c.at) >= c.every
	if stale {
		c.refreshing = true
	}
	c.mu.Unlock()
	if stale {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
			defer cancel()
			c.refresh(ctx)
		}()
	}
}

// Lookup returns the container a device id is allocated to.
func (c *Cache) Lookup(id string) (Pod, bool) {
	c.refreshIfStale()
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
