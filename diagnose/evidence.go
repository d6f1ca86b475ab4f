package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The evidence path: what one snapshot (a pasted nvidia-smi table, -q) or a
// short series (a few dmon / --query-gpu rows) can prove, with the
// confidence that much data gives. The live rules need a window and
// hysteresis; a paste has neither, so these are separate pure functions
// over the same snapshots, using the same rule ids.

// Use names one reading a finding rests on, so a report can point at the
// input line it came from.
type Use struct {
	GPU   int    `json:"gpu"`
	Field string `json:"field"` // snapshot JSON name: "mem_used", "util", "xids" ...
}

// Thresholds of the one-snapshot rules.
const (
	// evMemFull: a snapshot this full is near an out-of-memory error (seed
	// 002 §6.1, [gpu-idle-pipeline] §2.5); higher than the live rule's memNearFull (90 %)
	// because one reading cannot show it is sustained. Severity follows the
	// live rule: a warning from memVeryFull (97 %).
	evMemFull = 95.0
	// evHeldBytes: memory held at 0 % that is more than a desktop's or a
	// CUDA context's few hundred MiB (1 GiB).
	evHeldBytes = 1 << 30
	// evBusyUtil: a GPU at least half busy is under load. An
	// idle GPU's link runs slower to save power: nvidia-smi(1), "GPU Link
	// Info": the current generation and width "may be reduced when the GPU
	// is not in use".
	evBusyUtil = 50.0
	// evSpinUtil / evSpinPower: GPU-Util at the top while the board draws at
	// most this share of its power limit. An idle data-centre GPU draws
	// ~10-20 % of its limit and dense kernels 60-100 % (the corpus tables in
	// sampler/importer/testdata/real show both); a third separates them.
	evSpinUtil  = 95.0
	evSpinPower = 0.33
	// evSeriesMin is the fewest samples a series rule judges; evConfirm is
	// the length that would confirm it (the live rules' 60 s sustain).
	evSeriesMin = 3
	evConfirm   = 60 * time.Second
)

// Evidence judges snapshots without a window: the last snapshot for the
// facts one instant proves, every snapshot for events (Xids), and the series
// for patterns when it has at least evSeriesMin samples. Findings carry the
// readings they rest on (Uses) and are ranked worst first. It keeps no
// state.
func Evidence(snaps []sampler.Snapshot) []Finding {
	if len(snaps) == 0 {
		return nil
	}
	e := &evCtx{snaps: snaps, last: &snaps[len(snaps)-1], noSpin: map[int]bool{}}
	for i := range e.last.GPUs {
		g := &e.last.GPUs[i]
		e.health(g)
		e.infoROM(g)
		e.driverOops(g)
		e.vgpuLicense(g)
		if g.VGPUHost() {
			continue // its processes are VMs holding their vGPU's share by design
		}
		e.memory(g)
		if e.strayRanks(g) || e.contention(g) { // the other jobs explain its low power: not its kernels
			e.noSpin[g.Index] = true
		}
	}
	for _, i := range e.collective(e.noSpin) {
		e.noSpin[i] = true
	}
	for _, i := range e.waitingRanks(e.noSpin) {
		e.noSpin[i] = true
	}
	for i := range e.last.GPUs {
		if g := &e.last.GPUs[i]; !g.VGPUGuest() { // a guest sees no board power, clocks or link
			e.busy(g)
			e.maxOpTemp(g)
		}
	}
	e.fabric()
	e.fabricHealth()
	e.sliceOOM()
	e.containerLost()
	e.driverMismatch()
	e.diag()
	e.multiGPU()
	if len(snaps) >= evSeriesMin {
		e.series()
	}
	sort.SliceStable(e.out, func(i, j int) bool {
		a, b := &e.out[i], &e.out[j]
		if a.Severity != b.Severity {
			return a.Severity > b.Severity
		}
		return a.GPU < b.GPU
	})
	return e.out
}

type evCtx struct {
	snaps []sampler.Snapshot
	last  *sampler.Snapshot
	out   []Finding
	// noSpin: GPUs whose 100 % at low power another finding explains
	// (several jobs on it, a collective across the job's GPUs).
	noSpin map[int]bool
}

