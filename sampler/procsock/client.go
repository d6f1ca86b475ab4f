package procsock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// ClientTimeout bounds one question, connect to answer: the sampler waits
// for it within a tick.
const ClientTimeout = 500 * time.Millisecond

// Client asks the server at Path for this container's GPU processes; it is
// the sampler.ProcSource of a live gpuscope that finds the socket.
type Client struct {
	Path     string
	ProcRoot string // where this PID namespace's processes are listed: "/proc"
	Timeout  time.Duration
}

// Where is the socket's path.
func (c Client) Where() string { return c.Path }

// Needed is true when NVML listed no process or one this PID namespace
// does not have (NVML's PIDs are the host's).
func (c Client) Needed(nvmlPIDs []int) bool {
	for _, pid := range nvmlPIDs {
		if _, err := os.Stat(c.ProcRoot + "/" + strconv.Itoa(pid)); err != nil {
			return true
		}
	}
	return len(nvmlPIDs) == 0
}

// GPUProcs asks the server and returns its answer by device UUID.
func (c Client) GPUProcs(time.Time) (map[string][]sampler.GPUProc, error) {
	r, err := Query(c.Path, c.Timeout)
	if err != nil {
		return nil, err
	}
	out := map[string][]sampler.GPUProc{}
	for _, p := range r.Procs {
		out[p.Device] = append(out[p.Device], sampler.GPUProc{PID: p.PID, Type: p.Type, MemUsed: p.MemUsed, SMUtil: p.SMUtil, MemUtil: p.MemUtil})
	}
	return out, nil
}

// Query sends one request to the socket at path and reads the answer
// (timeout 0: ClientTimeout); the server's refusal is the error.
func Query(path string, timeout time.Duration) (Response, error) {
	if timeout <= 0 {
		timeout = ClientTimeout
	}
	conn, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return Response{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	if _, err := fmt.Fprintf(conn, "{\"version\":%d}\n", Version); err != nil {
		return Response{}, err
	}
	var r Response
	if err := json.NewDecoder(io.LimitReader(conn, MaxResponse)).Decode(&r); err != nil {
		return Response{}, fmt.Errorf("reading the answer: %w", err)
	}
	switch {
	case r.Error != "":
		return r, errors.New(r.Error)
	case r.Version != Version:
		return r, fmt.Errorf("the server speaks version %d, this gpuscope %d", r.Version, Version)
	}
	return r, nil
}
