// Package summary computes what `gpuscope report` and `gpuscope compare`
// say about a recording or an imported log: per GPU the distribution of
// GPU-Util, SM and tensor activity, memory, power, temperature and throttled
// time, plus the diagnosis findings with their time ranges, and the
// comparison of two such summaries. Snapshots are streamed once; the state
// kept is fixed-size per GPU, whatever the length. Rendering (text,
// markdown, JSON, HTML) is ui/report's.
package summary

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/importer"
)

// Source yields snapshots in time order, each with the findings a recording
// stored next to it (nil when the line carries none, e.g. an imported log).
// Next returns io.EOF after the last. Build keeps up to the diagnosis window
// of snapshots and the latest findings text of each finding, so a Source
// must not mutate a snapshot or findings it has returned.
type Source interface {
	Next() (sampler.Snapshot, json.RawMessage, error)
}

// delta is a Source that can say which findings Next just returned are
// those at the same position the snapshot before, last_seen aside, and
// give the others apart (importer.File, from a recording's same_findings
// and seen_findings): Build then decodes only those, where decoding every
// line's findings was 15 % of a day's report (docs/benchmarks.md).
type delta interface {
	FindingsDelta() (kept []bool, written json.RawMessage)
}

// lister is a Source that can hand a line's findings as a list whose text
// is built only when asked (importer.File.NextList): building it on every
// line was a day's report's largest allocation (docs/benchmarks.md,
// "Recordings: the findings handed on").
type lister interface {
	NextList() (sampler.Snapshot, json.RawMessage, *importer.Findings, error)
}

// leaner is a Source that can leave out, from the next lines on, the
// host's per-CPU figures and its processes' children (importer.File.Lean):
// only the diagnosis reads the children and nothing here the per-CPU
// figures, so Build asks once the findings come from the recording; the
// lines cost 5-7 % less to decode (docs/benchmarks.md,
// "Recordings: the host read as far as a report needs it").
type leaner interface{ Lean() }

// askLean is not inlined: Build's loop stays small.
//
//go:noinline
func askLean(src Source) {
	if l, ok := src.(leaner); ok {
		l.Lean()
	}
}

// Options say what to report on and where the data came from.
type Options struct {
	// From and To bound the report (inclusive); zero means unbounded.
	From, To time.Time
	// File and Format name the input for the environment section
	// (Format is the detected input format, e.g. "nvidia-smi-csv").
	File   string
	Format string
	// Warnings are the reader's (a torn last line, skipped rows); they are
	// carried into the report.
	Warnings []string
	// Sections say what each section of pasted text was read as; Where
	// locates a GPU's reading in the input (both from importer.Evidence;
	// nil for other inputs).
	Sections []string
	Where    func(gpu int, field string) string
	// PricePerKWh, when above 0, adds the energy's cost to the report.
	PricePerKWh float64
	// DiagnoseEvery is how often, in log time, the diagnosis runs when the
	// findings are recomputed (zero: defaultDiagnoseEvery).
	DiagnoseEvery time.Duration
}

