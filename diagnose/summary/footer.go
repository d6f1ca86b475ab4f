package summary

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// State is what Build knows of a whole input once every line was read,
// less what a report's options add: the input's name, the price of a kWh,
// the reader's warnings. A recording keeps it in its footer
// (sampler/record/footer.go), and report and compare read it instead of
// the lines; the language and the format are the renderer's, so every
// output is the one the lines give (docs/user-guide.md, "The footer").
// Its fields are plain values, encoded as JSON (EncodeState).
type State struct {
	// Version is StateVersion: a footer of another is not read.
	Version int `json:"version"`
	// Program is the gpuscope version that wrote it, which its reader
	// compares with its own (the caller sets it).
	Program     string      `json:"program"`
	Format      string      `json:"format"` // the input's format, as importer detected it
	Environment Environment `json:"environment"`
	Range       Range       `json:"range"`
	GPUs        []GPU       `json:"gpus"`   // each with Chart nil: Charts holds them
	Charts      []Series    `json:"charts"` // one per GPU, in GPUs' order
	// Energy is priced at 0: Report prices it.
	Energy       *EnergyTotal `json:"energy"`
	GPUHours     *GPUHours    `json:"gpu_hours"`
	Findings     []Finding    `json:"findings"`
	FindingsFrom string       `json:"findings_from"`
	Topology     *Topology    `json:"topology"`
	Warnings     []string     `json:"warnings"` // the findings' (unreadable lines)
}

// StateVersion changes whenever State, or what Build computes into it,
// changes: a footer written by another build of it is then read as absent.
const StateVersion = 1

// state is what finish reports before the options are applied.
func (b *builder) state() *State {
	st := &State{Version: StateVersion, Format: b.opts.Format, Environment: b.env,
		Range: Range{From: b.from, To: b.to, Seconds: b.to.Sub(b.from).Seconds(), Samples: b.samples}}
	idx := make([]int, 0, len(b.gpus))
	for i := range b.gpus {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	models := map[string]int{}
	var order []string
	for _, i := range idx {
		a := b.gpus[i]
		g := a.finish()
		if len(g.ThrottleReasons) == 0 {
			g.ThrottleReasons = nil // as JSON keeps it; read only by ranging
		}
		st.GPUs = append(st.GPUs, g)
		st.Charts = append(st.Charts, a.chart)
		name := g.Name
		if name == "" {
			name = "unnamed GPU"
		}
		if models[name] == 0 {
			order = append(order, name)
		}
		models[name]++
	}
	for _, m := range order {
		st.Environment.GPUModels = append(st.Environment.GPUModels, fmt.Sprintf("%d× %s", models[m], m))
	}
	st.Energy = energyTotal(st.GPUs, 0)
	b.jobs.finish(st.Energy)
	st.GPUHours = gpuHours(&b.hours)
	st.Findings, st.FindingsFrom = b.findings.finish(b.opts.Where)
	st.Topology = topologyOf(b.topo, b.topoGPUs)
	st.Warnings = b.findings.warnings()
	return st
}

// Report is the report the state gives with opts' name, format, warnings,
// sections and price; st is not changed.
func (st *State) Report(opts Options) *Report {
	r := &Report{
		File: opts.File, Format: opts.Format, Environment: st.Environment, Range: st.Range,
		Warnings: append([]string(nil), opts.Warnings...),
	}
	r.Environment.GPUModels = append([]string(nil), st.Environment.GPUModels...)
	for i, g := range st.GPUs {
		g.Chart = &st.Charts[i]
		r.GPUs = append(r.GPUs, g)
	}
	if st.Energy != nil {
		e := *st.Energy
		if opts.PricePerKWh > 0 {
			e.PricePerKWh, e.Cost = opts.PricePerKWh, sampler.Some(e.KWh*opts.PricePerKWh)
		}
		r.Energy = &e
	}
	r.GPUHours = st.GPUHours
	r.Findings, r.FindingsFrom = st.Findings, st.FindingsFrom
	r.Sections = opts.Sections
	r.Topology = st.Topology
	r.Warnings = append(r.Warnings, st.Warnings...)
	r.Absent = absent(r)
	return r
}

// BuildState reads an opened recording as BuildFrom does and returns its
// state, for its footer; a reader's warning (a skipped line, a torn end)
// is an error: such a file keeps no footer.
func BuildState(f *importer.File) (*State, error) {
	b := newBuilder(Options{File: f.Name, Format: f.Format})
	if _, ok := f.Evidence(); ok {
		return nil, errors.New("pasted text keeps no state")
	}
	if err := b.build(f); err != nil {
		return nil, err
	}
	if w := f.Warnings(); len(w) > 0 {
		return nil, fmt.Errorf("%s: %s", f.Name, w[0])
	}
	return b.state(), nil
}

// EncodeState is st as JSON, refused unless it decodes to st again
// (DecodeState, reflect.DeepEqual): what cannot be kept exactly, a NaN
// say, leaves the recording without a footer rather than a report that
// differs from the lines'.
func EncodeState(st *State) ([]byte, error) {
	b, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	back, err := DecodeState(b)
	if err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(st, back) {
		return nil, errors.New("the state does not read back as written")
	}
	return b, nil
}

// DecodeState reads EncodeState's bytes; another StateVersion is an error.
func DecodeState(b []byte) (*State, error) {
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, err
	}
	if st.Version != StateVersion {
		return nil, fmt.Errorf("state version %d, this build reads %d", st.Version, StateVersion)
	}
	if len(st.Charts) != len(st.GPUs) {
		return nil, errors.New("state: a chart per GPU expected")
	}
	for _, c := range st.Charts {
		if len(c.Buckets) > maxChartPoints || c.Width < 0 {
			return nil, errors.New("state: a chart out of shape")
		}
	}
	return &st, nil
}
