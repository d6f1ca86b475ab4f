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
//     alike; a severity with no name does not, and the report's state,
//     refused by EncodeState as it does not read back, is not kept) and
//     their words decoded from each finding's own text, the
//     bytes the line holds, at the end as Build decodes them.
//
// TestFooterFromValues compares it with the file read back. The caller
// must not change what it hands over afterwards.
type Values struct {
	b       *builder
	spoiled bool
	stamp   []byte // timeRead's text
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
	s.GPUs = readBack(s.GPUs)
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
// alone (others hold it): a copy is made where one is not finite.
func readBack(gs []sampler.GPU) []sampler.GPU {
	if !notFinite(gs, false) {
		return gs
	}
	gs = append([]sampler.GPU(nil), gs...)
	for i := range gs {
		g := &gs[i]
		g.Procs, g.VGPUs = append([]sampler.GPUProc(nil), g.Procs...), append([]sampler.VGPU(nil), g.VGPUs...)
	}
	notFinite(gs, true)
	return gs
}

// notFinite says whether a reading of gs the builder reads (stats.go,
// energy.go, energy_jobs.go, diagnose.BusyShare and HeldBy, the vGPUs
// kept) is not finite, and with fix makes those n/a. TestFooterFromValues
// sets every reading of a GPU not finite in turn, so one read and not
// listed fails it.
func notFinite(gs []sampler.GPU, fix bool) bool {
	odd := false
	see := func(m *sampler.Metric) {
		if m.OK && (math.IsNaN(m.V) || math.IsInf(m.V, 0)) {
			odd = true
			if fix {
				*m = sampler.NA
			}
		}
	}
	for i := range gs {
		g := &gs[i]
		for _, m := range [...]*sampler.Metric{&g.Util, &g.SMActive, &g.TensorActive, &g.Power, &g.Energy,
			&g.Temp, &g.MemUsed, &g.MemTotal, &g.PowerLimit} {
			see(m)
		}
		for j := range g.Procs {
			see(&g.Procs[j].MemUsed)
			see(&g.Procs[j].SMUtil)
		}
		for j := range g.VGPUs {
			u := &g.VGPUs[j]
			see(&u.Util)
			see(&u.MemUsed)
			see(&u.MemTotal)
		}
	}
	return odd
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
