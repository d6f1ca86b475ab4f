package timeline

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/trace"
)

func rankOf(t *testing.T, name string) Rank {
	t.Helper()
	b := New()
	m, err := trace.ReadFile(filepath.Join("../../sampler/trace/testdata", name), b.Add)
	if err != nil {
		t.Fatal(err)
	}
	return b.Rank(m)
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1 {
		t.Errorf("%s = %.2f %%, want %.2f %% ± 1 point", what, got, want)
	}
}

// The expected figures are those of HTA's definitions, computed by an
// independent script (sampler/trace/testdata/hta_oracle.py, INDEX.md).
func TestTemporalBreakdownAsHTA(t *testing.T) {
	for _, c := range []struct {
		file                      string
		events                    int
		idle, compute, nonCompute float64
		under10, under50          float64
	}{
		{"hta_alexnet.json.gz", 98, 99.49, 0.08, 0.43, 17.72, 45.57},
		{"hta_simple_add.json.gz", 98, 99.69, 0.07, 0.24, 20.25, 45.57},
		{"hta_sampled_rank-0.json.gz", 602, 53.56, 17.71, 28.74, 32.93, 66.03},
		{"hta_sampled_rank-1.json.gz", 577, 54.72, 22.57, 22.72, 34.78, 68.12},
	} {
		r := rankOf(t, c.file)
		d := r.Breakdown
		near(t, c.file+" idle", d.Share(d.IdleUS), c.idle)
		near(t, c.file+" compute", d.Share(d.ComputeUS), c.compute)
		near(t, c.file+" non-compute", d.Share(d.NonComputeUS), c.nonCompute)
		near(t, c.file+" kernels < 10 µs", r.Kernels.Under10, c.under10)
		near(t, c.file+" kernels < 50 µs", r.Kernels.Under50, c.under50)
		if r.Analysed != c.events {
			t.Errorf("%s: %d GPU events analysed, want %d", c.file, r.Analysed, c.events)
		}
	}
}

func TestIdleBreakdownAsHTA(t *testing.T) {
	for _, c := range []struct {
		file                string
		stream              int
		host, kernel, other float64
	}{
		{"hta_sampled_rank-0.json.gz", 7, 44.78, 0.42, 54.81},
		{"hta_sampled_rank-0.json.gz", 23, 99.98, 0.01, 0.01},
		{"hta_sampled_rank-1.json.gz", 7, 35.67, 0.41, 63.92},
		{"hta_alexnet.json.gz", 7, 100, 0, 0},
	} {
		r := rankOf(t, c.file)
		found := false
		for _, s := range r.Idle {
			if s.Stream != c.stream {
				continue
			}
			found = true
			h, k, o := s.IdleShare()
			near(t, c.file+" host wait", h, c.host)
			near(t, c.file+" kernel wait", k, c.kernel)
			near(t, c.file+" other", o, c.other)
		}
		if !found {
			t.Errorf("%s: no stream %d in %+v", c.file, c.stream, r.Idle)
		}
	}
}

func TestCommOverlapAsHTA(t *testing.T) {
	for file, want := range map[string]float64{"hta_sampled_rank-0.json.gz": 11.81, "hta_sampled_rank-1.json.gz": 20.05} {
		near(t, file+" overlap", rankOf(t, file).Breakdown.OverlapShare, want)
	}
}

// Counted with Python from the trace: 16 cudaStreamSynchronize inside
// aten::to (pageable copies back), 5 cudaDeviceSynchronize outside any op.
func TestSyncCallsAndCopies(t *testing.T) {
	r := rankOf(t, "hta_alexnet.json.gz")
	got := map[[2]string]int{}
	for _, s := range r.Syncs {
		got[[2]string{s.Name, s.Caller}] = s.Count
	}
	want := map[[2]string]int{{"cudaStreamSynchronize", "aten::to"}: 16, {"cudaDeviceSynchronize", ""}: 5}
	if len(got) != len(want) || got[[2]string{"cudaStreamSynchronize", "aten::to"}] != 16 || got[[2]string{"cudaDeviceSynchronize", ""}] != 5 {
		t.Errorf("syncs %v, want %v", got, want)
	}
	if c := r.Copies; c.H2DBytes != 244403360 || c.PageableBytes != 244403360 || c.D2HBytes != 0 {
		t.Errorf("copies %+v", c)
	}
	if r.Device != "NVIDIA A100-PG509-200" || r.GPU != 0 || r.Rank != 0 {
		t.Errorf("rank %d gpu %d device %q", r.Rank, r.GPU, r.Device)
	}
}
