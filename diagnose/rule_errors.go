package diagnose

import (
	"fmt"
)

// Xid and ECC health (research note section G).

// An Xid is critical when its catalogue entry says the GPU itself needs
// attention (XidInfo.Hardware: memory, NVLink, the bus, the GPU's own
// processors; [nvidia-xid]), so the live rule and the evidence path agree.

func (c *ctx) ruleXid(g *gpuCtx) (Finding, bool) {
	if !c.mayXid(g) {
		return Finding{}, false
	}
	var parts Text
	sev, hint, count := Warning, hintXidApp, 0
	for i := range c.w {
		x := g.col[i].x
		if x == nil {
			continue
		}
		for _, e := range x.Xids {
			count++
			if info, ok := LookupXid(e.Code); ok && info.Hardware {
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
	return c.healthFinding(g, RuleXidError, sev, say("xid.title", "GPU {{.GPU}} reported {{.Count}} Xid {{plural .Count \"error\" \"errors\"}}", "GPU", g.idx, "Count", count),
		append(parts, xidMore(count, len(parts))...), hint), true
}

// xidMore says how many events the evidence leaves out. Not inlined, as
// gpuIn.
//
//go:noinline
func xidMore(count, shown int) Text {
	if count > shown {
		return Text{then("xid.more", " (+{{.N}} more)", "N", count-shown)}
	}
	return nil
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
			ev = append(ev, say("ecc.rows_remapped", "{{.N}} {{plural .N \"row\" \"rows\"}} remapped", "N", fmt.Sprintf("%.0f", x.RemappedRows.V)))
		}
		return c.healthFinding(g, RuleECCErrors, Warning, say("ecc.title_pending", "GPU {{.GPU}} memory row remap pending", "GPU", g.idx), ev, hintECCPending), true
	}
	return Finding{}, false
}
