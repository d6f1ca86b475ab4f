package importer

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// The fabric manager's failures, as its log (/var/log/fabricmanager.log,
// "[date] [ERROR] [tid N] ..."), the systemd journal of its service and its
// start script print them:
//
//	nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver version 530.41.03. ...
//	nv-fabricmanager[4177]: request to query NVSwitch device information from NVSwitch driver failed with error:WARNING Nothing to do [NV_WARN_NOTHING_TO_DO]
//	nvidia-fabricmanager-start.sh[4753]: "/usr/bin/nv-fabricmanager -c /usr/share/nvidia/nvswitch/fabricmanager.cfg" failed! Exit code: 1
//	systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE
//	[Jul 29 2021 14:46:01] [ERROR] [tid 841] NVLink training failed ...
//	Unknown option: /usr/share/nvidia/nvswitch/fabricmanager.cfg     (then the start script's usage)
//	fabric manager config file item: FABRIC_NODE_CONFIG_FILE has an invalid value   (it exits before starting)
//	systemd[1]: nvidia-fabricmanager.service: Start operation timed out. Terminating.
//	service[nvidia-fabricmanager] (cookbook::recipe line 35) had an error: Mixlib::ShellOut::CommandTimeout: Command timed out after 900s:
//	nvlsm: ibwarn: [15] umad_init: can't read ABI version from /sys/class/infiniband_mad/abi_version (No such file or directory): is ib_umad module loaded?
//
// The two before the last are its service not starting in time, in
// systemd's words and in a provisioning tool's (Chef's resource error,
// which cluster images run at every node's boot). The last is NVLSM, the
// NVLink subnet manager an NVLink 5 system's fabric manager starts first
// ([fabric-manager]), finding no InfiniBand management device: without
// ib_umad the service crash-loops (corpus b26-talos-nvlsm-*); only NVLSM's
// own line counts, as any InfiniBand tool prints umad_init's words.
//
// On an NVSwitch node nothing runs until the fabric manager has set the
// fabric up (docs/playbook/fabric_manager.md), so any of them is read as a
// fact of the node: the fabric manager is not running. Its INFO lines,
// a successful start included, are not failures and stay unread.
// Corpus: fabricmanager-*.
var (
	fmFailRE = lazy(`(?i)fabric ?manager\b.*\b(failed|failure|don'?t match|doesn'?t match|does not match|mismatch)\b` +
		`|\bfailed to start\b.*\bfabric ?manager` +
		`|nvidia-fabricmanager(\.service)?: (main|control) process exited, code=exited, status=[1-9]` +
		`|nv-fabricmanager\S*"? failed!` +
		`|request to query NVSwitch device information from NVSwitch driver failed` +
		`|\[ERROR\] \[tid \d+\].*\b(NVSwitch|NVLink|LWLink|fabric|partition|multicast)` +
		`|fabric ?manager config file item: \w+ has an invalid value` +
		`|nvidia-fabricmanager\b.*\btimed out\b` +
		`|\bnvlsm\b.*\bumad_init: can'?t\b.*\bis ib_umad module loaded`)
	fmOptionRE = lazy(`(?i)^\s*(unknown|invalid|unrecognized) option\b`)
	fmScriptRE = lazy(`(?i)fabric manager start script|nvidia-fabricmanager-start\.sh`)
)

const kindFabricManager = "fabric manager log"

// fmUsageWithin: the start script prints its banner and usage a few lines
// under the option it rejects.
const fmUsageWithin = 4

// fmMissingRE: systemd has no fabric manager unit ("Unit
// nvidia-fabricmanager.service could not be found." from systemctl status,
// "... Unit nvidia-fabricmanager.service not found." from systemctl
// start). Only an NVSwitch node needs the service ([fabric-manager]), so
// the line is a fault only where the input shows the node has NVSwitches
// (switchRE); a PCIe or NVLink-bridge node lacks it by design.
var fmMissingRE = lazy(`(?i)\bunit nvidia-fabricmanager(\.service)? (could not be found|not found)`)

// switchRE: lines only an NVSwitch node prints: lspci's NVSwitch bridges
// (by name, or by the device ids of V100, A100 and H100 NVSwitches in
// older pci.ids), the nvidia-nvswitch driver's kernel lines and its SXid
// errors ("SXid (PCI:...)"; prose naming SXids is not one).
var switchRE = lazy(`(?i)\bbridge\b.*\bnvidia\b.*(\bnvswitch\b|\bdevice (1ac[0-2]|1af1|22a3)\b)|\bnvidia-nvswitch\d*:|\bSXid \(PCI:`)

