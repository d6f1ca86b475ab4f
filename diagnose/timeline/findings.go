package timeline

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/sampler/stat"
)

// Finding is a cause a rank's timeline proves, under the id of the
// dashboard's rule for it, so a live candidate ("input_starved or
// sync_stall") is confirmed or not by the trace.
type Finding struct {
	Rule     string            `json:"rule"`
	Severity diagnose.Severity `json:"severity"`
	Rank     int               `json:"rank"` // -1: the trace names none
	// Confirmed: an operator or call in the trace names the cause; false
	// when only the figures point at it.
	Confirmed bool                  `json:"confirmed"`
	Title     string                `json:"title"`
	Evidence  string                `json:"evidence"`
	Hint      string                `json:"hint"`
	FixID     string                `json:"fix_id,omitempty"`
	I18n      *diagnose.FindingText `json:"i18n,omitempty"`
}

// Thresholds, each from the tool that reads the same figure.
const (
	// loaderStepShare: DataLoader time above 5% of a step → num_workers
	// ([torch-tb-profiler] recommendations).
	loaderStepShare = 5.0
	// worthShare: a cause smaller than 5% of the trace is not reported,
	// the share [torch-tb-profiler] takes as worth acting on for the
	// DataLoader.
	worthShare = 5.0
	// lowUtilIdle: GPU utilisation under 50% is low ([torch-tb-profiler],
	// [nsight-systems] GPU Low Utilization), i.e. idle over half the trace.
	lowUtilIdle = 50.0
	// dominant: a cause holding more than half of the idle time is the
	// cause (our choice: the majority, [hta-docs] §Idle time splits it).
	dominant = 50.0
	// commShare: communication above 10% of the step time ([torch-tb-profiler]);
	// here the part no computation kernel overlaps ([hta-docs] §Overlap).
	commShare = 10.0
	// copyShare: copies over a tenth of the trace (our choice, the
	// communication line of [torch-tb-profiler]); pageable ones as
	// [nsight-systems]' pageable-memcpy rule.
	copyShare = 10.0
	// shortShare, launchUS: most kernels shorter than their launch call,
	// with the median kernel under the 20 µs a launch takes on the CPU
	// ([hta-docs] §Launch stats: launches take 5-20 µs; short GPU kernels).
	shortShare = 50.0
	launchUS   = 20.0
	// minKernels: fewer kernels say little about a distribution (our choice).
	minKernels = 100
	// tensorCoreMajor: tensor cores from compute capability 7.0
	// ([torch-tb-profiler]: the AMP recommendation needs computeMajor ≥ 7).
	tensorCoreMajor = 7
)

// Findings are what the ranks' timelines prove, per rank and across them
// (the straggler), worst first.
func Findings(ranks []Rank) []Finding {
	var out []Finding
	for _, r := range ranks {
		out = append(out, rankFindings(r)...)
	}
	if f, ok := straggler(ranks); ok {
		out = append(out, f)
	}
	order := func(a, b *Finding) int {
		if c := cmp.Compare(b.Severity, a.Severity); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Rank, b.Rank); c != 0 {
			return c
		}
		return cmp.Compare(diagnose.RuleOrder(a.Rule), diagnose.RuleOrder(b.Rule))
	}
	sort.SliceStable(out, func(i, j int) bool { return order(&out[i], &out[j]) < 0 })
	return out
}

func rankFindings(r Rank) []Finding {
	var out []Finding
	sync, synced := syncStall(r)
	if synced {
		out = append(out, sync)
	}
	if f, ok := inputStarved(r, synced); ok {
		out = append(out, f)
	}
	for _, rule := range []func(Rank) (Finding, bool){launchBound, commBound, copyBound, tensorCoresIdle} {
		if f, ok := rule(r); ok {
			out = append(out, f)
		}
	}
	return out
}

// found builds a finding from its messages and its first fix's key.
func found(rule string, r Rank, confirmed bool, title diagnose.Msg, ev diagnose.Text, fix string) Finding {
	sev := diagnose.Warning
	if !confirmed {
		sev = diagnose.Info
	}
	return Finding{Rule: rule, Severity: sev, Rank: r.Rank, Confirmed: confirmed, Title: title.English(),
		Evidence: ev.String(), Hint: diagnose.FirstFix(fix), FixID: fix, I18n: &diagnose.FindingText{Title: title, Evidence: ev}}
}

