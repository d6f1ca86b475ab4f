package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// uuidGPU is one GPU on which NVML lists a host PID this namespace lacks.
type uuidGPU struct{ oneGPU }

func (uuidGPU) Sample(time.Time) ([]sampler.GPU, []string) {
	return []sampler.GPU{{Index: 0, UUID: "GPU-a", Name: "Test GPU", Procs: []sampler.GPUProc{{PID: 4242424}}}}, nil
}

type socketProcs struct{ path string }

func (s socketProcs) Where() string   { return s.path }
func (socketProcs) Needed([]int) bool { return true }
func (socketProcs) GPUProcs(time.Time) (map[string][]sampler.GPUProc, error) {
	return map[string][]sampler.GPUProc{"GPU-a": {{PID: 1, Type: "C"}}}, nil
}

// --once on a live node uses the process socket at --proc-socket (the
// default path unless given; ” never) and says where the list came from.
func TestOnceUsesTheProcSocket(t *testing.T) {
	for _, c := range []struct {
		args     []string
		wantPath string
	}{
		{nil, sampler.ProcSocketPath},
		{[]string{"--proc-socket", "/x/procs.sock"}, "/x/procs.sock"},
		{[]string{"--proc-socket", ""}, ""},
	} {
		d := fakeDeps(t)
		d.Live = func() (*sampler.Sampler, bool) {
			return &sampler.Sampler{GPU: uuidGPU{}, Hostname: "box", Source: "nvml"}, true
		}
		var asked string
		d.ProcSocket = func(s *sampler.Sampler, path string) bool {
			asked, s.Procs = path, socketProcs{path}
			return true
		}
		var out, errb bytes.Buffer
		root := NewRoot(d, &out, &errb)
		root.SetArgs(append([]string{"--once", "--lang", "en"}, c.args...))
		if cmd, err := root.ExecuteC(); ExitStatus(cmd, err, &errb) != 0 {
			t.Fatalf("%v: %v %s", c.args, err, errb.String())
		}
		said := strings.Contains(out.String(), "processes: this container's own, from the host's gpuscope at "+c.wantPath+"\n")
		if asked != c.wantPath || said != (c.wantPath != "") {
			t.Errorf("%v: socket %q asked (want %q), said %v:\n%s", c.args, asked, c.wantPath, said, out.String())
		}
		if c.wantPath != "" && !strings.Contains(out.String(), "pid 1 ") {
			t.Errorf("%v: the socket's PID 1 is not listed:\n%s", c.args, out.String())
		}
	}
}

func TestServeProcSocketWithDemoRefused(t *testing.T) {
	status, stderr := runCLI(t, "serve", "--demo", "--proc-socket", "/tmp/x.sock")
	if status != 2 || !strings.Contains(stderr, "--proc-socket with --demo") {
		t.Errorf("exit %d, %q", status, stderr)
	}
}
