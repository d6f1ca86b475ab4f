package importer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Kernel log lines of the NVIDIA driver (dmesg, dmesg -T, journalctl -k,
// /var/log/messages, the kernel section of nvidia-bug-report.log):
//
//	NVRM: Xid (PCI:0000:41:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
//	NVRM: Xid (0000:03:00): 31, Ch 00000010, engmask 00000101 ...   (older drivers)
//	NVRM: GPU at PCI:0000:01:00: GPU has fallen off the bus.         (also without an Xid)
//
// Each GPU is known by its PCI address; other sections of the same node
// (a table, -q) give it its index.

var (
	xidRE = lazy(`NVRM: Xid \((?:PCI:)?([0-9A-Fa-f]{1,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}(?:\.[0-9A-Fa-f])?)\):\s*(\d+)`)
	// initFailRE: the driver could not bring the GPU up; nvidia-smi then
	// cannot reach it either.
	// noGSPImageRE: the open module found no GSP firmware file, so every
	// GPU it then fails to initialise failed for that (vGPU Manager pods
	// without /lib/firmware: docs/references.md [gpu-operator-release-notes]).
	noGSPImageRE = lazy(`NVRM: RmFetchGspRmImages: No firmware image found`)
	initFailRE   = lazy(`NVRM: GPU (?:at )?(?:PCI:)?([0-9A-Fa-f]{1,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}(?:\.[0-9A-Fa-f])?):?\s+(?:RmInitAdapter|rm_init_adapter) failed`)
	offBusRE     = lazy(`(?i)GPU (?:at )?(?:PCI:)?([0-9a-f]{1,8}:[0-9a-f]{2}:[0-9a-f]{2}(?:\.[0-9a-f])?):?.*fallen off the bus`)
	sxidRE       = lazy(`SXid \(PCI:([0-9A-Fa-f:.]+)\):\s*(\d+)`)
	dmesgTRE     = lazy(`^\s*\[((Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3}\s+\d+ \d\d:\d\d:\d\d \d{4})\]`)
	bootStampRE  = lazy(`\[\s*\d+\.\d+\]`)
	isoStampRE   = lazy(`^\s*(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?)`)
)

// maskedXidRE: an Xid line whose poster hid the PCI address
// ("Xid (PCI:...): 145"); its GPU is known only as "the one whose address
// is masked", maskedBus. Corpus: dmesg-xid145-xid137-masked-pci-*.
var maskedXidRE = lazy(`NVRM: Xid \((?:PCI:)?(?:\.{3}|…|[xX*]{4}:[xX*]{2}:[xX*]{2}(?:\.[xX*])?|<[^>]*>)\):\s*(\d+)`)

const maskedBus = "masked"

func parseKernel(sec *section, seen map[string]bool) *part {
	p := newPart(sec)
	byBus := map[string]*sampler.GPU{}
	var order []string
	gpu := func(bus string) *sampler.GPU {
		k := normBus(bus)
		if k == "" { // a GPU the log names without an address
			k = bus
		}
		if g, ok := byBus[k]; ok {
			return g
		}
		g := &sampler.GPU{Index: provisionalIndex(len(order)), BusID: bus}
		byBus[k] = g
		order = append(order, k)
		return g
	}
	xids, lost, sxids, initFail, dups, masked := 0, 0, 0, 0, 0, 0
	fw := fwTimeouts{}
	noGSPImage := false // the firmware file was missing before the GPUs' init failed
	var oops kernOops
	// A bug report copies the same message from /var/log/messages, the
	// journal and dmesg (sections of their own): seen, shared by the
	// sections of one input, counts each message once.
	lastBus := "" // a message split over lines names the GPU first
	for i, l := range sec.lines {
		no := sec.first + i
		at := kernelTime(l)
		if b := tblBusRE.FindString(l); b != "" && strings.Contains(l, "NVRM") {
			lastBus = b
		}
		if lastBus != "" && strings.Contains(l, "fallen off the bus") && !offBusRE.MatchString(l) && !xidRE.MatchString(l) {
			l = "GPU " + lastBus + " " + l
		}
		if m := xidRE.FindStringSubmatch(l); m != nil {
			// The key is the message with its seconds-since-boot stamp
			// when the line has one (syslog copies keep it).
			key := bootStampRE.FindString(l) + l[strings.Index(l, "NVRM:"):]
			if seen[key] {
				dups++
				continue
			}
			seen[key] = true
			code, _ := strconv.ParseUint(m[2], 10, 64)
			g := gpu(m[1])
			g.Xids = append(g.Xids, sampler.Xid{Time: at, Code: code})
			if code == 79 {
				g.Lost = true
			}
			p.where(g.Index, "xids", no)
			xids++
			continue
		}
		if m := maskedXidRE.FindStringSubmatch(l); m != nil {
			// All masked lines go to one GPU: the paste cannot tell them
			// apart, and one unnamed GPU is all it shows for certain.
			code, _ := strconv.ParseUint(m[1], 10, 64)
			g := gpu(maskedBus)
			g.BusID = ""
			g.Xids = append(g.Xids, sampler.Xid{Time: at, Code: code})
			g.Lost = g.Lost || code == 79
			p.where(g.Index, "xids", no)
			xids++
			masked++
			continue
		}
		if m := offBusRE.FindStringSubmatch(l); m != nil {
			g := gpu(m[1])
			if !g.Lost {
				lost++
			}
			g.Lost = true
			p.where(g.Index, "lost", no)
			continue
		}
		if noGSPImageRE.MatchString(l) {
			noGSPImage = true
			continue
		}
		bus, unassigned := "", false // a BAR without an address window: the probe refused the GPU
		if m := initFailRE.FindStringSubmatch(l); m != nil {
			bus = m[1]
		} else if m := barLineRE.FindStringSubmatch(l); m != nil {
			bus, unassigned = m[1], true
		}
		if bus != "" {
			g := gpu(bus)
			if !g.Lost {
				initFail++
			}
			g.Lost = true
			g.GSPFirmwareMissing = noGSPImage
			g.BARUnassigned = unassigned
			p.where(g.Index, "lost", no)
			continue
		}
		if k := initMinorKey(l); k != "" { // an old driver's, by minor number (kerninitminor.go)
			g := gpu(k)
			g.BusID = ""
			if !g.Lost {
				initFail++
			}
			g.Lost = true
			p.where(g.Index, "lost", no)
			continue
		}
		if fw.add(l, no) || oops.add(l, no) {
			continue
		}
		if sxidRE.MatchString(l) {
			sxids++
		}
	}
	fwNote := fw.resolve(order, func(key string, line int) {
		g := gpu(key)
		if strings.HasPrefix(key, "driver GPU") {
			g.BusID = ""
		}
		g.Lost = true
		p.where(g.Index, "lost", line)
	})
	oopsNote := oops.place(order, gpu, p, seen)
	if len(order) == 0 {
		if dups > 0 {
			return p.skip(sampler.Counted(dups, "repeated message", "repeated messages") + " counted once (read in an earlier section)")
		}
		if sxids > 0 {
			return p.skip(sampler.Counted(sxids, "NVSwitch SXid line", "NVSwitch SXid lines") + ": switch errors, not tied to one GPU (see NVIDIA's Xid catalogue, SXid section)")
		}
		if r := kernNoProbeReason(sec.lines); r != "" { // kernnoprobe.go
			return p.skip(r)
		}
		if r := kernUnsupportedReason(sec.lines); r != "" { // kernunsupported.go
			return p.skip(r)
		}
		return p.skip("kernel lines without an NVIDIA Xid or fallen-off-the-bus message")
	}
	snap := sampler.Snapshot{}
	sort.Strings(order) // nvidia-smi numbers GPUs in PCI bus order by default
	for _, k := range order {
		snap.GPUs = append(snap.GPUs, *byBus[k])
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("%s on %s", sampler.Counted(xids, "Xid line", "Xid lines"), countGPUs(len(order))))
	if lost > 0 {
		p.note(sampler.Counted(lost, "fallen-off-the-bus message", "fallen-off-the-bus messages"))
	}
	if dups > 0 {
		p.note(sampler.Counted(dups, "repeated message", "repeated messages") + " counted once")
	}
	if masked > 0 {
		p.note(sampler.Counted(masked, "Xid line", "Xid lines") + " with the PCI address masked: read as one GPU whose address the paste hides")
	}
	if initFail > 0 {
		p.note(countGPUs(initFail) + " the driver failed to initialise (RmInitAdapter failed)")
		if noGSPImage {
			p.note("the driver found no GSP firmware image before (RmFetchGspRmImages): a missing firmware file, not a failing GPU")
		}
	}
	if fwNote != "" {
		p.note(fwNote)
	}
	if oopsNote != "" {
		p.note(oopsNote)
	}
	if sxids > 0 {
		p.note(sampler.Counted(sxids, "NVSwitch SXid line", "NVSwitch SXid lines") + " (not tied to a GPU)")
	}
	return p
}

// kernelTime reads a dmesg -T or ISO (journalctl -o short-iso) stamp;
// plain dmesg's seconds since boot give no date: zero.
func kernelTime(l string) time.Time {
	if m := dmesgTRE.FindStringSubmatch(l); m != nil {
		if t, err := parseTime(m[1], time.UTC); err == nil {
			return t
		}
	}
	if m := isoStampRE.FindStringSubmatch(l); m != nil {
		if t, err := time.Parse(time.RFC3339Nano, m[1]); err == nil {
			return t
		}
	}
	return time.Time{}
}

// nvidia-smi's line for a GPU it cannot reach, printed above the table:
// "Unable to determine the device handle for GPU0000:41:00.0: Unknown
// Error", also "for GPU 3: 00000000:41:00.0: GPU is lost".
var smiErrIdxRE = lazy(`(?i)for gpu\s*(\d{1,2})\s*:\s`)

// The error quoted in a sentence that names the GPU by index: "the GPU 1
// falls out of the bus, and nvidia-smi outputs ... Unable to determine the
// device handle for GPU 0000:0B:00.0" (corpus: unable-handle-unknown-
// error-4x2080ti-*, whose nvidia-smi -L gives no bus ids).
var proseLostIdxRE = lazy(`(?i)\bgpu\s*#?(\d{1,2})\s+(?:has\s+|had\s+)?(?:falls?|fell|fallen|drops?|dropped)\s+(?:off|out\s+of)\s+the\s+bus`)

func parseSMIErrors(sec *section, inContainer, guest string) *part {
	p := newPart(sec)
	if q := containerLost(sec, inContainer); q != nil {
		return q
	}
	if q := guestUnreachable(sec, guest); q != nil {
		return q
	}
	snap := sampler.Snapshot{}
	lost := 0
	for i, l := range sec.lines {
		if m := infoROMRE.FindStringSubmatch(l); m != nil {
			g := sampler.GPU{Index: provisionalIndex(len(snap.GPUs)), BusID: m[1], InfoROMCorrupt: true}
			p.where(g.Index, "inforom", sec.first+i)
			snap.GPUs = append(snap.GPUs, g)
			p.note(strings.TrimSpace(l))
			continue
		}
		if low := strings.ToLower(l); !strings.Contains(low, "device handle") && !strings.Contains(low, "gpu is lost") {
			p.note(strings.TrimSpace(l))
			continue
		}
		g := sampler.GPU{Index: provisionalIndex(len(snap.GPUs)), BusID: tblBusRE.FindString(l), Lost: true}
		if m := smiErrIdxRE.FindStringSubmatch(l); m != nil {
			g.Index, _ = strconv.Atoi(m[1])
		} else if m := proseLostIdxRE.FindStringSubmatch(l); m != nil {
			g.Index, _ = strconv.Atoi(m[1])
		}
		p.where(g.Index, "lost", sec.first+i)
		snap.GPUs = append(snap.GPUs, g)
		lost++
	}
	if len(snap.GPUs) == 0 {
		if len(p.notes) > 0 && nvmlUnknownRE.MatchString(p.notes[0]) {
			return p.skip(nvmlUnknownAlone)
		}
		if len(p.notes) > 0 && strings.HasPrefix(strings.ToLower(p.notes[0]), "no devices") {
			return p.skip(noDevices)
		}
		if len(p.notes) > 0 && !strings.Contains(strings.ToLower(p.notes[0]), "inforom") {
			return p.skip(smiFailure(p.notes[0]))
		}
		p.snaps = nil
		return p
	}
	p.snaps = []sampler.Snapshot{snap}
	if lost > 0 {
		p.note(countGPUs(lost) + " nvidia-smi cannot reach: reported lost")
	}
	return p
}

// infoROMRE: nvidia-smi's warning that a board's infoROM failed its
// check, with the GPU's bus id (nvidia-smi(1); corpus:
// smi-table-8xv100-460-inforom-warning-*).
var infoROMRE = lazy(`(?i)warning: infoROM is corrupted at gpu\s+([0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}(?:\.[0-9a-f])?)`)
