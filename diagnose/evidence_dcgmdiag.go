package diagnose

import (
	"regexp"
	"strconv"

	"github.com/gpuscope/gpuscope/sampler"
)

// A DCGM diagnostic run (`dcgmi diag -r N`) pasted with or without other
// output: each failed (or warned) check is reported with DCGM's own
// message, under the rule its message proves. The messages are DCGM's
// catalogue (dcgmlib/dcgm_errors.h, DCGM_FR_*_MSG); a failed check whose
// message proves none of the rules' causes stays in the report's sections
// list only: a rule it does not prove would be a guess.

var (
	hintDiagNVLink = fix{"diag_nvlink", "nvidia-smi nvlink -s -i <GPU> shows each link's state: a link down on a board that has NVLink " +
		"needs a GPU reset, then a field diagnostic if it stays down (DCGM's advice); on a system without NVLink the " +
		"check expects links that do not exist: dcgmi diag -p pcie.gpu_nvlinks_expected_up=<N> sets how many it expects"}
	hintNCCLNVLink = fix{"nccl_nvlink", "nvidia-smi -q -i <GPU> | grep -A6 Fabric shows the GPU's NVLink fabric State and Status, and " +
		"nvidia-smi nvlink -s -i <GPU> each link; check the fabric manager (systemctl status nvidia-fabricmanager); a bad NVLink " +
		"state clears with a GPU reset or a reboot, then nccl-tests all_reduce_perf -g <GPUs> confirms it (dcgmi diag tests one " +
		"GPU at a time and does not run NVLink SHARP); NCCL_NVLS_ENABLE=0 lets jobs run without NVLS meanwhile"}
	// hintGPUBusy serves a diagnostic and an application alike that CUDA
	// found the GPU busy or unavailable (cudaErrorDevicesUnavailable).
	hintGPUBusy = fix{"gpu_busy", "Find what holds the GPU: nvidia-smi lists its processes (a job the scheduler thinks finished can " +
		"still hold it from a container nobody reaped), and Compute M. \"E. Process\" lets only one in (CUDA's " +
		"cudaErrorDevicesUnavailable); stop it, or run when the GPU is free; in a vGPU guest (GRID driver, a -Q or -C profile) " +
		"nvidia-smi -q | grep -A2 'Licensed Product' showing Unlicensed means the driver disabled CUDA: license the VM; if nothing " +
		"holds it, reset the GPU (nvidia-smi -r), and restart DCGM after a diagnostic"}
)

// Messages by what they prove, first match wins: a lost GPU or an Xid
// outranks what the test saw after it.
var (
	diagLostRE    = regexp.MustCompile(`(?i)fallen off the bus`)
	diagXidRE     = regexp.MustCompile(`(?i)\bXID\s*(\d+)`)
	diagFabricRE  = regexp.MustCompile(`(?i)fabric manager|fabric state|\bIMEX\b`)
	diagECCRE     = regexp.MustCompile(`(?i)uncorrectable|double-bit|\bDBE\b|faulty memory|NaN-value memory|remapping failed|retired pages have been detected`)
	diagPendingRE = regexp.MustCompile(`(?i)pending (retired page|page retirement)|row remappings? (are|is) pending`)
	diagThermalRE = regexp.MustCompile(`(?i)thermal violation|due to thermal|Temperature \d+ .* exceeded`)
	diagNVLinkRE  = regexp.MustCompile(`(?i)NvLink`)
	diagPCIeRE    = regexp.MustCompile(`(?i)\bPCI|in direction|host to GPU|GPU to host`)
	diagBusyRE    = regexp.MustCompile(`(?i)busy or unavailable`)
	diagMemTest   = regexp.MustCompile(`(?i)^(GPU Memory|memory|memtest)$`)
	diagPCIeTest  = regexp.MustCompile(`(?i)^pcie$`)
)

// diagHit is one finding being built from a run: its rule and GPU, and
// the messages that prove it.
type diagHit struct {
	rule  string
	gpu   int
	sev   Severity
	title Msg
	hint  fix
	conf  Text
	ev    Text
}

// diag reports the failed checks of the diagnostic runs in the input.
func (e *evCtx) diag() {
	var hits []*diagHit
	for _, c := range e.last.Node.Diag {
		if c.Result != "fail" && c.Result != "warn" {
			continue
		}
		proved := false
		for _, m := range c.Messages {
			if m.Kind == "info" && !diagBusyRE.MatchString(m.Text) {
				continue // an Info row reports, it does not judge
			}
			gpu := m.GPU
			if gpu < 0 && len(c.GPUs) == 1 {
				gpu = c.GPUs[0]
			}
			if h := diagClassify(m.Text, gpu); h != nil {
				notRun(h, c)
				hits = mergeHit(hits, h, c, m.Text)
				proved = true
			}
		}
		if !proved && !hasJudgement(c) {
			for _, gpu := range gpusOr(c.GPUs) {
				if h := diagByTest(c.Test, gpu); h != nil {
					hits = mergeHit(hits, h, c, "")
				}
			}
		}
	}
	for _, h := range hits {
		e.add(h.rule, h.sev, h.gpu, h.title, h.ev, h.hint, h.conf, Use{h.gpu, "diag"})
	}
}

