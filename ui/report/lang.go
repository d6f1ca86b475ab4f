package report

import (
	"fmt"
	"io"

	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/summary"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// Renderer writes reports in one language: the labels and figures' words
// from ui/i18n ("report.*"), the findings from their messages and the
// rules' first fixes translated. What the input itself says (file names,
// importer notes, topology lines) stays as it came.
type Renderer struct{ w words }

// In is the renderer in tr's language (the run's one translator, built by
// ui/cli).
func In(tr *i18n.Tr) Renderer { return Renderer{words{tr}} }

// Text, Markdown and HTML are the package functions in the renderer's language.
func (rr Renderer) Text(w io.Writer, r *summary.Report) error     { return rr.w.text(w, r) }
func (rr Renderer) Markdown(w io.Writer, r *summary.Report) error { return rr.w.markdown(w, r) }
func (rr Renderer) HTML(w io.Writer, r *summary.Report) error     { return rr.w.html(w, r) }

// words is one language's words for the renderers.
type words struct{ tr *i18n.Tr }

// t is message report.<id>, its {{.Fields}} filled from kv (name, value).
//
// Not inlined: a copy at each of its ~150 calls cost the binary 8 KB.
//
//go:noinline
func (l words) t(id string, kv ...any) string { return l.tr.Say("report."+id, kv...) }

// label is message id padded to w cells (a CJK character is two).
func (l words) label(id string, w int) string { return i18n.Pad(l.t(id), w) }

// finding is a report finding's title, evidence, estimate and first fix in
// the renderer's language.
func (l words) finding(f *summary.Finding) (title, evidence, estimated, hint string) {
	title, evidence, estimated = l.tr.Finding(diagnose.Finding{Title: f.Title, Evidence: f.Evidence, Estimated: f.Estimated, I18n: f.I18n})
	return title, evidence, estimated, l.tr.Fix(f.FixID, f.Hint)
}

func (l words) dist(d *summary.Dist) string {
	if d == nil {
		return na
	}
	return l.t("dist", "Mean", fmt.Sprintf("%.1f%%", d.Mean), "P5", fmt.Sprintf("%.1f%%", d.P5),
		"P50", fmt.Sprintf("%.1f%%", d.P50), "P95", fmt.Sprintf("%.1f%%", d.P95))
}

func (l words) mem(g *summary.GPU) string {
	if !g.MemPeak.OK || !g.MemTotal.OK || g.MemTotal.V <= 0 {
		return units.Spaced.GiB(g.MemPeak)
	}
	return l.t("mem", "Peak", units.Spaced.GiB(g.MemPeak), "Total", units.Spaced.GiB(g.MemTotal), "Pct", fmt.Sprintf("%.0f%%", 100*g.MemPeak.V/g.MemTotal.V))
}

func (l words) power(g *summary.GPU) string {
	s := l.t("power", "Mean", units.Spaced.Watts(g.PowerMean), "Max", units.Spaced.Watts(g.PowerMax))
	if g.PowerLimit.OK {
		s += l.t("power_limit", "Mean", units.Percent(g.PowerShareMean, 0), "Max", units.Percent(g.PowerShareMax, 0), "Limit", units.Spaced.Watts(g.PowerLimit))
	}
	return s
}

// energy is "0.412 kWh (energy counter)": how much and how it was measured.
func (l words) energy(g *summary.GPU) string {
	if !g.EnergyKWh.OK {
		return na
	}
	return l.t("energy", "KWh", kwh(g.EnergyKWh), "From", l.t("energy_from."+g.EnergyFrom))
}

// energyTotal is "1.23 kWh on 8 GPUs", with "(cost 0.15 at 0.12 per kWh)"
// when the report was given a price; "" without energy figures.
func (l words) energyTotal(r *summary.Report) string {
	e := r.Energy
	if e == nil {
		return ""
	}
	s := l.t("energy_total", "KWh", kwh(sampler.Some(e.KWh)), "GPUs", l.tr.N("report.gpu_count", e.GPUs))
	if e.Cost.OK {
		s += l.t("cost", "Cost", money(e.Cost.V), "Price", money(e.PricePerKWh))
	}
	return s
}

func (l words) throttle(g *summary.GPU) string {
	if !g.ThrottledSeconds.OK {
		return na
	}
	if g.ThrottledSeconds.V == 0 {
		return l.t("none")
	}
	return throttleSpan(g)
}

func (l words) where(gpu int) string {
	if gpu < 0 {
		return l.t("node")
	}
	return fmt.Sprintf("GPU %d", gpu)
}

func (l words) episodes(f *summary.Finding) string {
	return l.tr.N("report.episodes", f.Episodes, map[string]any{"Open": units.Seconds(f.OpenSeconds)})
}

func (l words) rangeOf(r summary.Range) string {
	return l.t("range_of", "From", stamp(r.From), "To", stamp(r.To), "Span", units.Seconds(r.Seconds), "Count", r.Samples)
}

func (l words) findingsFrom(r *summary.Report) string {
	if r.FindingsFrom == "recording" {
		return l.t("from_recording")
	}
	return l.t("from_recomputed")
}

// verdict is the comparison's one line in the renderer's language.
func (l words) verdict(c *summary.Comparison) string {
	return l.tr.Text(c.VerdictText(), c.Verdict())
}

// none is the findings section's line when there are none: "none" only
// where the rules had readings to judge (summary.Report.NoReading).
func (l words) none(r *summary.Report) string {
	if r.NoReading() {
		return l.t("none_unjudged")
	}
	return l.t("none")
}

func (l words) mdNone(r *summary.Report) string {
	if r.NoReading() {
		return l.t("md.none_unjudged")
	}
	return l.t("md.none")
}
