package summary

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/gpuscope/gpuscope/sampler"
)

// State is what a report of a whole recording says before the options
// apply: the input's name, the price of a kWh, the sections and warnings
// given. A recording keeps it in its footer (sampler/record/footer.go),
// and report and compare read it instead of the lines; the language and
// the format are the renderer's, so every output is the one the lines
// give (docs/user-guide.md, "The footer"). Its fields are plain values,
// encoded as JSON (EncodeState).
type State struct {
	// Version is StateVersion: a footer of another is not read.
	Version int `json:"version"`
	// Program is the gpuscope version and commit that wrote it, which its reader
	// compares with its own (the caller sets it).
	Program      string       `json:"program"`
	Format       string       `json:"format"` // the input's format, as importer detected it
	Environment  Environment  `json:"environment"`
	Range        Range        `json:"range"`
	GPUs         []GPU        `json:"gpus"`   // each with Chart nil: Charts holds them
	Charts       []Series     `json:"charts"` // one per GPU, in GPUs' order
	Energy       *EnergyTotal `json:"energy"` // priced at 0: Report prices it
	GPUHours     *GPUHours    `json:"gpu_hours"`
	Findings     []Finding    `json:"findings"`
	FindingsFrom string       `json:"findings_from"`
	Topology     *Topology    `json:"topology"`
	Absent       []string     `json:"absent"`
}

// StateVersion changes whenever State, or what Build computes into it,
// changes: a footer written by another build of it is then read as absent.
const StateVersion = 1

// StateOf is the state of r, a report of a whole file built without a
// range, a price or a warning (a warning may name the file, which can be
// renamed): nil for any other.
func StateOf(r *Report) *State {
	if len(r.Warnings) > 0 || len(r.Sections) > 0 || (r.Energy != nil && r.Energy.PricePerKWh != 0) {
		return nil
	}
	st := &State{Version: StateVersion, Format: r.Format, Environment: r.Environment, Range: r.Range,
		Energy: r.Energy, GPUHours: r.GPUHours, Findings: r.Findings, FindingsFrom: r.FindingsFrom,
		Topology: r.Topology, Absent: r.Absent}
	for _, g := range r.GPUs {
		if g.Chart == nil {
			return nil
		}
		st.Charts = append(st.Charts, *g.Chart)
		g.Chart = nil
		if len(g.ThrottleReasons) == 0 {
			g.ThrottleReasons = nil // as JSON keeps it; read only by ranging
		}
		st.GPUs = append(st.GPUs, g)
	}
	return st
}

// Report is the report the state gives with opts' name, format, warnings,
// sections and price, as Build gives it; st is not changed.
func (st *State) Report(opts Options) *Report {
	r := &Report{
		File: opts.File, Format: opts.Format, Environment: st.Environment, Range: st.Range,
		Warnings: append([]string(nil), opts.Warnings...), GPUHours: st.GPUHours,
		Findings: st.Findings, FindingsFrom: st.FindingsFrom, Sections: opts.Sections,
		Topology: st.Topology, Absent: st.Absent,
	}
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
	return r
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
