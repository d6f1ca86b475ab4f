// Package fleet renders a GPU fleet read from Prometheus: one row per node,
// one cell per GPU coloured by utilisation, sorted by waste, with the fleet's
// findings and each node's. It gets plain values (promsource.Fleet and the
// fleetdiag results) from a loader main injects: it never queries Prometheus.
package fleet

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/diagnose/fleetdiag"
	"github.com/gpuscope/gpuscope/sampler/promsource"
)

// View is what one refresh yields.
type View struct {
	Source   string // the server's URL
	Fleet    promsource.Fleet
	Counts   fleetdiag.Counts
	Findings []fleetdiag.Finding
	// Nodes holds each node's diagnosis, by key.
	Nodes   map[promsource.NodeKey]fleetdiag.NodeResult
	IdleFor time.Duration
	// Undiagnosed counts dcgm-exporter-only nodes this refresh did not
	// diagnose (beyond the cap); opening one diagnoses it.
	Undiagnosed int
}

// NewView tallies and diagnoses a fleet.
func NewView(source string, f promsource.Fleet, idleFor time.Duration, nodes map[promsource.NodeKey]fleetdiag.NodeResult) View {
	return View{Source: source, Fleet: f, Counts: fleetdiag.Count(f), Findings: fleetdiag.Fleet(f, idleFor), Nodes: nodes, IdleFor: idleFor}
}

// cellRunes shade a GPU's cell by utilisation, eighths from ▁ to █.
var cellRunes = []rune("▁▂▃▄▅▆▇█")

// Cell is one GPU's character: its utilisation, · when unknown, × when
// its node is down.
func Cell(g promsource.GPU, up bool) rune {
	switch {
	case !up:
		return '×'
	case !g.Util.OK:
		return '·'
	}
	i := int(g.Util.V / 100 * float64(len(cellRunes)))
	return cellRunes[min(max(i, 0), len(cellRunes)-1)]
}

// Summary is the header line.
func (v View) Summary() string {
	c := v.Counts
	return fmt.Sprintf("%d nodes: %d up, %d down · %d GPUs: %d busy, %d idle, %d down",
		c.Nodes, c.NodesUp, c.NodesDown, c.GPUs, c.Busy, c.Idle, c.Down)
}

// Row is one node's line, without colour.
func Row(n promsource.Node, nameWidth int) string {
	var cells strings.Builder
	busy, held := 0, 0.0
	for _, g := range n.GPUs {
		cells.WriteRune(Cell(g, n.Up))
		if g.Util.Or(0) >= fleetdiag.BusyUtil {
			busy++
		}
		held += g.MemUsed.Or(0)
	}
	name := n.Name
	if len(name) > nameWidth {
		name = name[:nameWidth-1] + "…"
	}
	if !n.Up {
		return fmt.Sprintf("%-*s %-8s DOWN (target %s)", nameWidth, name, cells.String(), n.Key.Instance)
	}
	return fmt.Sprintf("%-*s %-8s %3d/%-3d %8s %7.1f h  %s", nameWidth, name, cells.String(), busy, len(n.GPUs),
		gib(held), n.WasteGPUHours, findingsCell(n))
}

func gib(b float64) string { return fmt.Sprintf("%.1fG", b/(1<<30)) }

func findingsCell(n promsource.Node) string {
	var parts []string
	for _, f := range n.Findings {
		parts = append(parts, fmt.Sprintf("%s(GPU %d)", f.Rule, f.GPU))
	}
	return strings.Join(parts, " ")
}

// Header is the column line over Row.
func Header(nameWidth int) string {
	return fmt.Sprintf("%-*s %-8s %7s %8s %9s  %s", nameWidth, "NODE", "GPUS", "BUSY", "MEM", "WASTE 1h", "FINDINGS")
}

func nameWidth(f promsource.Fleet) int {
	w := 12
	for _, n := range f.Nodes {
		w = max(w, min(len(n.Name), 40))
	}
	return w
}

var severityMark = map[string]string{"critical": "✖", "warning": "▲", "info": "●"}

// WriteText prints the fleet for --once: summary, rows, fleet findings and
// each node's findings with where they came from.
func WriteText(w io.Writer, v View) error {
	var b strings.Builder
	fmt.Fprintf(&b, "gpuscope fleet · %s · %s\n", v.Source, v.Summary())
	nw := nameWidth(v.Fleet)
	b.WriteString(Header(nw) + "\n")
	for _, n := range v.Fleet.Nodes {
		b.WriteString(Row(n, nw) + "\n")
	}
	if len(v.Fleet.Nodes) == 0 {
		b.WriteString("(no target exported GPU series in the last hour: is the selector right?)\n")
	}
	b.WriteString("\nFleet findings\n")
	if len(v.Findings) == 0 {
		b.WriteString("  none\n")
	}
	for _, f := range v.Findings {
		fmt.Fprintf(&b, "  %s %s: %s\n", severityMark[f.Severity.String()], f.Title, strings.Join(f.Nodes, ", "))
	}
	b.WriteString("\nNode findings\n")
	any := false
	for _, n := range v.Fleet.Nodes {
		r, ok := v.Nodes[n.Key]
		if !ok || !n.Up {
			continue
		}
		for _, f := range r.Findings {
			any = true
			where := fmt.Sprintf("GPU %d", f.GPU)
			if f.GPU < 0 {
				where = "node"
			}
			fmt.Fprintf(&b, "  %s %-20s %s %s (%s)\n", severityMark[f.Severity.String()], n.Name, where, f.Rule, r.From)
		}
		if len(r.NeedsHost) > 0 {
			fmt.Fprintf(&b, "  · %-20s %s need host data: run `gpuscope serve` on the node\n", n.Name, strings.Join(r.NeedsHost, ", "))
		}
	}
	if !any {
		b.WriteString("  none open\n")
	}
	if v.Undiagnosed > 0 {
		fmt.Fprintf(&b, "  · %d more nodes with dcgm-exporter only were not diagnosed here (the most wasteful are); open one to diagnose it\n", v.Undiagnosed)
	}
	for _, p := range v.Fleet.Problems {
		fmt.Fprintf(&b, "problem: %s\n", p)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