// notRun words a hit whose check came from no diagnostic run: a DCGM
// health watch's log line, or the NVLink state dcgmi reads.
func notRun(h *diagHit, c sampler.DiagCheck) {
	switch c.Category {
	case "Health":
		h.title = say("evidence.health_title", "{{.Who}}: DCGM's health watch detected a {{.System}} problem", "Who", who(h.gpu), "System", c.Test)
		h.conf = Text{say("evidence.health_est", "DCGM's health watch, as logged: it saw this while it watched the GPU; dcgmi health -c shows whether it persists")}
	case "NVLink":
		h.title = say("evidence.nvlink_status_title", "{{.Who}}: NVLink down", "Who", who(h.gpu))
		h.conf = Text{say("evidence.nvlink_status_est", "the link state DCGM read when the command ran, as pasted: a fact of that instant")}
		if c.Test == "link speeds" { // nvidia-smi nvlink -s: sampler/importer/nvlinkspeed.go
			h.conf = Text{say("evidence.nvlink_speed_est", "the link speeds nvidia-smi read when the command ran, as pasted: a fact of that instant; that the links should run is read from a GPU of the same model in the listing, or from the model")}
		}
	case "NCCL": // sampler/importer/ncclwarn.go: a job's NCCL warning about NVLink
		h.title = say("evidence.nccl_nvlink_title", "{{.Who}}: NCCL could not use NVLink", "Who", who(h.gpu))
		h.conf = Text{say("evidence.nccl_nvlink_est", "NCCL's warning from the job, as pasted: what the job hit when it set up its NVLink transport; dcgmi diag may pass on the same node")}
		h.hint = hintNCCLNVLink
	}
}

// hasJudgement: the check prints a Warning or Error row (its reason).
func hasJudgement(c sampler.DiagCheck) bool {
	for _, m := range c.Messages {
		if m.Kind != "info" {
			return true
		}
	}
	return false
}

func gpusOr(v []int) []int {
	if len(v) == 0 {
		return []int{-1}
	}
	return v
}

// who names the GPU in a title: "GPU 3", or every GPU the run tested.
func who(gpu int) Msg {
	if gpu < 0 {
		return say("evidence.diag_all", "every GPU tested")
	}
	return say("evidence.diag_gpu", "GPU {{.GPU}}", "GPU", gpu)
}

func diagEst() Text {
	return Text{say("evidence.diag_est", "DCGM's verdict from its own active test, as pasted: a fact of that run; rerun dcgmi diag -r 2 after the fix to confirm")}
}

// diagClassify is the finding a message proves, nil for none.
func diagClassify(msg string, gpu int) *diagHit {
	h := &diagHit{gpu: gpu, sev: Critical, conf: diagEst()}
	switch {
	case diagLostRE.MatchString(msg):
		h.rule, h.hint = RuleXidError, xidHint(79, []uint64{79})
		h.title = say("evidence.diag_lost_title", "{{.Who}} fell off the bus during DCGM's diagnostic", "Who", who(gpu))
	case diagXidRE.MatchString(msg):
		code, _ := strconv.ParseUint(diagXidRE.FindStringSubmatch(msg)[1], 10, 64)
		h.rule, h.hint = RuleXidError, xidHint(code, []uint64{code})
		if info, ok := LookupXid(code); !ok || !info.Hardware {
			h.sev = Warning
		}
		h.title = say("evidence.diag_xid_title", "{{.Who}}: DCGM's diagnostic detected Xid {{.Xid}}", "Who", who(gpu), "Xid", describeXid(code))
	case diagFabricRE.MatchString(msg):
		h.rule, h.gpu, h.hint = RuleFabricManager, -1, hintFabric
		h.title = say("evidence.diag_fabric_title", "NVLink fabric not ready: DCGM's diagnostic failed on the fabric manager")
	case diagBusyRE.MatchString(msg):
		h.rule, h.sev, h.hint = RuleGPUContention, Warning, hintGPUBusy
		h.title = say("evidence.diag_busy_title", "{{.Who}} busy or unavailable: DCGM's diagnostic could not use it", "Who", who(gpu))
		h.conf = Text{say("evidence.diag_busy_est", "the test could not create a CUDA context, so it judged nothing of the GPU itself; "+
			"CUDA says another process holds it (exclusive-process or prohibited compute mode, or kernels filling it) or the GPU needs a reset")}
	default:
		for _, c := range diagCauses() {
			if c.re.MatchString(msg) {
				h.rule, h.sev, h.hint, h.title = c.rule, c.sev, c.hint, c.title(who(gpu))
				return h
			}
		}
		return nil
	}
	return h
}

