package podresources

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
)

// The kubelet's pod-resources API is one unary gRPC call, List, on a unix
// socket. It is spoken here directly (HTTP/2 without TLS, gRPC's 5-byte
// message framing, the response decoded field by field with protowire)
// instead of through grpc-go and k8s.io/kubelet's generated types, which
// cost ~9 MB of the release binary for this one call
// (docs/benchmarks.md, "Binary size"). The tests run it against grpc-go's
// real server with the kubelet's own service definition.
const listPath = "/v1.PodResourcesLister/List"

// maxListResponse bounds what is read from the socket (a kubelet's answer
// is kilobytes; grpc-go's default client limit is 4 MiB).
const maxListResponse = 16 << 20

// callList performs List and returns the response message's bytes.
func callList(ctx context.Context, socket string) ([]byte, error) {
	var protos http.Protocols
	protos.SetUnencryptedHTTP2(true)
	tr := &http.Transport{
		Protocols: &protos,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		},
	}
	defer tr.CloseIdleConnections()
	// An empty ListPodResourcesRequest: flag 0 (not compressed), length 0.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://localhost"+listPath, bytes.NewReader(make([]byte, 5)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("TE", "trailers")
	resp, err := tr.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxListResponse+5))
	if err != nil {
		return nil, err
	}
	// grpc-status is in the trailers, or in the headers of a response that
	// has no message ("trailers-only").
	if err := grpcStatus(resp.Trailer, resp.Header); err != nil {
		return nil, err
	}
	if len(body) < 5 {
		return nil, errors.New("gRPC response without a message")
	}
	if body[0] != 0 {
		return nil, errors.New("gRPC response compressed (none was asked for)")
	}
	n := binary.BigEndian.Uint32(body[1:5])
	if n > maxListResponse || int(n) != len(body)-5 {
		return nil, fmt.Errorf("gRPC message of %d bytes in a body of %d", n, len(body)-5)
	}
	return body[5:], nil
}

func grpcStatus(hs ...http.Header) error {
	for _, h := range hs {
		code := h.Get("Grpc-Status")
		if code == "" {
			continue
		}
		if code == "0" {
			return nil
		}
		msg, _ := url.PathUnescape(h.Get("Grpc-Message"))
		return fmt.Errorf("gRPC status %s: %s", code, msg)
	}
	return errors.New("gRPC response without a status")
}

// Field numbers of k8s.io/kubelet/pkg/apis/podresources/v1/api.proto.
const (
	respPodResources    = 1 // ListPodResourcesResponse.pod_resources
	podName             = 1 // PodResources.name
	podNamespace        = 2 // PodResources.namespace
	podContainers       = 3 // PodResources.containers
	containerName       = 1 // ContainerResources.name
	containerDevices    = 2 // ContainerResources.devices
	devicesResourceName = 1 // ContainerDevices.resource_name
	devicesIDs          = 2 // ContainerDevices.device_ids
)

// eachField calls f with every length-delimited field of msg (the only
// kind the fields above are); other kinds are skipped, as proto readers do
// with fields they do not know.
func eachField(msg []byte, f func(num protowire.Number, val []byte) error) error {
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		if typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, msg); n < 0 {
				return protowire.ParseError(n)
			}
			msg = msg[n:]
			continue
		}
		val, n := protowire.ConsumeBytes(msg)
		if n < 0 {
			return protowire.ParseError(n)
		}
		msg = msg[n:]
		if err := f(num, val); err != nil {
			return err
		}
	}
	return nil
}

// decodeList turns a ListPodResourcesResponse into GPU id → container.
func decodeList(msg []byte) (map[string]Pod, error) {
	out := map[string]Pod{}
	err := eachField(msg, func(num protowire.Number, pod []byte) error {
		if num != respPodResources {
			return nil
		}
		var p Pod
		var containers [][]byte
		if err := eachField(pod, func(num protowire.Number, v []byte) error {
			switch num {
			case podName:
				p.Name = string(v)
			case podNamespace:
				p.Namespace = string(v)
			case podContainers:
				containers = append(containers, v)
			}
			return nil
		}); err != nil {
			return err
		}
		for _, c := range containers {
			if err := decodeContainer(c, p, out); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

func decodeContainer(msg []byte, p Pod, out map[string]Pod) error {
	var devices [][]byte
	if err := eachField(msg, func(num protowire.Number, v []byte) error {
		switch num {
		case containerName:
			p.Container = string(v)
		case containerDevices:
			devices = append(devices, v)
		}
		return nil
	}); err != nil {
		return err
	}
	for _, d := range devices {
		var resource string
		var ids []string
		if err := eachField(d, func(num protowire.Number, v []byte) error {
			switch num {
			case devicesResourceName:
				resource = string(v)
			case devicesIDs:
				ids = append(ids, string(v))
			}
			return nil
		}); err != nil {
			return err
		}
		if !strings.HasPrefix(resource, "nvidia.com/") {
			continue // not a GPU (an RDMA NIC, a hugepage …)
		}
		for _, id := range ids {
			id, _, _ = strings.Cut(id, "::")
			out[id] = p
		}
	}
	return nil
}
