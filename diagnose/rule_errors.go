package diagnose

import (
	"fmt"
	"strings"
)

// Xid and ECC health (research note section G).

// criticalXids are the Xid codes that mean hardware or memory trouble
// (NVIDIA Xid catalogue: 48 DBE, 63/64 row remap, 74 NVLink, 79 off the bus,
// 92 high SBE rate, 94/95 contained/uncontained ECC).
var criticalXids = []uint64{48, 63, 64, 74, 79, 92, 94, 95}

func (c *ctx) ruleXid(g *gpuCtx) (Finding, bool) {
	var parts []string
	sev, hint, count := Warning, hintXidApp, 0
	for i := range c.w {
		x := gpuIn(&c.w[i], g.idx)
		if x == nil {
			continue
		}
		for _, e := range x.Xids {
			count++
			if containsXid(criticalXids, e.Code) {
				sev, hint = Critical, hintXidHW
			}
			if len(parts) < 5 { // five events make the point
				at := e.Time
				if at.IsZero() {
					at = c.w[i].Time
				}
				parts = append(parts, fmt.Sprintf("Xid %d at %s", e.Code, at.UTC().Format("15:04:05")))
			}
		}
	}
	if g.last.Lost {
		return c.healthFinding(g, RuleXidError, Critical, fmt.Sprintf("GPU %d fell off the bus (lost)", g.idx),
			"NVML answers GPU_IS_LOST (like Xid 79)"+xidTail(parts, count), hintXidHW), true
	}
	if count == 0 {
		return Finding{}, false
	}
	return c.healthFinding(g, RuleXidError, sev, fmt.Sprintf("GPU %d reported %d Xid error(s)", g.idx, count),
		strings.Join(parts, ", ")+xidMore(count, len(parts)), hint), true
}

func xidTail(parts []string, count int) string {
	if count == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ") + xidMore(count, len(parts))
}

func xidMore(count, shown int) string {
	if count > shown {
		return fmt.Sprintf(" (+%d more)", count-shown)
	}
	return ""
}

func containsXid(codes []uint64, c uint64) bool {
	for _, x := range codes {
		if x == c {
			return true
		}
	}
	return false
}

func (c *ctx) ruleECC(g *gpuCtx) (Finding, bool) {
	x := g.last
	dbe := x.ECCUncorrected.OK && x.ECCUncorrected.V > 0
	switch {
	case dbe || x.RemapFailed:
		ev := ""
		if dbe {
			ev = fmt.Sprintf("volatile uncorrectable ECC errors: %.0f", x.ECCUncorrected.V)
		}
		if x.RemapFailed {
			ev = joinNonEmpty(ev, "row remapping failed")
		}
		if x.RemapPending {
			ev = joinNonEmpty(ev, "row remap pending")
		}
		return c.healthFinding(g, RuleECCErrors, Critical, fmt.Sprintf("GPU %d uncorrectable memory errors", g.idx), ev, hintECC), true
	case x.RemapPending:
		ev := "row remap pending (takes effect at the next GPU reset)"
		if x.RemappedRows.OK {
			ev += fmt.Sprintf("; %.0f rows remapped", x.RemappedRows.V)
		}
		return c.healthFinding(g, RuleECCErrors, Warning, fmt.Sprintf("GPU %d memory row remap pending", g.idx), ev, hintECCPending), true
	}
	return Finding{}, false
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
