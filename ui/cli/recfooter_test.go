package cli

import (
	"bytes"
	"math"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
	"github.com/gpuscope/gpuscope/sampler/record"
)

// footerLines is a hand-made recording: two GPUs with processes, a host,
// findings that open, change their words and close; change edits line i.
func footerLines(start time.Time, change func(i int, s *sampler.Snapshot)) []sampler.Snapshot {
	var out []sampler.Snapshot
	for i := range 40 {
		s := sampler.Snapshot{Time: start.Add(time.Duration(i) * time.Second),
			Node: sampler.Node{Hostname: "n1", Driver: "550.54.15", CUDA: "12.4", Source: "nvml"},
			Host: &sampler.Host{Procs: map[int]*sampler.Proc{
				100: {PID: 100, User: "ana", Name: "torchrun"},
				101: {PID: 101, PPID: 100, User: "ana", Name: "python"},
			}}}
		for g := range 2 {
			s.GPUs = append(s.GPUs, sampler.GPU{Index: g, Name: "NVIDIA H200", UUID: "GPU-" + string(rune('a'+g)),
				Util: sampler.Some(float64(i * 2 % 100)), SMActive: sampler.Some(33.3), TensorActive: sampler.Some(0.1 * float64(i)),
				Power: sampler.Some(300.5 + float64(i)), PowerLimit: sampler.Some(700), Energy: sampler.Some(1e6 + 400*float64(i)),
				Temp: sampler.Some(61), MemUsed: sampler.Some(8e10), MemTotal: sampler.Some(1.4e11),
				Procs: []sampler.GPUProc{{PID: 101, MemUsed: sampler.Some(7e10), SMUtil: sampler.Some(40)}}})
		}
		if change != nil {
			change(i, &s)
		}
		out = append(out, s)
	}
	return out
}

// footerFindings are line i's findings.
func footerFindings(s sampler.Snapshot, i int) []diagnose.Finding {
	if i < 5 || i > 30 {
		return nil
	}
	f := diagnose.Finding{Rule: "power_capped", Severity: diagnose.Warning, GPU: 1, PID: 101,
		Title: "GPU 1 capped <at> 700 W", Evidence: "power " + time.Duration(i).String(), Hint: "raise the cap & see",
		Since: s.Time.Add(-5 * time.Second), LastSeen: s.Time}
	if i > 12 {
		f.Evidence = "steady"
	}
	if s.Node.Source == "unnamed" {
		f.Severity = 7
	}
	return []diagnose.Finding{f, {Rule: "ecc_errors", Severity: diagnose.Critical, GPU: -1, Title: "é ✓", Since: s.Time, LastSeen: s.Time}}
}

// writeFooter records lines as record does, the footer built from the
// values, and returns the file.
func writeFooter(t *testing.T, lines []sampler.Snapshot) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "v.jsonl.gz")
	w, err := record.Create(path, record.HeaderFor(lines[0], time.Second))
	if err != nil {
		t.Fatal(err)
	}
	rec := record.NewToggle("", func() time.Duration { return time.Second })
	if err := rec.Start(w); err != nil {
		t.Fatal(err)
	}
	fb := startFooter(w, path, "test")
	bg := record.NewAsync(fb.wrap(rec)) // as record --demo: the builder beside the writer
	text := &findingsText{}
	for i, s := range lines {
		if err := bg.Write(s, recordFindings{text, footerFindings(s, i)}); err != nil {
			t.Fatal(err)
		}
	}
	werr := bg.Wait()
	_, cerr := rec.Stop()
	fb.finish(werr == nil && cerr == nil)
	if werr != nil || cerr != nil {
		t.Fatalf("write: %v %v", werr, cerr)
	}
	return path
}

