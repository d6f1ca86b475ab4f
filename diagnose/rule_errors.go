package diagnose

import (
	"fmt"
)

// Xid and ECC health (research note section G).

// criticalXids are the Xid codes that mean hardware or memory trouble
// (NVIDIA Xid catalogue: 48 DBE, 63/64 row remap, 74 NVLink, 79 off the bus,
// 92 high SBE rate, 94/95 contained/uncontained ECC).
var criticalXids = []uint64{48, 63, 64, 74, 79, 92, 94, 95}

func (c *ctx) ruleXid(g *gpuCtx) (Finding, bool) {
	var parts Text
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
				parts = append(parts, item("xid.event", "Xid {{.Code}} at {{.At}}", "Code", e.Code, "At", at.UTC().Format("15:04:05")))
			}
		}
	}
	if g.last.Lost {
		ev := Text{say("xid.lost_ev", "NVML answers GPU_IS_LOST (like Xid 79)")}
		if count > 0 {
			parts[0].Join = Clause
			ev = append(append(ev, parts...), xidMore(count, len(parts))...)
		}
		return c.healthFinding(g, RuleXidError, Critical, say("xid.lost", "GPU {{.GPU}} fell off the bus (lost)", "GPU", g.idx),
			ev, hintXidHW), true
	}
	if count == 0 {
		return Finding{}, false
	}
	return c.healthFinding(g, RuleXidError, sev, say("xid.title", "GPU {{.GPU}} reported {{.Count}} Xid error(s)", "GPU", g.idx, "Count", count),
		append(parts, xidMore(count, len(parts))...), hint), true
}

// xidMore says how many events the evidence leaves out.
func xidMore(count, shown int) Text {
	if count > shown {
		return Text{then("xid.more", " (+{{.N}} more)", "N", count-shown)}
	}
	return nil
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
		var ev Text
		if dbe {
			ev = append(ev, say("ecc.dbe", "volatile uncorrectable ECC errors: {{.N}}", "N", fmt.Sprintf("%.0f", x.ECCUncorrected.V)))
		}
		if x.RemapFailed {
			ev = append(ev, say("ecc.remap_failed", "row remapping failed"))
		}
		if x.RemapPending {
			ev = append(ev, say("ecc.remap_pending", "row remap pending"))
		}
		return c.healthFinding(g, RuleECCErrors, Critical, say("ecc.title", "GPU {{.GPU}} uncorrectable memory errors", "GPU", g.idx), ev, hintECC), true
	case x.RemapPending:
		ev := Text{say("ecc.remap_pending_reset", "row remap pending (takes effect at the next GPU reset)")}
		if x.RemappedRows.OK {
			ev = append(ev, say("ecc.rows_remapped", "{{.N}} rows remapped", "N", fmt.Sprintf("%.0f", x.RemappedRows.V)))
		}
		return c.healthFinding(g, RuleECCErrors, Warning, say("ecc.title_pending", "GPU {{.GPU}} memory row remap pending", "GPU", g.idx), ev, hintECCPending), true
	}
	return Finding{}, false
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
