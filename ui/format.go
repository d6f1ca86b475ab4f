package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/units"
)

// naText is how every unavailable reading is shown (nvitop's N/A habit).
// The dashboard's cells use sampler/units' compact form ("62°C", "650W").
const naText = units.NA

// fmtUsedTotal formats "used/total" with one unit when both are known:
// "80.1/141G"; a missing side is n/a.
func fmtUsedTotal(used, total sampler.Metric) string {
	if !used.OK && !total.OK {
		return naText
	}
	if used.OK && total.OK {
		t := units.Compact.Bytes(total)
		u := units.Compact.Bytes(used)
		if u[len(u)-1] == t[len(t)-1] { // same unit: print it once
			u = u[:len(u)-1]
		}
		return u + "/" + t
	}
	return units.Compact.Bytes(used) + "/" + units.Compact.Bytes(total)
}

// fmtDuration formats an elapsed time compactly: "45s", "12m", "3h05m", "2d04h".
func fmtDuration(d time.Duration) string {
	switch {
	case d < 0:
		return naText
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}

// fmtInterval formats a sampling interval: "100ms", "1s", "1m".
func fmtInterval(d time.Duration) string {
	switch {
	case d <= 0:
		return naText
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute || d%time.Minute != 0:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", d.Seconds()), ".0") + "s"
	default:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
}

// truncate cuts s to at most w display cells, ending with "…" when cut.
// It is ANSI-aware so styled text can be truncated too.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if cellWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// padRight truncates or pads s with spaces to exactly w cells.
func padRight(s string, w int) string {
	s = truncate(s, w)
	if n := w - cellWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// padLeft truncates or left-pads s to exactly w cells (right-aligned numbers).
func padLeft(s string, w int) string {
	s = truncate(s, w)
	if n := w - cellWidth(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// shortGPUName keeps the model: "NVIDIA H200 141GB HBM3e" → "H200",
// "NVIDIA A100-SXM4-80GB" → "A100", "Tesla T4" → "T4",
// "NVIDIA GeForce RTX 4090" → "RTX4090", "NVIDIA RTX A6000" → "RTXA6000".
func shortGPUName(name string) string {
	f := strings.Fields(name)
	for len(f) > 0 && (f[0] == "NVIDIA" || f[0] == "Tesla" || f[0] == "GeForce" || f[0] == "Quadro") {
		f = f[1:]
	}
	if len(f) == 0 {
		return "GPU"
	}
	model := f[0]
	if (model == "RTX" || model == "GTX") && len(f) > 1 {
		model += f[1]
	}
	if i := strings.IndexByte(model, '-'); i > 0 {
		model = model[:i] // form factor and memory size follow the dash
	}
	return model
}

// plural is "1 row", "2 rows".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
