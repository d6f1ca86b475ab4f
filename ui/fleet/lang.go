package fleet

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/diagnose"
	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fleetsnap"
	"github.com/gpuscope/gpuscope/sampler/units"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// words is the fleet view's language: its labels from ui/i18n ("fleet.*"),
// the fleet findings from their messages, in the run's one translator.
type words struct{ tr *i18n.Tr }

// t is message fleet.<id> with its fields from kv (name, value).
func (l words) t(id string, kv ...any) string { return l.tr.Say("fleet."+id, kv...) }

// title is a fleet finding's title in the view's language.
func (l words) title(f fleetdiag.Finding) string {
	if f.I18n == nil {
		return f.Title
	}
	return l.tr.Text([]diagnose.Msg{*f.I18n}, f.Title)
}

// pad is s padded (or cut) to w cells; right aligns it.
func pad(s string, w int, right bool) string {
	s = ansi.Truncate(s, w, "…")
	if right {
		return strings.Repeat(" ", max(0, w-ansi.StringWidth(s))) + s
	}
	return i18n.Pad(s, w)
}

// summary is the header line.
func (l words) summary(v View) string {
	c := v.Counts
	return l.t("summary", "Nodes", l.tr.N("fleet.nodes", c.Nodes), "Up", c.NodesUp, "NodesDown", c.NodesDown, "GPUs", l.tr.N("gpus.count", c.GPUs), "Busy", c.Busy, "Idle", c.Idle, "Down", c.Down)
}

// header is the column line over row.
func (l words) header(nameWidth int) string {
	return fmt.Sprintf("%s %s %s %s %s %s  %s", pad(l.t("col.node"), nameWidth, false), pad(l.t("col.gpus"), 8, false),
		pad(l.t("col.busy"), 7, true), pad(l.t("col.mem"), 8, true), pad(l.t("col.waste"), 9, true),
		pad(l.t("col.energy"), 10, true), l.t("col.findings"))
}

// row is one node's line, without colour.
func (l words) row(n fleetsnap.Node, nameWidth int) string {
	var cells strings.Builder
	busy, held := 0, 0.0
	for _, g := range n.GPUs {
		cells.WriteRune(Cell(g, n.Up))
		if g.Util.Or(0) >= fleetdiag.BusyUtil {
			busy++
		}
		held += g.MemUsed.Or(0)
	}
	name := nameCell(n.Name, nameWidth)
	if !n.Up && n.DownReason != "" {
		return fmt.Sprintf("%s %-8s %s", name, cells.String(), l.t("down_reason", "Target", n.Key.Instance, "Reason", n.DownReason))
	}
	if !n.Up {
		return fmt.Sprintf("%s %-8s %s", name, cells.String(), l.t("down_target", "Target", n.Key.Instance))
	}
	return fmt.Sprintf("%s %-8s %3d/%-3d %8s %7.1f h %6.1f kWh  %s", name, cells.String(), busy, len(n.GPUs),
		units.Compact.Bytes(sampler.Some(held)), n.WasteGPUHours, n.EnergyKWh, findingsCell(l, n))
}

// from is where a node's findings came from, in words.
// where names a finding's place: its GPU, or the node for a node-wide one
// (GPU -1 in the data, never on screen).
func (l words) where(gpu int) string {
	if gpu < 0 {
		return l.t("node")
	}
	return fmt.Sprintf("GPU %d", gpu)
}

func (l words) from(from string) string {
	switch from {
	case fleetdiag.FromExporter:
		return l.t("from_exporter")
	case fleetdiag.FromDCGM:
		return l.t("from_dcgm")
	}
	return from
}

// nameCell is a node's name in w cells: padded, or cut with "…" by
// display width (a CJK character is two cells), never inside a character.
func nameCell(name string, w int) string {
	return i18n.Pad(ansi.Truncate(name, w, "…"), w)
}

// span says how much history the windowed figures cover when the source
// keeps less than the hour (`--nodes`); "" when it keeps it all.
func (l words) span(f fleetsnap.Fleet) string {
	if f.Span <= 0 {
		return ""
	}
	return l.t("span", "Span", shortDur(f.Span.Round(time.Second)), "Mean", shortDur(fleetsnap.MeanWindow))
}

// shortDur is d as Go writes it, without a zero tail: 5m, 1h2m, 40s.
func shortDur(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
