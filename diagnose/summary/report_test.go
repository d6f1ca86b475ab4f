package summary

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary/summarytest"
	"github.com/gpuscope/gpuscope/sampler"
)

func build(t *testing.T, src Source, o Options) *Report {
	t.Helper()
	if o.File == "" {
		o.File = "run.jsonl"
	}
	r, err := Build(src, o)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return r
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func findRule(r *Report, rule string, gpu int) *Finding {
	for i := range r.Findings {
		if r.Findings[i].Rule == rule && r.Findings[i].GPU == gpu {
			return &r.Findings[i]
		}
	}
	return nil
}

func TestFiguresOfKnownPattern(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 300, GPUs: 4, Host: true, Recorded: true}, Options{})
	if r.Range.Samples != 300 || r.Range.Seconds != 299 || len(r.GPUs) != 4 {
		t.Fatalf("range %+v, %d GPUs; want 300 samples over 299 s, 4 GPUs", r.Range, len(r.GPUs))
	}
	g0, g1, g2, g3 := &r.GPUs[0], &r.GPUs[1], &r.GPUs[2], &r.GPUs[3]
	// GPU 0: each of 0..99 three times. Nearest rank: p5 = 15th value (4),
	// p50 = 150th (49), p95 = 285th (94).
	near(t, "GPU 0 util mean", g0.Util.Mean, 49.5)
	near(t, "GPU 0 util p5", g0.Util.P5, 4)
	near(t, "GPU 0 util p50", g0.Util.P50, 49)
	near(t, "GPU 0 util p95", g0.Util.P95, 94)
	near(t, "GPU 0 mem peak", g0.MemPeak.V, 10<<30+299<<20)
	near(t, "GPU 0 temp max", g0.TempMax.V, 69)
	if g0.SMActive != nil || g2.TensorActive != nil {
		t.Errorf("GPM absent on GPUs 0 and 2, got SM %+v tensor %+v", g0.SMActive, g2.TensorActive)
	}
	near(t, "GPU 1 SM mean", g1.SMActive.Mean, 60)
	near(t, "GPU 1 tensor p95", g1.TensorActive.P95, 30)
	near(t, "GPU 1 power share", g1.PowerShareMean.V, 100*500.0/700)
	near(t, "GPU 1 throttled s", g1.ThrottledSeconds.V, 100)
	near(t, "GPU 1 sw_power_cap s", g1.ThrottleReasons["sw_power_cap"], 100)
	near(t, "GPU 2 util p50", g2.Util.P50, 0) // 150 zeros, 150 hundreds: rank 150 is a zero
	near(t, "GPU 2 util p95", g2.Util.P95, 100)
	if g3.ThrottledSeconds.V != 0 || len(g3.ThrottleReasons) != 0 {
		t.Errorf("idle is not a slowdown: GPU 3 throttled %v %v", g3.ThrottledSeconds, g3.ThrottleReasons)
	}
	if got := strings.Join(r.Environment.GPUModels, ","); got != "4× NVIDIA H200" {
		t.Errorf("GPU models %q", got)
	}
	if !r.Environment.HostData || !r.Environment.Processes || len(r.Absent) != 0 {
		t.Errorf("host data, processes (GPU 3) and GPM (GPU 1) present, yet absent = %q", r.Absent)
	}
}

func TestPercentilesOfHistogram(t *testing.T) {
	var h hist
	for _, v := range []float64{0, 0, 100, 100, 100, 33.3, math.NaN(), -5, 250} {
		h.add(sampler.Some(v))
	}
	h.add(sampler.NA)
	if h.n != 8 {
		t.Fatalf("n = %d, want 8 (NaN and n/a dropped)", h.n)
	}
	// Sorted (clamped): 0 0 0 33.5 100 100 100 100.
	near(t, "p5", h.percentile(5), 0)
	near(t, "p50", h.percentile(50), 33.5) // rank 4; 33.3 falls in the bin of 33.5
	near(t, "p95", h.percentile(95), 100)
	near(t, "mean", h.sum/float64(h.n), (333.3+100)/8)
}

