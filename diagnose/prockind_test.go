package diagnose

import (
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// TestProcKindFollowsChange: what a column kept of its main process is
// read again whenever a name or command line, its own or its parent's,
// differs from the second before.
func TestProcKindFollowsChange(t *testing.T) {
	train := &sampler.Proc{Name: "python", Cmdline: "python train.py"}
	vllm := &sampler.Proc{Name: "python", Cmdline: "python -m vllm.entrypoints.openai.api_server"}
	nb := &sampler.Proc{Name: "python", Cmdline: "python -m ipykernel_launcher"}
	triton := &sampler.Proc{Name: "tritonserver", Cmdline: "/opt/tritonserver"}
	steps := []struct {
		p, parent        *sampler.Proc
		server, notebook bool
	}{
		{train, nil, false, false},
		{train, nil, false, false},
		{vllm, nil, true, false},
		{train, nil, false, false},
		{train, triton, true, false},
		{train, train, false, false},
		{nb, nil, false, true},
		{nb, triton, true, true},
		{&sampler.Proc{Name: "tritonserver", Cmdline: "python train.py"}, nil, true, false},
		{train, nil, false, false},
	}
	col := &column{}
	for i, s := range steps {
		server, notebook := col.kindOf(s.p, s.parent)
		if server != s.server || notebook != s.notebook {
			t.Fatalf("step %d: server %v notebook %v, want %v %v", i, server, notebook, s.server, s.notebook)
		}
		if want := isServer(s.p) || isServer(s.parent); server != want || notebook != isNotebook(s.p) {
			t.Fatalf("step %d: the markers say server %v notebook %v", i, want, isNotebook(s.p))
		}
	}
}