// readBack is the footer's state of path's lines as report --full reads
// them; nil where a report of them keeps none (a warning).
func readBack(t *testing.T, path string) []byte {
	t.Helper()
	f, err := importer.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := summary.BuildFrom(f, summary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := summary.StateOf(r)
	if st == nil {
		return nil
	}
	b, err := summary.EncodeState(st)
	if err != nil {
		return nil
	}
	return b
}

// TestFooterFromValues: the footer built from the values written is the
// state of the lines read back, byte for byte, over values the text
// changes (a reading not finite, -0, extremes, times in other zones and
// with a monotonic reading), and where it cannot be (a string not UTF-8,
// an offset in seconds, a severity with no name, time going backwards)
// there is none. Every
// reading of a GPU is made not finite in turn, so one the builder reads
// and summary.Values leaves as it is fails here.
func TestFooterFromValues(t *testing.T) {
	base := time.Date(2026, 3, 1, 10, 0, 0, 123456789, time.UTC)
	type tc struct {
		name  string
		start time.Time
		edit  func(i int, s *sampler.Snapshot)
		none  bool // no footer may be written
	}
	cases := []tc{
		{name: "plain", start: base},
		{name: "monotonic", start: time.Now()},
		{name: "local", start: base.Local()},
		{name: "zone+0545", start: base.In(time.FixedZone("NPT", 5*3600+45*60))},
		{name: "zone-0930", start: base.In(time.FixedZone("", -(9*3600 + 30*60)))},
		{name: "offset-seconds", start: base.In(time.FixedZone("LMT", 561)), none: true},
		{name: "negzero", start: base, edit: func(i int, s *sampler.Snapshot) {
			s.GPUs[0].Util, s.GPUs[1].Power, s.GPUs[0].Procs[0].SMUtil = sampler.Some(math.Copysign(0, -1)), sampler.Some(math.Copysign(0, -1)), sampler.Some(math.Copysign(0, -1))
		}},
		{name: "extremes", start: base, edit: func(i int, s *sampler.Snapshot) {
			g := &s.GPUs[i%2]
			g.Util, g.Power, g.Energy, g.MemUsed = sampler.Some(1e300), sampler.Some(5e-324), sampler.Some(1e21+float64(i)), sampler.Some(math.MaxFloat64)
			g.Temp = sampler.Some(0.1 + 0.2)
		}},
		{name: "proc-nan", start: base, edit: func(i int, s *sampler.Snapshot) {
			if i%3 == 0 {
				s.GPUs[1].Procs[0].SMUtil, s.GPUs[0].Procs[0].MemUsed = sampler.Some(math.NaN()), sampler.Some(math.Inf(1))
			}
		}},
		{name: "vgpu-nan", start: base, edit: func(i int, s *sampler.Snapshot) {
			s.GPUs[0].Virtualization = "Host VGPU"
			s.GPUs[0].VGPUs = []sampler.VGPU{{ID: "1", Name: "GRID A100-40C", Util: sampler.Some(math.NaN()), MemUsed: sampler.Some(math.Inf(-1)), MemTotal: sampler.Some(4e10)}}
		}},
		{name: "not-utf8", start: base, edit: func(i int, s *sampler.Snapshot) { s.Host.Procs[101].Name = "py\xffthon" }, none: true},
		{name: "severity-unnamed", start: base, edit: func(i int, s *sampler.Snapshot) {
			if i == 25 {
				s.Node.Source = "unnamed"
			}
		}, none: true},
		{name: "backwards", start: base, edit: func(i int, s *sampler.Snapshot) {
			if i == 20 {
				s.Time = s.Time.Add(-time.Hour)
			}
		}, none: true},
	}
	gt := reflect.TypeFor[sampler.GPU]()
	for i := range gt.NumField() {
		if gt.Field(i).Type != reflect.TypeFor[sampler.Metric]() {
			continue
		}
		for _, v := range []float64{math.NaN(), math.Inf(-1)} {
			cases = append(cases, tc{name: gt.Field(i).Name + "-" + fmtFloat(v), start: base, edit: func(n int, s *sampler.Snapshot) {
				if n%4 != 1 {
					reflect.ValueOf(&s.GPUs[n%2]).Elem().Field(i).Set(reflect.ValueOf(sampler.Some(v)))
				}
			}})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFooter(t, footerLines(c.start, c.edit))
			want := readBack(t, p)
			b, err := record.ReadFooter(p)
			if err != nil {
				if want != nil && !c.none {
					t.Fatalf("no footer (%v), but the lines give a report", err)
				}
				return
			}
			if c.none || want == nil {
				t.Fatalf("a footer where none may be")
			}
			st, err := summary.DecodeState(b)
			if err != nil {
				t.Fatal(err)
			}
			st.Program = ""
			got, err := summary.EncodeState(st)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the footer from the values differs from the lines read back:\n%.3000s\n---- read back ----\n%.3000s", got, want)
			}
		})
	}
}

func fmtFloat(v float64) string {
	if math.IsNaN(v) {
		return "nan"
	}
	return "inf"
}