func TestRecordedFindingsMerged(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 300, GPUs: 3, Host: true, Recorded: true}, Options{})
	// The data also holds an Xid 79 (GPU 0, +250 s) that the diagnosis would
	// flag: a single finding proves the stored findings were used instead.
	if r.FindingsFrom != "recording" || len(r.Findings) != 1 {
		t.Fatalf("findings from %s: %+v; want 1 recorded", r.FindingsFrom, r.Findings)
	}
	f := r.Findings[0]
	if f.Rule != diagnose.RuleInputStarved || f.GPU != 2 || f.PID != 777 || f.Severity != diagnose.Critical {
		t.Errorf("finding %+v", f)
	}
	if !f.FirstSeen.Equal(summarytest.Start.Add(50*time.Second)) || !f.LastSeen.Equal(summarytest.Start.Add(249*time.Second)) {
		t.Errorf("seen %v → %v, want +50s → +249s", f.FirstSeen, f.LastSeen)
	}
	if f.Episodes != 2 || f.OpenSeconds != 99+49 {
		t.Errorf("episodes %d open %v s, want 2 and 148", f.Episodes, f.OpenSeconds)
	}
	if f.Evidence != "util bursts; sample 249" {
		t.Errorf("evidence %q, want the latest", f.Evidence)
	}
}

func TestRecomputedFindings(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 300, GPUs: 3, Host: true}, Options{Format: "nvidia-smi-csv"})
	if r.FindingsFrom != "recomputed" {
		t.Fatalf("findings from %q", r.FindingsFrom)
	}
	xid := findRule(r, diagnose.RuleXidError, 0)
	if xid == nil || xid.Severity != diagnose.Critical {
		t.Fatalf("want a critical xid_error on GPU 0 (Xid 79 at +250 s); findings %+v", r.Findings)
	}
	if d := xid.FirstSeen.Sub(summarytest.Start); d < 250*time.Second || d > 260*time.Second {
		t.Errorf("xid first seen at +%v, want within one 10 s diagnosis stride of +250 s", d)
	}
	if !xid.LastSeen.Equal(summarytest.Start.Add(299 * time.Second)) {
		t.Errorf("xid last seen %v, want the last snapshot (final evaluation)", xid.LastSeen)
	}
	pc := findRule(r, diagnose.RulePowerCapped, 1)
	if pc == nil {
		t.Fatalf("want power_capped on GPU 1 (sw_power_cap 100 s); findings %+v", r.Findings)
	}
	if d := pc.FirstSeen.Sub(summarytest.Start); d < 100*time.Second || d > 160*time.Second {
		t.Errorf("power_capped first seen at +%v, want soon after +100 s", d)
	}
}

func TestRecomputedSeesHistoryBeforeFrom(t *testing.T) {
	// The Xid at +250 s is before From; the diagnosis window still holds it.
	from := summarytest.Start.Add(255 * time.Second)
	r := build(t, &summarytest.Synth{N: 300, GPUs: 1}, Options{From: from})
	xid := findRule(r, diagnose.RuleXidError, 0)
	if xid == nil || !xid.FirstSeen.Equal(from) {
		t.Fatalf("want xid_error from the first snapshot in range; findings %+v", r.Findings)
	}
}

func TestFromToFilter(t *testing.T) {
	o := Options{From: summarytest.Start.Add(100 * time.Second), To: summarytest.Start.Add(199 * time.Second)}
	r := build(t, &summarytest.Synth{N: 300, GPUs: 3, Host: true, Recorded: true}, o)
	if r.Range.Samples != 100 || !r.Range.From.Equal(o.From) || !r.Range.To.Equal(o.To) {
		t.Fatalf("range %+v, want 100 samples +100s..+199s", r.Range)
	}
	g0 := r.GPUs[0]
	near(t, "GPU 0 util mean in range", g0.Util.Mean, 49.5) // 0..99 once each
	near(t, "GPU 0 util p50 in range", g0.Util.P50, 49)
	// The first sample in range starts the clock: 99 intervals of 1 s.
	near(t, "GPU 1 throttled in range", r.GPUs[1].ThrottledSeconds.V, 99)
	f := findRule(r, diagnose.RuleInputStarved, 2)
	if f == nil || !f.FirstSeen.Equal(o.From) || !f.LastSeen.Equal(summarytest.Start.Add(149*time.Second)) || f.Episodes != 1 {
		t.Errorf("finding clipped to the range: %+v", f)
	}
}

func TestNoHostData(t *testing.T) {
	r := build(t, &summarytest.Synth{N: 60, GPUs: 2}, Options{})
	want := "host data: absent (an imported log); input_starved / io_bound / sync_stall are not measured: a GPU-Util pattern that points at them names the candidates and the command that tells them apart"
	if len(r.Absent) == 0 || r.Absent[0] != want {
		t.Errorf("absent = %q, want first %q", r.Absent, want)
	}
	if r.Environment.HostData || r.Environment.Processes {
		t.Errorf("environment %+v claims host data or processes", r.Environment)
	}
}

