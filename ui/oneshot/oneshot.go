// Package oneshot renders one snapshot as plain text for `gpuscope --once`:
// a compact, paste-into-chat view of every GPU and its processes (like
// gpustat), with n/a where a reading is unavailable. Its words are
// ui/i18n's (once.*), in English or Chinese; figures and units are the same
// in both.
package oneshot

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/units"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// WriteLang prints the snapshot in tr's language. Lines never depend on
// terminal width. Outside strings (command lines, user and host names) are
// escaped (sampler/safe): the terminal shows control characters, never
// obeys them.
func WriteLang(w io.Writer, s sampler.Snapshot, tr *i18n.Tr) error {
	return writeSnapshot(w, s, words{tr})
}

// writeSnapshot is WriteLang with its words already read (check prints
// the snapshot, then its verdict, in one language).
func writeSnapshot(w io.Writer, s sampler.Snapshot, t words) error {
	tr := t.tr
	s = safe.Clean(s)
	var b strings.Builder
	n := s.Node
	fmt.Fprintf(&b, "%s  %s %s  CUDA %s  %s  %s  [%s]\n",
		orNA(n.Hostname), t.w("driver"), orNA(n.Driver), orNA(n.CUDA), t.gpus(len(s.GPUs)), s.Time.Format("2006-01-02 15:04:05"), n.Source)
	if e := n.GPUError; e != nil {
		fmt.Fprintf(&b, "%s%s: %s\n", t.w("no_gpu"), e.Tried, e.Err)
		for i := range e.Causes {
			fmt.Fprintf(&b, "  - %s\n", tr.Cause(e, i))
		}
		b.WriteString("  " + t.w("try_demo") + "\n")
	}
	if n.ProcsFrom != "" {
		b.WriteString(t.with("procs_from", map[string]any{"Path": n.ProcsFrom}) + "\n")
	}
	uw := userWidth(s)
	for _, g := range s.GPUs {
		writeGPU(&b, t, g, uw)
	}
	if h := s.Host; h != nil {
		fmt.Fprintf(&b, "%s  %s %s  %s %s  %s %s  %s %s/%s\n", t.w("host"), t.w("cpu"), units.Percent(h.CPU, 0), t.w("iowait"), units.Percent(h.IOWait, 0),
			t.w("load"), units.Number(h.Load1, 1), t.w("host_mem"), units.Compact.GiB(h.MemUsed), units.Compact.GiB(h.MemTotal))
	}
	for _, p := range s.Problems {
		fmt.Fprintf(&b, "%s%s\n", t.w("problem"), firstLine(p))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// words are the --once messages (once.<id>) of one language.
type words struct{ tr *i18n.Tr }

func (t words) w(id string) string { return t.tr.T("once." + id) }

func (t words) with(id string, data map[string]any) string { return t.tr.T("once."+id, data) }

func (t words) n(id string, n int) string { return t.tr.N("once."+id, n) }

// gpus is "1 GPU", "8 GPUs" (English keeps "0 GPUs" here, as it always did).
func (t words) gpus(n int) string { return t.tr.N("gpus.count", n) }

func writeGPU(b *strings.Builder, t words, g sampler.GPU, userW int) {
	name := strings.TrimPrefix(g.Name, "NVIDIA ")
	if g.Lost {
		fmt.Fprintf(b, "[%d] %-14s %s\n", g.Index, name, t.w("lost"))
		return
	}
	throttle := ""
	if g.ClockEvents.Throttled() {
		throttle = "  " + t.w("throttle") + " " + g.ClockEvents.String()
	}
	throttle += health(t, g)
	fmt.Fprintf(b, "[%d] %-14s %s %4s  %s %4s  %s %4s  %s %s/%s  %4s  %s/%s  %s  %s %s %s %s %s%s\n",
		g.Index, name, t.w("util"), units.Percent(g.Util, 0), t.w("sm"), units.Percent(g.SMActive, 0), t.w("tensor"), units.Percent(g.TensorActive, 0),
		t.w("mem"), units.Compact.GiB(g.MemUsed), units.Compact.GiB(g.MemTotal), units.Compact.Celsius(g.Temp), units.Compact.Watts(g.Power), units.Compact.Watts(g.PowerLimit),
		units.Compact.Whole(g.SMClock, "MHz"), t.w("pcie"), t.w("rx"), units.Compact.Scaled(g.PCIeRx, 1e9, 2, "GB/s"), t.w("tx"), units.Compact.Scaled(g.PCIeTx, 1e9, 2, "GB/s"), throttle)
	if g.MIG {
		fmt.Fprintf(b, "      %s\n", t.with("mig_on", map[string]any{"Instances": t.n("instances", len(g.MIGDevices))}))
	}
	for _, d := range g.MIGDevices {
		fmt.Fprintf(b, "      mig %d %-9s gi %d ci %d  %s %s/%s  %s %s  %s %s  %s\n",
			d.Index, d.Profile, d.GPUInstance, d.ComputeInstance, t.w("mem"), units.Compact.GiB(d.MemUsed), units.Compact.GiB(d.MemTotal),
			t.w("sm"), units.Percent(d.SMActive, 0), t.w("tensor"), units.Percent(d.TensorActive, 0), t.n("processes", len(d.Procs)))
	}
	for _, p := range g.Procs {
		user, cmd := "?", ""
		if p.Host != nil {
			user, cmd = p.Host.User, containerOf(p.Host)+p.Host.Cmdline
			if n := len(p.Host.Children); n > 0 {
				cmd += " " + t.with("with_children", map[string]any{"Children": t.n("children", n)})
			}
		}
		// Pasted, not fitted to a terminal: the user column is as wide as the
		// snapshot's longest name, and the command line is whole.
		fmt.Fprintf(b, "      %s %-7d %s %-3s %s %s  %s %s  %s\n", t.w("pid"), p.PID, i18n.Pad(user, userW), p.Type,
			t.w("mem"), units.Compact.GiB(p.MemUsed), t.w("util"), units.Percent(p.SMUtil, 0), cmd)
	}
}

// containerOf is where a process runs, before its command as in the
// dashboard: "[namespace/pod/container] " where the kubelet named its pod,
// "[short id] " for another container, "" on the host.
func containerOf(h *sampler.Proc) string {
	switch {
	case h.Pod.Name != "":
		return "[" + h.Pod.Namespace + "/" + h.Pod.Name + "/" + h.Pod.Container + "] "
	case h.Container != "":
		return "[" + h.Container + "] "
	}
	return ""
}

func orNA(s string) string {
	if s == "" {
		return units.NA
	}
	return s
}

// userWidth is the user column's width in cells: the longest user name
// of the snapshot's processes, at least 8 (a CJK character is two cells).
func userWidth(s sampler.Snapshot) int {
	w := 8
	for _, g := range s.GPUs {
		for _, p := range g.Procs {
			if p.Host != nil {
				w = max(w, ansi.StringWidth(p.Host.User))
			}
		}
	}
	return w
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// health flags what a one-line reading should not hide: a link trained below
// its maximum while busy, uncorrectable ECC errors, remaps, Xid events.
func health(t words, g sampler.GPU) string {
	var out string
	if g.PCIeGen.OK && g.PCIeGenMax.OK && g.PCIeWidth.OK && g.PCIeWidthMax.OK && g.Util.Or(0) >= 50 &&
		(g.PCIeGen.V < g.PCIeGenMax.V || g.PCIeWidth.V < g.PCIeWidthMax.V) {
		out += "  " + t.with("link", map[string]any{"Now": fmt.Sprintf("Gen%.0f x%.0f", g.PCIeGen.V, g.PCIeWidth.V),
			"Max": fmt.Sprintf("Gen%.0f x%.0f", g.PCIeGenMax.V, g.PCIeWidthMax.V)})
	}
	if g.ECCUncorrected.Or(0) > 0 {
		out += "  " + t.with("ecc", map[string]any{"N": fmt.Sprintf("%.0f", g.ECCUncorrected.V)})
	}
	if g.RemapFailed {
		out += "  " + t.w("remap_failed")
	} else if g.RemapPending {
		out += "  " + t.w("remap_pending")
	}
	for _, x := range g.Xids {
		out += fmt.Sprintf("  Xid %d", x.Code)
	}
	return out
}
