// Package oneshot renders one snapshot as plain text for `gpuscope --once`:
// a compact, paste-into-chat view of every GPU and its processes (like
// gpustat), with n/a where a reading is unavailable.
package oneshot

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/safe"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// Write prints the snapshot. Lines never depend on terminal width.
// Outside strings (command lines, user and host names) are escaped
// (sampler/safe): the terminal shows control characters, never obeys them.
func Write(w io.Writer, s sampler.Snapshot) error {
	s = safe.Clean(s)
	var b strings.Builder
	n := s.Node
	fmt.Fprintf(&b, "%s  driver %s  CUDA %s  %s  %s  [%s]\n",
		orNA(n.Hostname), orNA(n.Driver), orNA(n.CUDA), plural(len(s.GPUs), "GPU"), s.Time.Format("2006-01-02 15:04:05"), n.Source)
	if e := n.GPUError; e != nil {
		fmt.Fprintf(&b, "no GPU: %s: %s\n", e.Tried, e.Err)
		for _, c := range e.Causes {
			fmt.Fprintf(&b, "  - %s\n", c)
		}
		b.WriteString("  try `gpuscope --demo` for a simulated node, or `gpuscope doctor`\n")
	}
	for _, g := range s.GPUs {
		writeGPU(&b, g)
	}
	if h := s.Host; h != nil {
		fmt.Fprintf(&b, "host  cpu %s  iowait %s  load %s  mem %s/%s\n",
			pct(h.CPU), pct(h.IOWait), num(h.Load1, 1), gib(h.MemUsed), gib(h.MemTotal))
	}
	for _, p := range s.Problems {
		fmt.Fprintf(&b, "problem: %s\n", firstLine(p))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeGPU(b *strings.Builder, g sampler.GPU) {
	name := strings.TrimPrefix(g.Name, "NVIDIA ")
	if g.Lost {
		fmt.Fprintf(b, "[%d] %-14s LOST (fell off the bus; see dmesg | grep -i xid)\n", g.Index, name)
		return
	}
	throttle := ""
	if g.ClockEvents.Throttled() {
		throttle = "  THROTTLE " + g.ClockEvents.String()
	}
	throttle += health(g)
	fmt.Fprintf(b, "[%d] %-14s util %4s  sm %4s  tensor %4s  mem %s/%s  %4s  %s/%s  %s  pcie rx %s tx %s%s\n",
		g.Index, name, pct(g.Util), pct(g.SMActive), pct(g.TensorActive),
		gib(g.MemUsed), gib(g.MemTotal), celsius(g.Temp), watts(g.Power), watts(g.PowerLimit),
		mhz(g.SMClock), rate(g.PCIeRx), rate(g.PCIeTx), throttle)
	if g.MIG {
		fmt.Fprintf(b, "      MIG on: GPU-Util and per-process util are not available; %s\n", plural(len(g.MIGDevices), "instance"))
	}
	for _, d := range g.MIGDevices {
		fmt.Fprintf(b, "      mig %d %-9s gi %d ci %d  mem %s/%s  sm %s  tensor %s  %s\n",
			d.Index, d.Profile, d.GPUInstance, d.ComputeInstance, gib(d.MemUsed), gib(d.MemTotal), pct(d.SMActive), pct(d.TensorActive), pluralOf(len(d.Procs), "process", "processes"))
	}
	for _, p := range g.Procs {
		user, cmd := "?", ""
		if p.Host != nil {
			user, cmd = p.Host.User, containerOf(p.Host)+p.Host.Cmdline
			if n := len(p.Host.Children); n > 0 {
				cmd += fmt.Sprintf(" (+%s)", pluralOf(n, "child", "children"))
			}
		}
		// The user column is cut, not widened, so the columns stay put.
		fmt.Fprintf(b, "      pid %-7d %-8s %-3s mem %s  sm %s  %s\n", p.PID, truncate(user, 8), p.Type, gib(p.MemUsed), pct(p.SMUtil), truncate(cmd, 80))
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

// The --once table is a table of cells, like the dashboard's: sampler/units'
// compact form ("62°C", "650W").
func pct(m sampler.Metric) string           { return units.Percent(m, 0) }
func celsius(m sampler.Metric) string       { return units.Compact.Celsius(m) }
func watts(m sampler.Metric) string         { return units.Compact.Watts(m) }
func mhz(m sampler.Metric) string           { return units.Compact.Whole(m, "MHz") }
func gib(m sampler.Metric) string           { return units.Compact.GiB(m) }
func rate(m sampler.Metric) string          { return units.Compact.Scaled(m, 1e9, 2, "GB/s") }
func num(m sampler.Metric, prec int) string { return units.Number(m, prec) }

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// health flags what a one-line reading should not hide: a link trained below
// its maximum while busy, uncorrectable ECC errors, remaps, Xid events.
func health(g sampler.GPU) string {
	var out string
	if g.PCIeGen.OK && g.PCIeGenMax.OK && g.PCIeWidth.OK && g.PCIeWidthMax.OK && g.Util.Or(0) >= 50 &&
		(g.PCIeGen.V < g.PCIeGenMax.V || g.PCIeWidth.V < g.PCIeWidthMax.V) {
		out += fmt.Sprintf("  LINK Gen%.0f x%.0f of Gen%.0f x%.0f", g.PCIeGen.V, g.PCIeWidth.V, g.PCIeGenMax.V, g.PCIeWidthMax.V)
	}
	if g.ECCUncorrected.Or(0) > 0 {
		out += fmt.Sprintf("  ECC %.0f uncorrected", g.ECCUncorrected.V)
	}
	if g.RemapFailed {
		out += "  REMAP FAILED"
	} else if g.RemapPending {
		out += "  REMAP PENDING (reset the GPU)"
	}
	for _, x := range g.Xids {
		out += fmt.Sprintf("  Xid %d", x.Code)
	}
	return out
}