func TestEmptySourceAndRange(t *testing.T) {
	_, err := Build(&summarytest.Synth{N: 0, GPUs: 2}, Options{File: "x.csv"})
	if err == nil || err.Error() != "no snapshots in x.csv" {
		t.Errorf("empty source: %v", err)
	}
	from := summarytest.Start.Add(time.Hour)
	_, err = Build(&summarytest.Synth{N: 50, GPUs: 2}, Options{File: "x.csv", From: from, To: from.Add(time.Minute)})
	if err == nil || err.Error() != "no snapshots in x.csv between 2026-03-01T11:00:00Z and 2026-03-01T11:01:00Z" {
		t.Errorf("range past the end: %v", err)
	}
	_, err = Build(&summarytest.Synth{N: 50, GPUs: 2}, Options{File: "x.csv", From: from})
	if err == nil || err.Error() != "no snapshots in x.csv between 2026-03-01T11:00:00Z and its end" {
		t.Errorf("from past the end: %v", err)
	}
}

func TestSourceErrorCarriesFile(t *testing.T) {
	boom := errors.New("line 7: not a snapshot")
	_, err := Build(&summarytest.ErrSource{Synth: summarytest.Synth{N: 20, GPUs: 1}, FailAt: 7, Err: boom}, Options{File: "bad.jsonl"})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "bad.jsonl") {
		t.Errorf("err = %v", err)
	}
}

func TestUnreadableRecordedFindingsWarn(t *testing.T) {
	var fs findingSource = newFindingSource(0)
	s := sampler.Snapshot{Time: summarytest.Start}
	if err := fs.add(s, lineText{raw: []byte(`{"not":"a list"}`)}); err != nil {
		t.Fatal(err)
	}
	got, from := fs.finish(nil)
	if len(got) != 0 || from != "recording" || len(fs.warnings()) != 1 {
		t.Errorf("findings %v from %s, warnings %q", got, from, fs.warnings())
	}
}

// A finding recorded before findings carried fix_id gets the id of the
// rules' fix its English is, so a Chinese report still translates it.
func TestOldRecordingsFixFindsItsID(t *testing.T) {
	var fs findingSource = newFindingSource(0)
	s := sampler.Snapshot{Time: summarytest.Start}
	old := `[{"rule":"sync_stall","severity":"warning","gpu":0,"pid":0,"title":"t","evidence":"e","hint":` +
		strconv.Quote(diagnose.FirstFix("sync")) + `}]`
	if err := fs.add(s, lineText{raw: []byte(old)}); err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.finish(nil); len(got) != 1 || got[0].FixID != "sync" {
		t.Errorf("findings %+v, want fix_id sync", got)
	}
}

func TestSeriesDownsamples(t *testing.T) {
	var s Series
	for i := range 86400 {
		v := sampler.Some(float64(i / 43200 * 50)) // 0 for 12 h, then 50
		s.add(summarytest.Start.Add(time.Duration(i)*time.Second), [ChartMetrics]sampler.Metric{v, sampler.NA, sampler.NA, v})
	}
	if n := len(s.Buckets); n > maxChartPoints || n < maxChartPoints/2 {
		t.Fatalf("%d buckets, want between %d and %d", n, maxChartPoints/2, maxChartPoints)
	}
	if pts := s.Points(ChartSM); pts != nil {
		t.Errorf("SM never present, got %d points", len(pts))
	}
	pts := s.Points(ChartUtil)
	var total uint32
	for _, b := range s.Buckets {
		total += b.N[ChartUtil]
	}
	if total != 86400 {
		t.Errorf("buckets hold %d samples, want all 86400", total)
	}
	if pts[0].Mean != 0 || pts[len(pts)-1].Mean != 50 || pts[len(pts)-1].Minutes > 24*60 {
		t.Errorf("first %v last %v", pts[0], pts[len(pts)-1])
	}
}

func TestNaNReadingsNotCounted(t *testing.T) {
	snaps := []sampler.Snapshot{
		{Time: summarytest.Start, GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(math.NaN()), Power: sampler.Some(math.Inf(1)), PowerLimit: sampler.Some(700)}}},
		{Time: summarytest.Start.Add(time.Second), GPUs: []sampler.GPU{{Index: 0, Util: sampler.Some(50)}}},
	}
	list := sampler.Snapshots(snaps)
	r := build(t, &list, Options{})
	if r.GPUs[0].Util.Samples != 1 || r.GPUs[0].PowerMax.OK {
		t.Errorf("NaN/Inf readings counted: util %+v power max %v", r.GPUs[0].Util, r.GPUs[0].PowerMax)
	}
}