// who names the rank in a finding's words.
func who(rank int) diagnose.Msg {
	if rank < 0 {
		return diagnose.Say("timeline.the_trace", "the trace")
	}
	return diagnose.Say("timeline.rank", "rank {{.Rank}}", "Rank", rank)
}

// Not inlined: a copy at each call site cost the binary (docs/benchmarks.md,
// "Recordings: the report read from the footer").
//
//go:noinline
func pct(v float64) string { return fmt.Sprintf("%.0f%%", v) }

// Dur is a trace time (µs) as the evidence and the report print it.
func Dur(us float64) string {
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%.2f s", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%.1f ms", us/1e3)
	}
	return fmt.Sprintf("%.0f µs", us)
}

// MainStream is the stream with the most computation, where the training
// loop's kernels run; its idle breakdown is the one that speaks for the
// rank (NCCL and copy streams idle most of the trace by design).
func (r Rank) MainStream() (StreamIdle, bool) {
	if len(r.Idle) == 0 {
		return StreamIdle{}, false
	}
	return slices.MaxFunc(r.Idle, func(a, b StreamIdle) int { return cmp.Compare(a.ComputeUS, b.ComputeUS) }), true
}

// idleHost is the rank's idle share and the main stream's host-wait share.
func idleHost(r Rank) diagnose.Msg {
	host, kernel := 0.0, 0.0
	if s, ok := r.MainStream(); ok {
		host, kernel, _ = s.IdleShare()
	}
	return diagnose.Say("timeline.idle_host", "GPU idle {{.Idle}} of the trace; on its main stream {{.Host}} of the idle waits for the host, {{.Kernel}} between queued kernels",
		"Idle", pct(r.Breakdown.Share(r.Breakdown.IdleUS)), "Host", pct(host), "Kernel", pct(kernel))
}

// straggler: the rank with ≥ 1.3× the others' median computation per step
// (diagnose.StragglerRatio, [pytorch-hta] compares ranks the same way): the
// others wait for it in their collectives.
func straggler(ranks []Rank) (Finding, bool) {
	if len(ranks) < 2 {
		return Finding{}, false
	}
	top := 0
	for i, r := range ranks {
		if r.Causes.ComputePerStepUS > ranks[top].Causes.ComputePerStepUS {
			top = i
		}
	}
	var others, steps []float64
	for i, r := range ranks {
		if i != top {
			others, steps = append(others, r.Causes.ComputePerStepUS), append(steps, r.StepMedianUS)
		}
	}
	mine, theirs := ranks[top].Causes.ComputePerStepUS, stat.Percentile(others, 50)
	if theirs <= 0 || mine < diagnose.StragglerRatio*theirs {
		return Finding{}, false
	}
	r := ranks[top]
	title := diagnose.Say("timeline.straggler.title", "{{.Who}} is the straggler: {{.Mine}} of computation per step vs {{.Theirs}} on the other {{.N}} {{plural .N \"rank\" \"ranks\"}}",
		"Who", who(r.Rank), "Mine", Dur(mine), "Theirs", Dur(theirs), "N", len(others))
	ev := diagnose.Text{diagnose.Say("timeline.straggler.ev", "step median {{.Step}} vs {{.Others}} on the others, which wait for it in their collectives",
		"Step", Dur(r.StepMedianUS), "Others", Dur(stat.Percentile(steps, 50)))}
	return found(diagnose.RuleStraggler, r, true, title, ev, "straggler"), true
}

func strconvF(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// ShortName cuts a C++ kernel name at its template or argument list: the
// name is what a reader looks up.
func ShortName(name string) string {
	name = strings.TrimPrefix(name, "void ")
	if i := strings.IndexAny(name, "(<"); i > 0 {
		name = name[:i]
	}
	if len(name) > 60 {
		name = name[:57] + "..."
	}
	return name
}
