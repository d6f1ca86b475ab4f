package timeline

import (
	"cmp"
	"regexp"
	"sort"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/trace"
)

// Summary is what `nsys stats` summaries (sampler/trace.ReadStats) prove.
// They are totals per name with no timeline, so the temporal breakdown,
// idle time and its causes, overlap and steps are not judged: NotJudged
// says so in the report, never a zero.
type Summary struct {
	Kernels Kernels `json:"kernels"` // Count, TypeUS, Top, MedianUS, Under10/50, Matmul/TensorCore; no launch join
	// MedianFromMedians: MedianUS is the instance-weighted median of each
	// kernel name's own median (its Avg before nsys 2022), not of every
	// kernel's duration, which a summary does not carry.
	MedianFromMedians bool       `json:"median_from_medians"`
	KernelUS          float64    `json:"kernel_us"`
	Launches          int64      `json:"launch_calls"`
	LaunchUS          float64    `json:"launch_us"` // the launch calls' CPU time
	APIUS             float64    `json:"api_us"`    // all CUDA API time
	Syncs             []SyncStat `json:"syncs"`
	H2DMB, D2HMB      float64    `json:"-"`
	H2DUS, D2HUS      float64    `json:"-"`
	Findings          []Finding  `json:"findings"`
}

// NotJudged is what a summary cannot show, said beside its findings.
var NotJudged = diagnose.Say("timeline.summary.not_judged",
	"from a summary: no timeline, so idle time and its causes (input, syncs that waited, launch gaps), overlap and steps are not judged; pageable copies are not in the summaries")

// launchName: the calls that launch kernels, runtime and driver
// ([nsight-systems] counts both as launch API time).
var launchName = regexp.MustCompile(`^(cuda|cu)LaunchKernel`)

// APIName is a CUDA call's name without nsys' "_vNNNN" version suffix.
func APIName(name string) string {
	if i := strings.LastIndex(name, "_v"); i > 0 && strings.Trim(name[i+2:], "0123456789") == "" && i+2 < len(name) {
		return name[:i]
	}
	return name
}

// Summarise computes what s supports.
func Summarise(s *trace.Stats) Summary {
	var out Summary
	out.Kernels.TypeUS = map[string]float64{}
	if t := s.Table(trace.StatsKernels); t != nil {
		out.kernels(t.Rows)
	}
	if t := s.Table(trace.StatsAPI); t != nil {
		syncs := map[string]*SyncStat{}
		for _, r := range t.Rows {
			us, name := r.Total/1e3, APIName(r.Name)
			out.APIUS += us
			if launchName.MatchString(name) {
				out.Launches += r.Count
				out.LaunchUS += us
			}
			if isSync(name) {
				if syncs[name] == nil {
					syncs[name] = &SyncStat{Name: name}
				}
				syncs[name].Count += int(r.Count)
				syncs[name].TotalUS += us
			}
		}
		for _, v := range syncs {
			out.Syncs = append(out.Syncs, *v)
		}
		sort.Slice(out.Syncs, func(i, j int) bool { return cmp.Compare(out.Syncs[j].TotalUS, out.Syncs[i].TotalUS) < 0 })
	}
	for _, rep := range []trace.StatsReport{trace.StatsMemTime, trace.StatsMemSize} {
		if t := s.Table(rep); t != nil {
			for _, r := range t.Rows {
				v := r.Total / 1e3
				h2d, d2h := &out.H2DUS, &out.D2HUS
				if rep == trace.StatsMemSize {
					v, h2d, d2h = r.Total, &out.H2DMB, &out.D2HMB
				}
				switch {
				case strings.Contains(r.Name, "Host-to-Device"), strings.Contains(r.Name, "HtoD"):
					*h2d += v
				case strings.Contains(r.Name, "Device-to-Host"), strings.Contains(r.Name, "DtoH"):
					*d2h += v
				}
			}
		}
	}
	out.Findings = out.findings()
	return out
}

