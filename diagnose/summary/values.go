package summary

import (
	"errors"
	"math"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
)

// Values is Build fed by the recorder with what it writes, as values:
// record's footer (ui/cli/recfooter.go) is the report a read of the file
// gives, and decoding the lines the process had just encoded was 8 % of
// recording a day (docs/benchmarks.md, "Recording a day: the footer from
// the values"). It is exact because everything the builder reads of a
// line is taken as a reader of the file gets it:
//   - the snapshot's time through its text (timeRead): no monotonic
//     reading, which Sub would use, and the reader's location; one the
//     encoder writes otherwise (a year outside 0–9999, an offset in
//     seconds) spoils the report;
//   - the readings the builder reads (readBack) n/a where not finite, as
//     the line's null reads back; others stay as the text gives them:
//     floats in the shortest form that reads back, strings that are
//     UTF-8 (the caller checks the line for the replacement character);
//   - the findings' heads as values (rule, severity, GPU, PID read back
//     alike) and their words decoded from each finding's own text, the
//     bytes the line holds, at the end as Build decodes them.
//
// TestFooterFromValues compares it with the file read back. The caller
// must not change what it hands over afterwards.
type Values struct {
	b       *builder
	spoiled bool
	gpus    []sampler.GPU // readBack's copy, reused
	stamp   []byte        // timeRead's text
}

// NewValues starts a report of values; opts as Build's (From and To unused).
func NewValues(opts Options) *Values { return &Values{b: newBuilder(opts)} }

// Add takes one line: its snapshot, the findings written beside it (nil
// for none) and each one's JSON as written (texts[i] is findings[i]'s).
func (v *Values) Add(s sampler.Snapshot, findings []diagnose.Finding, texts [][]byte) {
	if _, off := s.Time.Zone(); s.Time.Year() < 0 || s.Time.Year() > 9999 || off%60 != 0 || len(texts) != len(findings) {
		v.spoiled = true
	}
	if v.spoiled {
		return
	}
	s.Time = v.timeRead(s.Time)
	s.GPUs = v.readBack(s.GPUs)
	v.b.addReadings(&s)
	f := &v.b.findings
	f.decided, f.recorded = true, true
	f.decoded = f.decoded[:0]
	for i := range findings { // the heads, as a line's read back
		h := &findings[i]
		f.decoded = append(f.decoded, diagnose.Finding{Rule: h.Rule, Severity: h.Severity, GPU: h.GPU, PID: h.PID})
	}
	f.tracker.observe(s.Time, f.decoded, lineText{items: texts})
}

// Report is the report of the values added, or an error where none can be
// given exactly or there were none.
func (v *Values) Report() (*Report, error) {
	if v.spoiled {
		return nil, errors.New("a value the recording cannot hold exactly")
	}
	if v.b.samples == 0 {
		return nil, errors.New(noSnapshots(v.b.opts))
	}
	return v.b.finish(), nil
}

// timeRead is t as its line reads back: written as the encoder writes
// it (RFC 3339 with nanoseconds) and read as the reader reads it
// (UnmarshalText: no monotonic reading; UTC for Z, Local where the offset
// is Local's then, else a zone of that offset), which a report's state
// keeps (EncodeState compares it read back).
func (v *Values) timeRead(t time.Time) time.Time {
	v.stamp = t.AppendFormat(v.stamp[:0], time.RFC3339Nano)
	var r time.Time
	if r.UnmarshalText(v.stamp) != nil {
		v.spoiled = true
	}
	return r
}

// readBack is gs as its line reads back, in what the builder reads: a
// reading that is not finite is written null, so n/a. gs itself is left
// alone (others hold it); a copy is made only where one is not finite.
func (v *Values) readBack(gs []sampler.GPU) []sampler.GPU {
	odd := false
	for i := range gs {
		odd = odd || !gpuFinite(&gs[i])
	}
	if !odd {
		return gs
	}
	v.gpus = append(v.gpus[:0], gs...)
	for i := range v.gpus {
		g := &v.gpus[i]
		for _, m := range gpuReadings(g) {
			*m = finite(*m)
		}
		if len(g.Procs) > 0 {
			g.Procs = append([]sampler.GPUProc(nil), g.Procs...)
			for j := range g.Procs {
				p := &g.Procs[j]
				p.MemUsed, p.SMUtil = finite(p.MemUsed), finite(p.SMUtil)
			}
		}
		if len(g.VGPUs) > 0 {
			g.VGPUs = append([]sampler.VGPU(nil), g.VGPUs...)
			for j := range g.VGPUs {
				u := &g.VGPUs[j]
				u.Util, u.MemUsed, u.MemTotal = finite(u.Util), finite(u.MemUsed), finite(u.MemTotal)
			}
		}
	}
	gs, v.gpus = v.gpus, nil // the builder may keep it (topoGPUs)
	return gs
}

// gpuReadings are the GPU's readings the builder reads (stats.go,
// energy.go, diagnose.BusyShare); TestFooterFromValues sets every reading
// of a GPU not finite in turn, so one read and not listed fails it.
func gpuReadings(g *sampler.GPU) [9]*sampler.Metric {
	return [...]*sampler.Metric{&g.Util, &g.SMActive, &g.TensorActive, &g.Power, &g.Energy,
		&g.Temp, &g.MemUsed, &g.MemTotal, &g.PowerLimit}
}

func gpuFinite(g *sampler.GPU) bool {
	for _, m := range gpuReadings(g) {
		if !isFinite(*m) {
			return false
		}
	}
	for j := range g.Procs {
		if p := &g.Procs[j]; !isFinite(p.MemUsed) || !isFinite(p.SMUtil) {
			return false
		}
	}
	for j := range g.VGPUs {
		if u := &g.VGPUs[j]; !isFinite(u.Util) || !isFinite(u.MemUsed) || !isFinite(u.MemTotal) {
			return false
		}
	}
	return true
}

func isFinite(m sampler.Metric) bool { return !m.OK || !math.IsNaN(m.V) && !math.IsInf(m.V, 0) }

// finite is m as sampler.Metric's JSON reads back: n/a where not finite.
func finite(m sampler.Metric) sampler.Metric {
	if !isFinite(m) {
		return sampler.NA
	}
	return m
}

// itemWords is the finding text of a line's item decoded, as sorted
// decodes a line's list.
func itemWords(items [][]byte, i int) (diagnose.Finding, bool) {
	var f diagnose.Finding
	if i >= len(items) || jsonv1.Unmarshal(items[i], &f) != nil {
		return f, false
	}
	return f, true
}