// Report is the summary of one file over one time range.
type Report struct {
	File        string      `json:"file"`
	Format      string      `json:"format,omitempty"`
	Environment Environment `json:"environment"`
	Range       Range       `json:"range"`
	GPUs        []GPU       `json:"gpus"`
	Findings    []Finding   `json:"findings"`
	// FindingsFrom is "recording" (the findings stored with each snapshot)
	// or "recomputed" (the diagnosis run over the snapshots here).
	FindingsFrom string `json:"findings_from"`
	// Topology summarises the GPUs' links when the input gave them.
	Topology *Topology `json:"topology,omitempty"`
	// Energy is all GPUs' energy and its cost; nil without energy figures.
	Energy *EnergyTotal `json:"energy,omitempty"`
	// GPUHours is the GPU time each job and user held and used; nil when
	// no GPU was held (gpuhours.go).
	GPUHours *GPUHours `json:"gpu_hours,omitempty"`
	// Sections say, one line each, what every section of pasted text was
	// read as or why it was skipped.
	Sections []string `json:"sections,omitempty"`
	// Absent says what the input lacks and what therefore cannot be judged.
	Absent   []string `json:"absent,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// Environment is what the input says about the machine.
type Environment struct {
	Host      string   `json:"host,omitempty"`
	Driver    string   `json:"driver,omitempty"`
	CUDA      string   `json:"cuda,omitempty"`
	NVML      string   `json:"nvml,omitempty"`
	Source    string   `json:"source,omitempty"` // the snapshots' Node.Source
	GPUModels []string `json:"gpu_models"`       // e.g. "8× NVIDIA H200"
	HostData  bool     `json:"host_data"`        // any snapshot carried host data
	Processes bool     `json:"processes"`        // any GPU process was listed
}

// Range is the time the report covers.
type Range struct {
	From    time.Time `json:"from"` // first snapshot reported
	To      time.Time `json:"to"`   // last snapshot reported
	Seconds float64   `json:"seconds"`
	Samples int       `json:"samples"` // snapshots reported
}

// Dist is the distribution of a percent reading over the range; percentiles
// are exact to ±0.25 points (a 0.5-point histogram).
type Dist struct {
	Mean    float64 `json:"mean"`
	P5      float64 `json:"p5"`
	P50     float64 `json:"p50"`
	P95     float64 `json:"p95"`
	Samples int     `json:"samples"`
}

// GPU holds one device's figures. Metrics are null in JSON when the input
// never had the reading.
type GPU struct {
	Index   int       `json:"index"`
	Name    string    `json:"name,omitempty"`
	UUID    string    `json:"uuid,omitempty"`
	Lost    bool      `json:"lost,omitempty"`
	Samples int       `json:"samples"`
	First   time.Time `json:"first"`
	Last    time.Time `json:"last"`

	Util         *Dist `json:"util"`          // GPU-Util, %
	SMActive     *Dist `json:"sm_active"`     // GPM SM activity, %
	TensorActive *Dist `json:"tensor_active"` // GPM tensor activity, %

	MemPeak        sampler.Metric `json:"mem_peak_bytes"`
	MemTotal       sampler.Metric `json:"mem_total_bytes"`
	PowerMean      sampler.Metric `json:"power_mean_w"`
	PowerMax       sampler.Metric `json:"power_max_w"`
	PowerLimit     sampler.Metric `json:"power_limit_w"`        // latest enforced limit
	PowerShareMean sampler.Metric `json:"power_share_mean_pct"` // power / limit
	PowerShareMax  sampler.Metric `json:"power_share_max_pct"`
	TempMax        sampler.Metric `json:"temp_max_c"`
	// EnergyKWh is the energy the GPU used over the range; EnergyFrom says
	// how it was measured (EnergyFromCounter or EnergyFromPower).
	EnergyKWh  sampler.Metric `json:"energy_kwh"`
	EnergyFrom string         `json:"energy_from,omitempty"`
	// ThrottledSeconds is time with any slowdown reason active; null when
	// the input has no clock-event reasons.
	ThrottledSeconds sampler.Metric     `json:"throttled_seconds"`
	ThrottleReasons  map[string]float64 `json:"throttle_reasons,omitempty"` // seconds per reason

	// Virtualization and License as -q prints them; VGPUs the VMs' vGPUs a
	// host runs on this GPU (they are not GPUs of the node).
	Virtualization string         `json:"virtualization,omitempty"`
	License        string         `json:"license,omitempty"`
	VGPUs          []sampler.VGPU `json:"vgpus,omitempty"`

	// Chart is the downsampled series the HTML report draws.
	Chart *Series `json:"-"`
}

// Build streams src once and summarises the snapshots between opts.From and
// opts.To. It fails on a read error or when no snapshot falls in the range.
func Build(src Source, opts Options) (*Report, error) {
	b := newBuilder(opts)
	dsrc, _ := src.(delta)
	lsrc, _ := src.(lister)
	added := false // the snapshot before went to b.add
	for {
		var s sampler.Snapshot
		var raw json.RawMessage
		var list *importer.Findings
		var err error
		if lsrc != nil {
			s, raw, list, err = lsrc.NextList()
		} else {
			s, raw, err = src.Next()
		}
		b.findings.kept, b.findings.written = nil, nil
		if added && dsrc != nil {
			b.findings.kept, b.findings.written = dsrc.FindingsDelta()
		}
		added = false
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("report %s: %w", InputName(opts.File), err)
		}
		if !opts.From.IsZero() && s.Time.Before(opts.From) {
			if opts.From.Sub(s.Time) <= diagnose.DefaultWindow {
				b.findings.warm(s, raw, list) // the diagnosis window reaches back before From
			}
			continue
		}
		if !opts.To.IsZero() && s.Time.After(opts.To) {
			break // sources are in time order: nothing later is in range
		}
		if err := b.add(s, lineText{raw: raw, list: list}); err != nil {
			return nil, err
		}
		if b.samples == 1 && b.findings.recorded {
			askLean(src)
		}
		added = true
	}
	if b.samples == 0 {
		return nil, errors.New(noSnapshots(opts))
	}
	return b.finish(), nil
}

func noSnapshots(o Options) string {
	if o.From.IsZero() && o.To.IsZero() {
		return fmt.Sprintf("no snapshots in %s", InputName(o.File))
	}
	bound := func(t time.Time, def string) string {
		if t.IsZero() {
			return def
		}
		return t.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("no snapshots in %s between %s and %s",
		InputName(o.File), bound(o.From, "its start"), bound(o.To, "its end"))
}

// InputName is the input as a report names it: the file, or "the input".
func InputName(file string) string {
	if file == "" {
		return "the input"
	}
	return file
}

// builder is Build's streaming state.
type builder struct {
	opts     Options
	samples  int
	from, to time.Time
	env      Environment
	gpus     map[int]*gpuAcc
	findings findingSource
	jobs     jobEnergy
	hours    diagnose.Hours
	topo     *sampler.Topology // the latest, with its snapshot's GPUs' affinities
	topoGPUs []topoGPU
}

func newBuilder(o Options) *builder {
	return &builder{opts: o, gpus: map[int]*gpuAcc{}, findings: newFindingSource(o.DiagnoseEvery)}
}

func (b *builder) add(s sampler.Snapshot, raw lineText) error {
	b.addReadings(&s)
	return b.findings.add(s, raw)
}

// addReadings takes s but for its findings (Build's and Values').
func (b *builder) addReadings(s *sampler.Snapshot) {
	if b.samples == 0 {
		b.from = s.Time
	}
	b.samples++
	b.to = s.Time
	b.noteEnvironment(s)
	if s.Topology != nil {
		b.topo, b.topoGPUs = s.Topology, topoGPUsOf(b.topoGPUs[:0], s.GPUs)
	}
	for i := range s.GPUs {
		g := &s.GPUs[i]
		a := b.gpus[g.Index]
		if a == nil {
			a = &gpuAcc{index: g.Index}
			b.gpus[g.Index] = a
		}
		b.jobs.add(s, g, a.add(s.Time, g))
	}
	b.hours.Add(s)
}

// noteEnvironment keeps the latest non-empty identity fields.
func (b *builder) noteEnvironment(s *sampler.Snapshot) {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	e := &b.env
	set(&e.Host, s.Node.Hostname)
	set(&e.Driver, s.Node.Driver)
	set(&e.CUDA, s.Node.CUDA)
	set(&e.NVML, s.Node.NVML)
	set(&e.Source, s.Node.Source)
	e.HostData = e.HostData || s.Host != nil
	for i := range s.GPUs {
		e.Processes = e.Processes || len(s.GPUs[i].Procs) > 0
	}
}

func (b *builder) finish() *Report {
	r := &Report{
		File: b.opts.File, Format: b.opts.Format, Environment: b.env,
		Range:    Range{From: b.from, To: b.to, Seconds: b.to.Sub(b.from).Seconds(), Samples: b.samples},
		Warnings: append([]string(nil), b.opts.Warnings...),
	}
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
		g.Chart = &a.chart
		r.GPUs = append(r.GPUs, g)
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
		r.Environment.GPUModels = append(r.Environment.GPUModels, fmt.Sprintf("%d× %s", models[m], m))
	}
	r.Energy = energyTotal(r.GPUs, b.opts.PricePerKWh)
	b.jobs.finish(r.Energy)
	r.GPUHours = gpuHours(&b.hours)
	r.Findings, r.FindingsFrom = b.findings.finish(b.opts.Where)
	r.Sections = b.opts.Sections
	r.Topology = topologyOf(b.topo, b.topoGPUs)
	r.Warnings = append(r.Warnings, b.findings.warnings()...)
	r.Absent = absent(r)
	return r
}