// isFMFailLine runs on every line a paste has not claimed, and the
// case-folded patterns backtrack from each position (a quarter of the
// paste benchmark's time, docs/benchmarks.md): every match of either
// holds one of fmWords in any case, so a line without them is not tried.
func isFMFailLine(s string) bool {
	for _, w := range fmWords {
		if containsFold(s, w) {
			return fmFailRE.MatchString(s) || fmMissingRE.MatchString(s)
		}
	}
	return false
}

// fmWords: one of them is in every match of fmFailRE and fmMissingRE,
// lower case and free of k and s, the letters whose case folding leaves
// ASCII (K is also U+212A, S also U+017F).
var fmWords = [...]string{"fabric", "[error] [tid", "device information from", "umad_init"}

// containsFold: s holds w, a lower-case ASCII word, in any ASCII case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for ; j < len(w); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				break
			}
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// fmRun claims a run of failure lines at ls[i], or the start script's
// rejected option down to its usage; 0 for neither.
func fmRun(ls []string, i int) int {
	if isFMFailLine(ls[i]) {
		return runWhile(ls, i, isFMFailLine)
	}
	if !fmOptionRE.MatchString(ls[i]) {
		return 0
	}
	for j := i + 1; j < len(ls) && j <= i+fmUsageWithin; j++ {
		if fmScriptRE.MatchString(ls[j]) {
			return j - i + 1
		}
	}
	return 0
}

// fmNothingRE: the fabric manager found no NVSwitch to manage. It exits
// with this on a node without one (an NVLink bridge, GeForce cards), where
// nothing needs it; the fabric manager guide
// ([fabric-manager]) lists the NVSwitch systems it is for. On an NVLink 5
// system missing NVLSM it says the same, but there the GPUs' fabric state
// (In Progress) or CUDA's 802 shows the fault and is read on its own.
var fmNothingRE = lazy(`NV_WARN_NOTHING_TO_DO`)

// noSwitch returns the paste's line saying the fabric manager found no
// NVSwitch, "" for none.
func noSwitch(secs []section) string { return firstLineMatching(secs, fmNothingRE) }

// switchShown returns the paste's first line showing an NVSwitch, "" for none.
func switchShown(secs []section) string { return firstLineMatching(secs, switchRE) }

// parseFabricLog keeps the first failure line as the node's fabric error;
// a fabric manager that found no NVSwitch (nothing) failed at nothing, and
// a missing unit is a failure only beside a line showing an NVSwitch
// (nvswitch).
func parseFabricLog(sec *section, nothing, nvswitch string) *part {
	p := newPart(sec)
	if nothing != "" {
		return p.skip("the fabric manager found no NVSwitch to manage (NV_WARN_NOTHING_TO_DO): a node without one does not need it")
	}
	nonFatal := ""
	for i, l := range sec.lines {
		if !isFMFailLine(l) && !fmOptionRE.MatchString(l) {
			continue
		}
		if m := fmNonFatalRE.FindStringSubmatch(l); m != nil {
			if nonFatal == "" {
				nonFatal = fmt.Sprintf("the fabric manager logged NVSwitch non-fatal error %s on port %s (line %d): "+
					"a running fabric manager reports the switch errors it survives this way, the fabric stays up: not a failure",
					m[1], m[2], sec.first+i)
			}
			continue
		}
		what := strings.TrimSpace(l)
		if fmMissingRE.MatchString(l) {
			if nvswitch == "" {
				return p.skip("the fabric manager service is not installed; only an NVSwitch node needs it and nothing in the input shows one " +
					"(lspci's NVSwitch bridges or the nvidia-nvswitch driver's lines would)")
			}
			what += " (NVSwitch: " + nvswitch + ")"
		}
		if !isFMFailLine(l) { // the rejected option: name the script that rejected it, in its own words
			for _, s := range sec.lines[i+1:] {
				if fmScriptRE.MatchString(s) {
					what += " (" + strings.TrimSpace(s) + ")"
					break
				}
			}
		}
		p.where(-1, "fabric_error", sec.first+i)
		p.snaps = []sampler.Snapshot{{Node: sampler.Node{FabricError: clip(what, fmErrMax)}}}
		p.note(fmt.Sprintf("the fabric manager failed (line %d)", sec.first+i))
		return p
	}
	if nonFatal != "" {
		return p.skip(nonFatal)
	}
	return p.skip("no fabric manager failure")
}

// fmNonFatalRE: an NVSwitch error the running fabric manager logged as
// non-fatal ("detected NVSwitch non-fatal error N on fid F on NVSwitch pci
// bus id B physical id P port Q"): the fabric manager guide
// ([fabric-manager]) keeps the fabric up through those, so the line is no
// sign that it failed.
var fmNonFatalRE = lazy(`detected NVSwitch non-fatal error (\d+)\b.*?\bport (\d+)`)

// fmErrMax bounds the quoted line: a journal line can carry a long prefix.
const fmErrMax = 240

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
