// Package procsock lets a process inside a container see its own GPU
// processes: `gpuscope serve --proc-socket` answers, on a unix socket the
// container has mounted, only for the asking peer's cgroup, with PIDs as
// the peer's PID namespace numbers them (server.go, answer.go); the
// container's gpuscope asks it each tick NVML's host PIDs cannot be joined
// there (client.go, a sampler.ProcSource). What is exposed to whom:
// docs/security.md, "The process socket".
package procsock

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gpuscope/gpuscope/sampler"
)

// DefaultPath is where the server is documented to listen and where the
// client looks: a directory to bind-mount into containers.
const DefaultPath = sampler.ProcSocketPath

// Version is the wire format's; a request of another is refused in its
// answer's Error.
const Version = 1

// MaxRequest bounds a request line; MaxResponse bounds what the client
// reads back (a node's processes are a few hundred at most).
const (
	MaxRequest  = 256
	MaxResponse = 1 << 20
)

// Request is the one line a client sends: {"version":1}.
type Request struct {
	Version int `json:"version"`
}

// Response is the server's one line. Procs are the peer's cgroup's GPU
// processes only; Hidden counts those of its cgroup whose PID its PID
// namespace does not have (they are left out); Error says why there is no
// answer.
type Response struct {
	Version int    `json:"version"`
	Procs   []Proc `json:"procs,omitempty"`
	Hidden  int    `json:"hidden,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Proc is one GPU process as the peer sees it: no command line, user or
// other host data, which the peer reads from its own /proc.
type Proc struct {
	Device  string         `json:"device"` // the GPU's or MIG instance's UUID
	PID     int            `json:"pid"`    // in the peer's PID namespace
	Type    string         `json:"type,omitempty"`
	MemUsed sampler.Metric `json:"mem_used,omitzero"`
	SMUtil  sampler.Metric `json:"sm_util,omitzero"`
	MemUtil sampler.Metric `json:"mem_util,omitzero"`
}

// ReadRequest reads one request line of at most MaxRequest bytes.
func ReadRequest(r io.Reader) (Request, error) {
	line, err := bufio.NewReaderSize(io.LimitReader(r, MaxRequest+1), MaxRequest+1).ReadSlice('\n')
	if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
		if errors.Is(err, bufio.ErrBufferFull) || len(line) > MaxRequest {
			return Request{}, fmt.Errorf("request longer than %d bytes", MaxRequest)
		}
		return Request{}, fmt.Errorf("reading the request: %w", err)
	}
	return ParseRequest(line)
}

// ParseRequest decodes one request: a JSON object of this Version, unknown
// fields refused.
func ParseRequest(line []byte) (Request, error) {
	if len(bytes.TrimSuffix(line, []byte("\n"))) > MaxRequest {
		return Request{}, fmt.Errorf("request longer than %d bytes", MaxRequest)
	}
	var q Request
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return Request{}, fmt.Errorf("request is not {\"version\":%d}: %w", Version, err)
	}
	if dec.More() {
		return Request{}, errors.New("request has more than one JSON value")
	}
	if q.Version != Version {
		return Request{}, fmt.Errorf("request version %d: this server speaks %d", q.Version, Version)
	}
	return q, nil
}
