package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/sampler/sim"
	"github.com/gpuscope/gpuscope/themes"
	"github.com/gpuscope/gpuscope/ui"
	"github.com/gpuscope/gpuscope/ui/cli"
	"github.com/gpuscope/gpuscope/ui/fleet"

	tea "github.com/charmbracelet/bubbletea"
)

// Fleet size and history of the 1,000-node measurement.
const (
	benchNodes  = 1000
	benchSpan   = 20 * time.Minute
	benchStep   = time.Minute // dcgm-exporter-like: a sample a minute after downsampling
	benchSource = 23          // distinct simulated nodes, one per scenario, replicated
)

// writeFleetOpenMetrics writes benchNodes nodes × 8 GPUs of dcgm-exporter
// series (GPU util, FB used/free, power, Xid) and their up series, from the
// simulator: each scenario's node is simulated once over the span and its
// readings are replicated to ~44 host names. The file is what `promtool tsdb
// create-blocks-from openmetrics` reads.
func writeFleetOpenMetrics(b *testing.B, path string, end time.Time) {
	start := end.Add(-benchSpan)
	scenarios := sim.Scenarios()
	steps := int(benchSpan/benchStep) + 1
	truth := make([][][]sampler.GPU, benchSource) // [source][step][gpu]
	for i := range benchSource {
		n, err := sim.New(scenarios[i%len(scenarios)].ID, int64(i+1), start)
		if err != nil {
			b.Fatal(err)
		}
		for k := range steps {
			n.AdvanceTo(start.Add(time.Duration(k) * benchStep))
			truth[i] = append(truth[i], n.GPUs())
		}
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	families := []struct {
		name string
		v    func(g sampler.GPU) float64
	}{
		{"DCGM_FI_DEV_GPU_UTIL", func(g sampler.GPU) float64 { return g.Util.V }},
		{"DCGM_FI_DEV_FB_USED", func(g sampler.GPU) float64 { return g.MemUsed.V / (1 << 20) }},
		{"DCGM_FI_DEV_FB_FREE", func(g sampler.GPU) float64 { return (g.MemTotal.V - g.MemUsed.V) / (1 << 20) }},
		{"DCGM_FI_DEV_POWER_USAGE", func(g sampler.GPU) float64 { return g.Power.V }},
		{"DCGM_FI_DEV_XID_ERRORS", func(sampler.GPU) float64 { return 0 }},
	}
	ts := func(k int) float64 { return float64(start.Add(time.Duration(k)*benchStep).UnixMilli()) / 1e3 }
	for _, fam := range families {
		fmt.Fprintf(w, "# TYPE %s gauge\n", fam.name)
		for node := range benchNodes {
			src := truth[node%benchSource]
			for gpu := range 8 {
				for k := range steps {
					fmt.Fprintf(w, "%s{job=\"dcgm\",instance=\"10.%d.%d.%d:9400\",Hostname=\"gpu-%04d\",gpu=\"%d\",UUID=\"GPU-%04d-%d\",modelName=\"NVIDIA H200\"} %g %.3f\n",
						fam.name, node/65536, node/256%256, node%256, node, gpu, node, gpu, fam.v(src[k][gpu]), ts(k))
				}
			}
		}
	}
	fmt.Fprintf(w, "# TYPE up gauge\n")
	for node := range benchNodes {
		for k := range steps {
			fmt.Fprintf(w, "up{job=\"dcgm\",instance=\"10.%d.%d.%d:9400\"} 1 %.3f\n", node/65536, node/256%256, node%256, ts(k))
		}
	}
	fmt.Fprintln(w, "# EOF")
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// BenchmarkFleet1000NodesOverPrometheus backfills a real Prometheus with
// 1,000 nodes × 8 GPUs of simulated dcgm-exporter history, then measures
// what `gpuscope --prometheus` does: the fleet queries (all aggregated by the
// server), the diagnosis of the dcgm-only nodes over their rebuilt history,
// and the first frame of the fleet view, and the heap the view holds.
// Needs promtool and prometheus; run it alone:
//
//	go test -run '^$' -bench Fleet1000 -benchtime 3x .
func BenchmarkFleet1000NodesOverPrometheus(b *testing.B) {
	for _, tool := range []string{"promtool", "prometheus"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Fatalf("%s is not installed: apt-get install prometheus", tool)
		}
	}
	dir := b.TempDir()
	end := time.Now().Truncate(time.Minute)
	om := filepath.Join(dir, "fleet.om")
	t0 := time.Now()
	writeFleetOpenMetrics(b, om, end)
	data := filepath.Join(dir, "data")
	if out, err := exec.Command("promtool", "tsdb", "create-blocks-from", "openmetrics", "-q", om, data).CombinedOutput(); err != nil {
		b.Fatalf("backfill: %v\n%s", err, out)
	}
	b.Logf("generated and backfilled %d nodes in %s", benchNodes, time.Since(t0).Round(time.Second))
	url := startPrometheusOn(b, data)
	src, err := promsource.New(promsource.Config{URL: url})
	if err != nil {
		b.Fatal(err)
	}
	st, _ := themes.Build("dark", true)
	var queries, fleetOnly, frame time.Duration
	var heap uint64
	b.ResetTimer()
	for b.Loop() {
		q0 := time.Now()
		if _, err := src.Fleet(context.Background(), q0, promsource.Options{}); err != nil {
			b.Fatal(err)
		}
		fleetOnly += time.Since(q0)
		q0 = time.Now()
		v, err := cli.LoadFleet(context.Background(), src, 30*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		queries += time.Since(q0)
		if len(v.Fleet.Nodes) != benchNodes || v.Counts.GPUs != benchNodes*8 || len(v.Fleet.Problems) > 0 {
			b.Fatalf("%d nodes, %d GPUs, problems %v", len(v.Fleet.Nodes), v.Counts.GPUs, v.Fleet.Problems)
		}
		f0 := time.Now()
		m := fleet.New(fleet.Options{Styles: st, Load: func(context.Context) (fleet.View, error) { return v, nil },
			Dashboard: func(badge string) ui.Options { return ui.DefaultOptions(st, badge, time.Second) }})
		next, _ := m.Update(tea.WindowSizeMsg{Width: 200, Height: 50})
		next, _ = next.Update(m.Init()())
		_ = next.View()
		frame += time.Since(f0)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = max(heap, ms.HeapInuse)
		runtime.KeepAlive(next)
	}
	b.ReportMetric(queries.Seconds()/float64(b.N), "queries-s/op")
	b.ReportMetric(fleetOnly.Seconds()/float64(b.N), "fleet-queries-s/op")
	b.ReportMetric(frame.Seconds()*1e3/float64(b.N), "first-frame-ms/op")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
	// The binary's own peak RSS for the same fleet (the test process also
	// holds the generator's data, so its RSS says nothing).
	b.StopTimer()
	b.ReportMetric(peakRSS(b, buildBinary(b), "--prometheus", url, "--interval", "30s", "--once")/(1<<20), "once-maxrss-MB")
}

// peakRSS runs a command and returns its peak resident set in bytes, the
// VmHWM of its own address space, polled from /proc until it exits. Not
// the child's rusage maxrss: Go starts children with vfork, and Linux
// keeps in the child's maxrss the high-water mark of the address space it
// replaced at exec, the parent's (a test process holding 200 MB makes
// /bin/true report 200 MB).
func peakRSS(b *testing.B, name string, args ...string) float64 {
	cmd := exec.Command(name, args...)
	var out screen
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	var peak float64
	for {
		if text, err := os.ReadFile(status); err == nil {
			for line := range strings.Lines(string(text)) {
				if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					if v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(kb), " kB"), 64); err == nil {
						peak = max(peak, v*1024)
					}
				}
			}
		}
		select {
		case err := <-done:
			if err != nil {
				b.Fatalf("%s: %v\n%s", name, err, out.last(4000))
			}
			return peak
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// startPrometheusOn starts Prometheus over an existing data directory, with
// no scrape targets, and waits until it answers.
func startPrometheusOn(b *testing.B, data string) string {
	cfg := filepath.Join(b.TempDir(), "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1m\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	addr := freePortB(b)
	var logs screen
	cmd := exec.Command("prometheus", "--config.file="+cfg, "--storage.tsdb.path="+data, "--web.listen-address="+addr,
		"--storage.tsdb.retention.time=30d")
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := "http://" + addr
	src, _ := promsource.New(promsource.Config{URL: url})
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := src.Fleet(context.Background(), time.Now(), promsource.Options{}); err == nil {
			return url
		}
		if time.Now().After(deadline) {
			b.Fatalf("prometheus did not answer in 60 s; its log:\n%s", logs.last(4000))
		}
		time.Sleep(500 * time.Millisecond)
	}
}
