// Package podresources asks the kubelet which pod each GPU is allocated to,
// through its pod-resources gRPC API on a unix socket
// (k8s.io/kubelet/pkg/apis/podresources/v1, the API dcgm-exporter uses for
// the same purpose; spoken directly, wire.go). Off Kubernetes the socket does not exist and nothing
// is attributed.
package podresources

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
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
	msg, err := callList(ctx, socket)
	if err != nil {
		return nil, fmt.Errorf("kubelet pod-resources %s: %w", socket, err)
	}
	pods, err := decodeList(msg)
	if err != nil {
		return nil, fmt.Errorf("kubelet pod-resources %s: the answer does not decode: %w", socket, err)
	}
	return pods, nil
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
