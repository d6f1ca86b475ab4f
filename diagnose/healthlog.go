package diagnose

import (
	"slices"
	"time"
)

// HealthLog remembers the hardware-health findings (RuleInfo.Immediate: an
// Xid, a GPU fallen off the bus, ECC, PCIe errors, thermal slowdown, the
// fabric) that a run of frames saw. A verdict over the run is the last
// frame's findings, and the engine closes a finding once its condition
// clears: without this, a GPU lost mid-check and reset before its end
// would pass the check.
type HealthLog struct {
	seen map[Key]seenHealth
}

type seenHealth struct {
	f           Finding // the worst sighting
	first, last time.Time
}

// Observe takes one frame of the run.
func (h *HealthLog) Observe(fr Frame) {
	for _, f := range fr.Findings() {
		if !immediate(f.Rule) || f.Severity < Warning {
			continue
		}
		if h.seen == nil {
			h.seen = map[Key]seenHealth{}
		}
		s, ok := h.seen[f.Key()]
		if !ok {
			s.first = fr.Snapshot.Time
		}
		if !ok || f.Severity >= s.f.Severity {
			s.f = f
		}
		s.last = fr.Snapshot.Time
		h.seen[f.Key()] = s
	}
}

// Verdict is final's findings plus each health finding the run saw that is
// no longer open at its end, its evidence saying when it was open, ranked.
func (h *HealthLog) Verdict(final []Finding) []Finding {
	out := slices.Clone(final)
	for k, s := range h.seen {
		if slices.ContainsFunc(final, func(f Finding) bool { return f.Key() == k }) {
			continue
		}
		f := s.f
		gone := say("health.gone", "open {{.From}} to {{.To}} of the run and gone by its end: the GPU may need a reset or a check all the same",
			"From", s.first.Format(time.TimeOnly), "To", s.last.Format(time.TimeOnly))
		f.Evidence += "; " + gone.English()
		if f.I18n != nil {
			t := *f.I18n
			t.Evidence = append(slices.Clip(t.Evidence), gone)
			f.I18n = &t
		}
		out = append(out, f)
	}
	Rank(out)
	return out
}