func (e *evCtx) add(rule string, sev Severity, gpu int, title Msg, ev Text, hint fix, conf Text, uses ...Use) {
	e.out = append(e.out, Finding{Rule: rule, Severity: sev, GPU: gpu, Title: title.English(), Evidence: ev.String(), Hint: hint.en, FixID: hint.id,
		Estimated: conf.String(), Since: e.snaps[0].Time, LastSeen: e.last.Time,
		I18n: &FindingText{Title: title, Evidence: ev, Estimated: conf}, Uses: uses})
}

// oneShot says how much one instant proves.
func (e *evCtx) oneShot(what Msg) Text {
	if len(e.snaps) == 1 {
		return Text{say("evidence.one_snapshot", "one snapshot at {{.At}}", "At", e.last.Time.UTC().Format("15:04:05")), what}
	}
	return Text{say("evidence.last_of", "the last of {{.N}} {{plural .N \"snapshot\" \"snapshots\"}}", "N", len(e.snaps)), what}
}

// health: lost GPUs, Xids (with the catalogue), ECC and row remapping.
func (e *evCtx) health(g *sampler.GPU) {
	var codes []uint64
	hw := false
	for i := range e.snaps {
		if x := gpuIn(&e.snaps[i], g.Index); x != nil {
			for _, xe := range x.Xids {
				codes = append(codes, xe.Code)
				if info, ok := LookupXid(xe.Code); ok && info.Hardware {
					hw = true
				}
			}
		}
	}
	gpu := fmt.Sprint(g.Index)
	if g.BusID != "" {
		gpu += " (PCI " + g.BusID + ")"
	}
	switch {
	case g.Lost && (g.GSPFirmwareMissing || g.BARUnassigned) && len(codes) == 0:
		// Not a failing GPU: a missing firmware file, or a BAR without an
		// address window (evidence_bar.go).
		title, ev, h := say("evidence.gsp_fw_title", "GPU {{.GPU}} is not initialised: the driver found no GSP firmware", "GPU", gpu),
			say("evidence.gsp_fw", "RmFetchGspRmImages found no firmware image, then RmInitAdapter failed"), hintGSPFirmware
		if g.BARUnassigned {
			title, ev, h = say("evidence.bar_title", "GPU {{.GPU}} is not usable: its BAR has no address window", "GPU", gpu),
				say("evidence.lost", "the input reports it fallen off the bus, failed to initialise or unreachable"), hintBAR()
		}
		e.add(RuleXidError, Critical, g.Index, title, Text{ev}, h, nil, Use{g.Index, "lost"})
	case g.Lost:
		e.add(RuleXidError, Critical, g.Index, say("evidence.lost_title", "GPU {{.GPU}} is lost: the driver cannot reach it", "GPU", gpu),
			append(Text{say("evidence.lost", "the input reports it fallen off the bus, failed to initialise or unreachable")}, xidList(codes)...),
			xidHint(79, codes), nil, Use{g.Index, "lost"}, Use{g.Index, "xids"})
	case len(codes) > 0:
		sev := Warning
		if hw {
			sev = Critical
		}
		e.add(RuleXidError, sev, g.Index, say("xid.title", "GPU {{.GPU}} reported {{.Count}} Xid {{plural .Count \"error\" \"errors\"}}", "GPU", gpu, "Count", len(codes)),
			xidList(codes), xidHint(codes[len(codes)-1], codes), nil, Use{g.Index, "xids"})
	}
	dbe := g.ECCUncorrected.OK && g.ECCUncorrected.V > 0
	switch {
	case dbe || g.RemapFailed:
		var ev Text
		if dbe {
			ev = append(ev, say("ecc.dbe", "volatile uncorrectable ECC errors: {{.N}}", "N", f0(g.ECCUncorrected.V)))
		}
		if g.RemapFailed {
			ev = append(ev, say("ecc.remap_failed", "row remapping failed"))
		}
		e.add(RuleECCErrors, Critical, g.Index, say("ecc.title", "GPU {{.GPU}} uncorrectable memory errors", "GPU", g.Index), ev, hintECC, nil,
			Use{g.Index, "ecc_uncorrected"}, Use{g.Index, "remap_failed"})
	case g.RemapPending:
		e.add(RuleECCErrors, Warning, g.Index, say("evidence.remap_pending_title", "GPU {{.GPU}} memory row remap (or page retirement) pending", "GPU", g.Index),
			Text{say("evidence.remap_pending", "pending: takes effect at the next GPU reset")}, hintECCPending, nil, Use{g.Index, "remap_pending"})
	}
}

