package summary

import (
	"slices"
	"time"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/timeline"
)

// Aligned sets a recording (or log) and profiler traces of the same node
// side by side by wall clock: for each trace, what the counters said while it
// ran, and whether its operators prove it. The counters name a cause from
// outside the process; the trace shows the operators, so where both speak
// the trace is the finer evidence.
type Aligned struct {
	Ranks []AlignedRank `json:"ranks"`
	// Unaligned are the traces that could not be set beside the counters,
	// each with why (no epoch in the trace, another time).
	Unaligned []Unaligned `json:"unaligned,omitempty"`
}

// AlignedRank is one trace and the counters' findings of its window.
type AlignedRank struct {
	Rank int       `json:"rank"` // -1: the trace names none
	File string    `json:"file"`
	GPU  int       `json:"gpu"` // the trace's CUDA device, taken as the counters' GPU index
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// Pairs are the counters' findings of the window and the trace's own,
	// matched by rule.
	Pairs []Pair `json:"pairs"`
}

// Unaligned is a trace left out of the alignment and why.
type Unaligned struct {
	Rank int          `json:"rank"`
	File string       `json:"file"`
	Why  diagnose.Msg `json:"why"`
}

// Pair is a finding of the counters, of the trace, or of both.
type Pair struct {
	Verdict  string            `json:"verdict"` // one of the Verdict constants
	Counters *Finding          `json:"counters,omitempty"`
	Trace    *timeline.Finding `json:"trace,omitempty"`
}

// What the trace says of a finding of the counters.
const (
	// VerdictConfirmed: the trace proves the same cause.
	VerdictConfirmed = "confirmed"
	// VerdictDecided: the counters could tell only that the GPU waited on
	// the host (host_wait); the trace names which wait.
	VerdictDecided = "decided"
	// VerdictDiffers: the trace proves another cause on that GPU and none
	// of the counters' one.
	VerdictDiffers = "differs"
	// VerdictNotInTrace: a cause a trace can show, absent from this one.
	VerdictNotInTrace = "not_in_trace"
	// VerdictInvisible: a cause no timeline shows (hardware, memory).
	VerdictInvisible = "invisible"
	// VerdictTraceOnly: the trace proves a cause the counters did not
	// report in its window.
	VerdictTraceOnly = "trace_only"
)

// alignSlack widens a trace's window by the report's diagnosis stride: the
// counters' findings open and close to within one stride
// (diagnose.Options.Every at 10 s in a report).
const alignSlack = 10 * time.Second

// Align sets t's ranks beside r's findings by wall clock.
func Align(r *Report, t *timeline.Report) *Aligned {
	out := &Aligned{}
	nodeShown := false
	for i := range t.Ranks {
		k := &t.Ranks[i]
		if k.From.IsZero() {
			out.Unaligned = append(out.Unaligned, Unaligned{k.Rank, k.File,
				diagnose.Say("align.no_epoch", "the trace writes no wall-clock epoch (Kineto's baseTimeNanoseconds, newer PyTorch), so it cannot be set beside the counters")})
			continue
		}
		from, to := k.From.Add(-alignSlack), k.To.Add(alignSlack)
		if to.Before(r.Range.From) || from.After(r.Range.To) {
			out.Unaligned = append(out.Unaligned, Unaligned{k.Rank, k.File,
				diagnose.Say("align.outside", "the trace ran {{.From}} – {{.To}}, outside the counters' {{.CFrom}} – {{.CTo}}",
					"From", k.From.Format(time.DateTime), "To", k.To.Format(time.DateTime),
					"CFrom", r.Range.From.Format(time.DateTime), "CTo", r.Range.To.Format(time.DateTime))})
			continue
		}
		ar := AlignedRank{Rank: k.Rank, File: k.File, GPU: k.GPU, From: k.From, To: k.To}
		var counters []*Finding
		for j := range r.Findings {
			f := &r.Findings[j]
			node := f.GPU < 0
			if (f.GPU == k.GPU || (node && !nodeShown)) && openDuring(f, from, to) {
				counters = append(counters, f)
			}
		}
		nodeShown = true // a node-wide finding is told once, beside the first trace
		var traced []*timeline.Finding
		for j := range t.Findings {
			if tf := &t.Findings[j]; tf.Rank == k.Rank {
				traced = append(traced, tf)
			}
		}
		ar.Pairs = pairUp(counters, traced)
		out.Ranks = append(out.Ranks, ar)
	}
	return out
}

// openDuring: one of f's openings overlaps [from, to].
func openDuring(f *Finding, from, to time.Time) bool {
	spans := f.Spans
	if len(spans) == 0 {
		spans = []Span{{f.FirstSeen, f.LastSeen}}
	}
	return slices.ContainsFunc(spans, func(s Span) bool { return !s.To.Before(from) && !s.From.After(to) })
}

// pairUp matches the counters' findings with the trace's by rule.
func pairUp(counters []*Finding, traced []*timeline.Finding) []Pair {
	var out []Pair
	used := make([]bool, len(traced))
	take := func(match func(*timeline.Finding) bool) *timeline.Finding {
		for i, tf := range traced {
			if !used[i] && match(tf) {
				used[i] = true
				return tf
			}
		}
		return nil
	}
	for _, f := range counters {
		p := Pair{Counters: f}
		switch {
		case !timeline.Proves(f.Rule):
			p.Verdict = VerdictInvisible
		default:
			if tf := take(func(tf *timeline.Finding) bool { return tf.Rule == f.Rule }); tf != nil {
				p.Verdict, p.Trace = VerdictConfirmed, tf
			} else if tf := take(func(tf *timeline.Finding) bool { return f.Rule == diagnose.RuleHostWait && hostWaitCause(tf.Rule) }); tf != nil {
				p.Verdict, p.Trace = VerdictDecided, tf
			} else if slices.Contains(used, false) {
				p.Verdict = VerdictDiffers
			} else {
				p.Verdict = VerdictNotInTrace
			}
		}
		out = append(out, p)
	}
	for i, tf := range traced {
		if !used[i] {
			out = append(out, Pair{Verdict: VerdictTraceOnly, Trace: tf})
		}
	}
	return out
}

// hostWaitCause: the waits host_wait cannot tell apart, which a trace can.
func hostWaitCause(rule string) bool {
	return rule == diagnose.RuleInputStarved || rule == diagnose.RuleSyncStall
}
