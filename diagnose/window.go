package diagnose

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/stat"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// stats summarises one metric of one GPU over its window (n/a samples skipped).
type stats struct {
	n                       int // samples where the metric was present
	mean, p5, p50, p95, max float64
}

// ok reports whether enough samples carried the metric to judge it: at least
// half of the window (a metric missing most of the time, e.g. GPM
// on a pre-Hopper card, is treated as absent rather than judged on scraps).
func (s stats) ok(samples int) bool { return s.n > 0 && s.n*2 >= samples }

// summarise fills a stats from vals, reordering vals in place. Percentiles
// use selection, not a full sort: this runs for every metric of every GPU on
// every tick (the budget, < 1 ms per evaluation: docs/benchmarks.md).
func summarise(vals []float64) stats {
	n := len(vals)
	if n == 0 {
		return stats{}
	}
	sum, hi := 0.0, vals[0]
	for _, v := range vals {
		sum += v
		hi = max(hi, v)
	}
	k5, k50, k95 := stat.RankIndex(n, 5), stat.RankIndex(n, 50), stat.RankIndex(n, 95)
	stat.Select(vals, k50)
	stat.Select(vals[:k50+1], k5)
	stat.Select(vals[k50:], k95-k50)
	return stats{n: n, mean: sum / float64(n), p5: vals[k5], p50: vals[k50], p95: vals[k95], max: hi}
}

// pearson is the correlation of two equally long series; NaN when either is flat.
func pearson(a, b []float64) float64 {
	n := min(len(a), len(b))
	if n < 3 {
		return math.NaN()
	}
	var ma, mb float64
	for i := 0; i < n; i++ {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(n)
	mb /= float64(n)
	var cov, va, vb float64
	for i := 0; i < n; i++ {
		da, db := a[i]-ma, b[i]-mb
		cov += da * db
		va += da * da
		vb += db * db
	}
	if va == 0 || vb == 0 {
		return math.NaN()
	}
	return cov / math.Sqrt(va*vb)
}

// gpuIn finds GPU idx in s: the usual position first, then a scan (GPUs may
// be missing from an imported log line). Not inlined: a copy at each of
// its 11 call sites cost the binary (docs/benchmarks.md, "The diagnosis
// window: hosts kept as figures").
//
//go:noinline
func gpuIn(s *sampler.Snapshot, idx int) *sampler.GPU {
	if idx >= 0 && idx < len(s.GPUs) && s.GPUs[idx].Index == idx {
		return &s.GPUs[idx]
	}
	for i := range s.GPUs {
		if s.GPUs[i].Index == idx {
			return &s.GPUs[i]
		}
	}
	return nil
}

// hostProc returns the host view of pid in s: the joined one on the GPU
// process first, then the host's process table. Not inlined, as gpuIn.
//
//go:noinline
func hostProc(s *sampler.Snapshot, gp *sampler.GPUProc, pid int) *sampler.Proc {
	if gp != nil && gp.Host != nil {
		return gp.Host
	}
	if s.Host != nil && s.Host.Procs != nil {
		return s.Host.Procs[pid]
	}
	return nil
}

// findProc returns the GPU process pid on g, or nil.
func findProc(g *sampler.GPU, pid int) *sampler.GPUProc {
	for i := range g.Procs {
		if g.Procs[i].PID == pid {
			return &g.Procs[i]
		}
	}
	return nil
}

// procLabel is "PID 4121 `python train.py`" with the command line cut short.
func procLabel(pid int, p *sampler.Proc) string {
	if pid == 0 {
		return "an unlisted process"
	}
	if p == nil {
		return fmt.Sprintf("PID %d", pid)
	}
	cmd := p.Cmdline
	if cmd == "" {
		cmd = p.Name
	}
	if cmd == "" {
		return fmt.Sprintf("PID %d", pid)
	}
	const maxCmd = 48 // fits one evidence line at 80 columns
	if len(cmd) > maxCmd {
		cmd = cmd[:maxCmd-1] + "…"
	}
	return fmt.Sprintf("PID %d `%s`", pid, cmd)
}

// serverMarkers name inference servers ([gpu-idle-handbook] §4.1-4.2: Triton, vLLM ...).
// A server's idle time is request-driven, so it gets serving advice instead
// of training advice.
var serverMarkers = []string{
	"tritonserver", "vllm", "sglang", "ollama", "text-generation-launcher",
	"text-generation-server", "trtllm", "tensorrt_llm", "lmdeploy",
	"llama-server", "torchserve", "tgi-server", "infinity_emb", "ray::serve",
}

// notebookMarkers name interactive kernels that often hold memory idle.
var notebookMarkers = []string{"ipykernel", "jupyter", "ipython", "colab_kernel"}

// shellNames are parents that do not make their children one job.
var shellNames = []string{"bash", "sh", "zsh", "fish", "dash", "tmux", "screen", "sshd", "init", "systemd", "su", "sudo"}

func containsAny(s string, markers []string) bool {
	if s == "" {
		return false
	}
	s = strings.ToLower(s)
	for _, m := range markers {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

func isServer(p *sampler.Proc) bool {
	return p != nil && (containsAny(p.Cmdline, serverMarkers) || containsAny(p.Name, serverMarkers))
}

func isNotebook(p *sampler.Proc) bool {
	return p != nil && (containsAny(p.Cmdline, notebookMarkers) || containsAny(p.Name, notebookMarkers))
}

func isShell(p *sampler.Proc) bool {
	return p != nil && slices.Contains(shellNames, strings.ToLower(p.Name))
}

// Formatting helpers for evidence strings: prose, so sampler/units' spaced
// form ("62 °C", "80.0 GiB"; percent unspaced). pct is not inlined, as
// gbytes: its ~80 call sites each held a copy (docs/benchmarks.md,
// "Recordings: the host read as far as a report needs it").
//
//go:noinline
func pct(v float64) string { return units.Percent(sampler.Some(v), 0) }

func secs(d time.Duration) string { return fmt.Sprintf("%.0f s", d.Seconds()) }

// gbytes prints memory in GiB, as nvidia-smi's MiB and the dashboard do.
//
// Not inlined: a copy at each of its ~20 call sites cost the binary
// (docs/benchmarks.md, "Recording a day: the window kept").
//
//go:noinline
func gbytes(b float64) string { return units.Spaced.GiB(sampler.Some(b)) }

// gbps is not inlined, as gbytes.
//
//go:noinline
func gbps(b float64) string { return fmt.Sprintf("%.1f GB/s", b/1e9) }