func (out *Summary) kernels(rows []trace.StatsRow) {
	k := &out.Kernels
	type med struct {
		us float64
		n  int64
	}
	var meds []med
	for _, r := range rows {
		us := r.Total / 1e3
		cl := classify(r.Name)
		out.KernelUS += us
		k.TypeUS[cl.typ] += us
		k.Count += int(r.Count)
		m := r.Med
		if !r.HasMed {
			m = r.Avg
		}
		meds = append(meds, med{m / 1e3, r.Count})
		k.Top = append(k.Top, KernelStat{Name: r.Name, Type: cl.typ, Count: int(r.Count), TotalUS: us})
		if cl.matmul {
			k.MatmulUS += us
			if cl.tensorCore {
				k.TensorCoreUS += us
			}
		}
	}
	for i := range k.Top {
		k.Top[i].Share = share(k.Top[i].TotalUS, out.KernelUS)
	}
	sort.SliceStable(k.Top, func(i, j int) bool { return cmp.Compare(k.Top[j].TotalUS, k.Top[i].TotalUS) < 0 })
	k.Top = k.Top[:min(len(k.Top), topN)]
	sort.Slice(meds, func(i, j int) bool { return cmp.Compare(meds[i].us, meds[j].us) < 0 })
	var seen int64
	for _, m := range meds {
		if seen < int64(k.Count+1)/2 && seen+m.n >= int64(k.Count+1)/2 {
			k.MedianUS = m.us
		}
		seen += m.n
		if m.us < 10 {
			k.Under10 += float64(m.n)
		}
		if m.us < 50 {
			k.Under50 += float64(m.n)
		}
	}
	if k.Count > 0 {
		k.Under10, k.Under50 = 100*k.Under10/float64(k.Count), 100*k.Under50/float64(k.Count)
	}
	out.MedianFromMedians = true
}

// classify is the timeline's class of a kernel name (classes.go), for a
// name met once.
func classify(name string) class {
	c := class{typ: kernelType(name)}
	c.matmul = c.typ == Compute && matmulName.MatchString(name)
	c.tensorCore = c.matmul && tensorCoreName.MatchString(name)
	return c
}

// findings: the causes the totals prove, each at Info (not confirmed: no
// timeline shows the GPU waiting) and worded with the timeline's messages.
func (out *Summary) findings() []Finding {
	var fs []Finding
	k, r := out.Kernels, Rank{Rank: -1}
	launchAvg := 0.0
	if out.Launches > 0 {
		launchAvg = out.LaunchUS / float64(out.Launches)
	}
	if k.Count >= minKernels && launchAvg > 0 && k.MedianUS < launchAvg && k.MedianUS < launchUS {
		title := diagnose.Say("timeline.launch.title", "{{.Who}}: {{.N}} kernels, median {{.Median}}", "Who", theSummary(), "N", k.Count, "Median", Dur(k.MedianUS))
		ev := diagnose.Text{diagnose.Say("timeline.summary.launch", "{{.N}} launch calls averaged {{.Avg}} on the CPU, longer than the median kernel; launches {{.Launch}} in all vs kernels {{.Kernels}}",
			"N", out.Launches, "Avg", Dur(launchAvg), "Launch", Dur(out.LaunchUS), "Kernels", Dur(out.KernelUS)), NotJudged}
		fs = append(fs, found(diagnose.RuleLaunchBound, r, false, title, ev, "launch"))
	}
	syncUS := 0.0
	for _, s := range out.Syncs {
		syncUS += s.TotalUS
	}
	if len(out.Syncs) > 0 && share(syncUS, out.APIUS) >= worthShare {
		title := diagnose.Say("timeline.summary.sync.title", "{{.Who}}: host syncs take {{.Share}} of the CUDA API time", "Who", theSummary(), "Share", pct(share(syncUS, out.APIUS)))
		var ev diagnose.Text
		for i, s := range out.Syncs[:min(3, len(out.Syncs))] {
			m := diagnose.Say("timeline.sync.call", "{{.N}}× {{.Name}} ({{.Total}})", "N", s.Count, "Name", s.Name, "Total", Dur(s.TotalUS))
			if i > 0 {
				m.Join = diagnose.Item
			}
			ev = append(ev, m)
		}
		fs = append(fs, found(diagnose.RuleSyncStall, r, false, title, append(ev, NotJudged), "sync"))
	}
	if k.MatmulUS > 0 && k.TensorCoreUS == 0 && share(k.MatmulUS, out.KernelUS) >= worthShare {
		top := ""
		for _, s := range k.Top {
			if classify(s.Name).matmul {
				top = s.Name
				break
			}
		}
		title := diagnose.Say("timeline.summary.tc.title", "{{.Who}}: matrix multiplies run without tensor cores, {{.Share}} of kernel time",
			"Who", theSummary(), "Share", pct(share(k.MatmulUS, out.KernelUS)))
		ev := diagnose.Text{diagnose.Say("timeline.tc.ev", "GEMM/convolution kernels {{.Matmul}}, none a tensor-core variant (the longest: {{.Kernel}})",
			"Matmul", Dur(k.MatmulUS), "Kernel", ShortName(top)),
			diagnose.Say("timeline.summary.tc.gpu", "a summary names no GPU: this holds on one with tensor cores (compute capability 7.0 or later)")}
		fs = append(fs, found(diagnose.RuleTensorCoresIdle, r, false, title, ev, "amp"))
	}
	return fs
}

// theSummary names a summary's findings' source, as who names a trace's.
func theSummary() diagnose.Msg { return diagnose.Say("timeline.the_summary", "the summary") }