// diagCause is a message pattern and the finding it proves.
type diagCause struct {
	re    *regexp.Regexp
	rule  string
	sev   Severity
	hint  fix
	title func(who Msg) Msg
}

// diagCauses, in order: errors before what is only pending, NVLink
// before the PCIe words its messages share.
func diagCauses() []diagCause {
	return []diagCause{
		{diagECCRE, RuleECCErrors, Critical, hintECC, func(w Msg) Msg {
			return say("evidence.diag_ecc_title", "{{.Who}} memory errors found by DCGM's diagnostic", "Who", w)
		}},
		{diagPendingRE, RuleECCErrors, Warning, hintECCPending, func(w Msg) Msg {
			return say("evidence.diag_pending_title", "{{.Who}} page retirement or row remap pending (DCGM's diagnostic)", "Who", w)
		}},
		{diagThermalRE, RuleThermalThrottle, Warning, hintThermalHW, func(w Msg) Msg {
			return say("evidence.diag_thermal_title", "{{.Who}} overheated under DCGM's diagnostic: thermal violations", "Who", w)
		}},
		{diagNVLinkRE, RulePCIeLinkDegraded, Warning, hintDiagNVLink, func(w Msg) Msg {
			return say("evidence.diag_nvlink_title", "{{.Who}}: NVLink down in DCGM's PCIe/NVLink check", "Who", w)
		}},
		{diagPCIeRE, RulePCIeLinkDegraded, Warning, hintPCIeLink, diagPCIeTitle},
	}
}

func diagPCIeTitle(w Msg) Msg {
	return say("evidence.diag_pcie_title", "{{.Who}} failed DCGM's PCIe check", "Who", w)
}

// diagByTest is what a failed check with no message proves by its test
// alone: DCGM prints the reason only with -v or for some results.
func diagByTest(test string, gpu int) *diagHit {
	h := &diagHit{gpu: gpu, sev: Warning, conf: Text{say("evidence.diag_no_message", "the paste shows the result without DCGM's reason; dcgmi diag -r 2 -v prints it")}}
	switch {
	case diagMemTest.MatchString(test):
		h.rule, h.hint = RuleECCErrors, hintECC
		h.title = say("evidence.diag_memtest_title", "{{.Who}} failed DCGM's memory test", "Who", who(gpu))
	case diagPCIeTest.MatchString(test):
		h.rule, h.hint, h.title = RulePCIeLinkDegraded, hintPCIeLink, diagPCIeTitle(who(gpu))
	default:
		return nil
	}
	return h
}

// diagEvidenceMax: a run that repeats one message per link or GPU makes
// its point in three.
const diagEvidenceMax = 3

// mergeHit adds h's evidence to the hit of the same rule and GPU, or
// appends h; a warned check is at most a warning.
func mergeHit(hits []*diagHit, h *diagHit, c sampler.DiagCheck, msg string) []*diagHit {
	if c.Result == "warn" && h.sev > Warning {
		h.sev = Warning
	}
	res := say("evidence.diag_failed", "failed")
	if c.Result == "warn" {
		res = say("evidence.diag_warned", "warned")
	}
	test := c.Test
	if test == "" {
		test = c.Category
	}
	piece := say("evidence.diag_check", "dcgmi diag {{.Test}} {{.Result}}", "Test", test, "Result", res)
	if msg != "" {
		piece = say("evidence.diag_check_msg", "dcgmi diag {{.Test}} {{.Result}}: {{.Message}}", "Test", test, "Result", res, "Message", msg)
	}
	switch c.Category {
	case "Health":
		piece = say("evidence.health_check_msg", "DCGM health watch {{.Test}} {{.Result}}: {{.Message}}", "Test", test, "Result", res, "Message", msg)
	case "NVLink":
		piece = say("evidence.nvlink_status_msg", "dcgmi nvlink --link-status: {{.Message}}", "Message", msg)
		if c.Test == "link speeds" {
			piece = say("evidence.nvlink_speed_msg", "nvidia-smi nvlink -s: {{.Message}}", "Message", msg)
		}
	case "NCCL":
		piece = say("evidence.nccl_warn_msg", "NCCL WARN: {{.Message}}", "Message", msg)
	}
	for _, o := range hits {
		if o.rule != h.rule || o.gpu != h.gpu {
			continue
		}
		o.sev = max(o.sev, h.sev)
		switch n := len(o.ev); {
		case n < diagEvidenceMax:
			o.ev = append(o.ev, piece)
		case n == diagEvidenceMax:
			o.ev = append(o.ev, say("evidence.diag_more", "and more of the same"))
		}
		return hits
	}
	h.ev = Text{piece}
	return append(hits, h)
}