// xidList names up to five codes with their catalogue meaning (the
// catalogue's words stay NVIDIA's English).
func xidList(codes []uint64) Text {
	if len(codes) == 0 {
		return nil
	}
	count := map[uint64]int{}
	var order []uint64
	for _, c := range codes {
		if count[c] == 0 {
			order = append(order, c)
		}
		count[c]++
	}
	var parts Text
	for i, c := range order {
		if i == 5 { // five codes make the point
			parts = append(parts, item("evidence.more_codes", "+{{.N}} more codes", "N", len(order)-5))
			break
		}
		s := describeXid(c)
		if count[c] > 1 {
			s += fmt.Sprintf(" ×%d", count[c])
		}
		parts = append(parts, item("evidence.xid", "{{.Xid}}", "Xid", s))
	}
	parts[0].Join = Clause
	return parts
}

// xidHint is the catalogue's action for the most telling code.
func xidHint(code uint64, codes []uint64) fix {
	for _, c := range codes { // a hardware code outranks the latest
		if info, ok := LookupXid(c); ok && info.Hardware {
			code = c
			break
		}
	}
	if info, ok := LookupXid(code); ok {
		return fix{en: fmt.Sprintf("Xid %d: %s (NVIDIA Xid catalogue, %s)", code, info.Action, XidURL)}
	}
	return fix{en: "Look the code up in NVIDIA's Xid catalogue (" + XidURL + "); collect nvidia-bug-report.sh if it repeats"}
}

// EvidenceEngine is the live Engine plus the evidence path, for imported
// logs: a pasted snapshot or a short series gets the findings the evidence
// proves, which the live rules (sustained windows) cannot give. Snapshots
// with host data (gpuscope recordings) get the live rules only. It is the
// one place evidence and live findings merge, so check, replay and report
// agree.
type EvidenceEngine struct {
	e *Engine
	// seen: when each evidence finding (rule, GPU) was first made in the
	// evaluations that have made it since, its Since: the window's start
	// over-claimed when it began (a 16 s dmon log whose load starts 10 s
	// in, check's "since" 15 s before report's span: oneloop_test.go).
	seen map[evidenceKey]time.Time
}

type evidenceKey struct {
	rule string
	gpu  int
}

// NewEvidenceEngine returns an EvidenceEngine over NewEngine(o).
func NewEvidenceEngine(o Options) *EvidenceEngine { return &EvidenceEngine{e: NewEngine(o)} }

// Evaluate returns the live findings plus the evidence findings for a rule
// and GPU the live rules did not report. A finding both made keeps the live
// timing and takes the evidence's readings (Uses); an Xid or ECC finding
// also takes its words, which cite the Xid catalogue and the input's own
// rather than NVML's.
func (x *EvidenceEngine) Evaluate(window []sampler.Snapshot) []Finding {
	return x.evaluate(window, nil)
}

func (x *EvidenceEngine) evaluate(window []sampler.Snapshot, rows []procRows) []Finding {
	out := x.e.evaluate(window, rows)
	if len(window) == 0 || window[len(window)-1].Host != nil {
		return out
	}
	now := window[len(window)-1].Time
	var seen map[evidenceKey]time.Time // made on the first evidence finding: most evaluations have none
	for _, ef := range Evidence(window) {
		i := slices.IndexFunc(out, func(f Finding) bool { return f.Rule == ef.Rule && f.GPU == ef.GPU })
		if i < 0 {
			k := evidenceKey{ef.Rule, ef.GPU}
			if ef.Since = now; !x.seen[k].IsZero() {
				ef.Since = x.seen[k]
			}
			if seen == nil {
				seen = map[evidenceKey]time.Time{}
			}
			seen[k] = ef.Since
			out = append(out, ef)
			continue
		}
		f := &out[i]
		if ef.Rule == RuleXidError || ef.Rule == RuleECCErrors {
			f.Title, f.Evidence, f.Hint, f.FixID, f.I18n = ef.Title, ef.Evidence, ef.Hint, ef.FixID, ef.I18n
		}
		f.Uses = ef.Uses
	}
	x.seen = seen
	Rank(out)
	return out
}
