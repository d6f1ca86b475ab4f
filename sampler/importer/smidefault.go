package importer

import (
	"strconv"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// The default `nvidia-smi` table. Its layout changed across drivers (the
// 3xx/4xx 79-column box, the 5xx "Disp.A / Volatile Uncorr. ECC" box, the
// 89-column 530+ box with "MIG M.", the newest banners), but every layout
// keeps each GPU as one box of three "|"-separated columns whose lines
// carry the same words; the reader matches those words by content, not by
// column position, so any layout and a table cut anywhere read the same.

var (
	// R610 and later print "KMD Version: ... CUDA UMD Version: ..." where older drivers print
	// "Driver Version: ... CUDA Version: ..." (the same two numbers).
	tblBannerRE = lazy(`NVIDIA-SMI\s+(\S+)\s+(?:Driver|KMD) Version:\s*(\S+)(?:\s+CUDA (?:UMD )?Version:\s*(\S+))?`)
	tblIdxRE    = lazy(`^\s*(\d+)\s+(.*?)\s*(On|Off|N/A|WDDM|TCC|MCDM)?\s*$`)
	tblBusRE    = lazy(`([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])`)
	tblMemRE    = lazy(`(\d+)\s*(MiB|GiB|MB|KiB)\s*/\s*(\d+)\s*(MiB|GiB|MB|KiB)`)
	tblTempRE   = lazy(`(?:^|\s)(\d+)C(?:\s|$)`)
	tblPerfRE   = lazy(`(?:^|\s)P(\d{1,2})(?:\s|$)`)
	tblPowerRE  = lazy(`(\d+(?:\.\d+)?|N/A|ERR!)\s*W?\s*/\s*(\d+(?:\.\d+)?W|N/A|ERR!)`)
	tblFanRE    = lazy(`^\s*(\d+)%`)
	tblUtilRE   = lazy(`(\d+)%\s+(Default|E\. Process|E\. Thread|Prohibited|N/A)`)
	tblUtilNARE = lazy(`N/A\s+(Default|E\. Process|E\. Thread|Prohibited)`)
)

// tableGPU is one GPU box being read.
type tableGPU struct {
	g     sampler.GPU
	lines map[string]int // field -> absolute line number
	errs  []string       // the fields that read ERR!, as tableErrFields names them
}

// parseTable reads one default-table section into a part.
func parseTable(sec *section, loc *time.Location) *part {
	p := newPart(sec)
	if loc != nil {
		p.loc = loc // the banner's time is the machine's local time
	}
	snap := sampler.Snapshot{}
	var cur *tableGPU
	var gpus []*tableGPU
	block := "gpu"
	seenHeader := false
	for i, l := range sec.lines {
		no := sec.first + i
		t := strings.TrimSpace(l)
		if dateRE.MatchString(l) {
			if ts, err := parseTime(t, p.loc); err == nil {
				p.setTime(ts, no)
			}
			continue
		}
		if m := tblBannerRE.FindStringSubmatch(l); m != nil {
			snap.Node.Driver, snap.Node.CUDA = m[2], m[3]
			p.note("driver " + m[2])
			continue
		}
		switch {
		case block == "gpu" && cur == nil && !seenHeader && isBareProcRow(l): // rows without their header: smiprocrows.go
			block, p.procsListed = "procs", true
		case strings.Contains(t, "MIG devices"):
			block = "mig"
			continue
		case strings.Contains(t, "Processes:"):
			block = "procs"
			p.procsListed = true
			continue
		case strings.Contains(t, "vGPU ID") && strings.Contains(t, "VM Name"): // nvidia-smi vgpu's second header line
			continue
		case strings.Contains(t, "Bus-Id") || strings.Contains(t, "Pwr:Usage") || strings.Contains(t, "Persistence-M"):
			block, seenHeader = "gpu", true
			continue
		case strings.HasPrefix(t, "+") || strings.HasPrefix(t, "|=") || t == "":
			continue
		}
		cells := strings.Split(strings.Trim(t, "|"), "|")
		switch block {
		case "gpu":
			if len(cells) < 2 {
				continue
			}
			if readMIGLine(&gpus, cells, no) { // a MIG devices row whose box header the paste lost
				block = "mig"
				continue
			}
			if readVGPURow(cur, cells, no) {
				continue
			}
			if m := tblIdxRE.FindStringSubmatch(cells[0]); m != nil && m[2] != "" {
				idx, _ := strconv.Atoi(m[1])
				cur = &tableGPU{g: sampler.GPU{Index: idx, Name: strings.TrimRight(m[2], ". ")}, lines: map[string]int{"name": no}}
				cur.g.Persistence = onOff(m[3])
				gpus = append(gpus, cur)
			}
			if cur != nil {
				readTableGPULine(cur, cells, no)
			}
		case "mig":
			readMIGLine(&gpus, cells, no)
		case "procs":
			readProcLine(&gpus, t, no)
		}
	}
	if len(gpus) == 0 {
		return p.skip(noGPURow(snap.Node.Driver, seenHeader, p.procsListed))
	}
	for i := range gpus {
		if errUnreachable(gpus[i].errs) {
			gpus[i].g.Lost = true
			gpus[i].lines["lost"] = gpus[i].lines["error"]
		}
	}
	for _, tg := range gpus {
		snap.GPUs = append(snap.GPUs, tg.g)
		for f, no := range tg.lines {
			p.where(tg.g.Index, f, no)
		}
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(countGPUs(len(gpus)) + tableCut(sec.lines, block, cur) + noGPUBox(cur))
	if p.procsListed {
		p.note("processes listed")
	}
	for _, tg := range gpus {
		switch {
		case tg.g.Lost && errUnreachable(tg.errs):
			p.note(errLostNote(tg.g.Index, tg.errs))
		case len(tg.errs) > 0:
			p.note(errNote(tg.g.Index, tg.errs))
		}
	}
	return p
}

// readTableGPULine takes one line of a GPU box: the words it holds say
// which fields they are.
func readTableGPULine(tg *tableGPU, cells []string, no int) {
	g := &tg.g
	c0 := cells[0]
	if m := tblTempRE.FindStringSubmatch(c0); m != nil {
		g.Temp = num(m[1])
		tg.lines["temp"] = no
	}
	if m := tblPerfRE.FindStringSubmatch(c0); m != nil {
		g.PState = num(m[1])
	}
	if m := tblPowerRE.FindStringSubmatch(c0); m != nil {
		g.Power, g.PowerLimit = num(m[1]), num(strings.TrimSuffix(m[2], "W"))
		tg.lines["power"], tg.lines["power_limit"] = no, no
	}
	if m := tblFanRE.FindStringSubmatch(c0); m != nil {
		g.Fan = num(m[1])
	}
	c1 := cells[1]
	if m := tblBusRE.FindStringSubmatch(c1); m != nil && g.BusID == "" {
		g.BusID = m[1]
		tg.lines["bus_id"] = no
	}
	if m := tblMemRE.FindStringSubmatch(c1); m != nil && !g.MemTotal.OK {
		g.MemUsed, g.MemTotal = memNum(m[1], m[2]), memNum(m[3], m[4])
		tg.lines["mem_used"], tg.lines["mem_total"] = no, no
	}
	tg.errs = append(tg.errs, tableErrFields(cells, tg.lines["name"] == no)...)
	for _, c := range cells {
		if strings.Contains(c, "ERR!") || strings.Contains(c, "Unknown Error") || strings.Contains(c, "GPU is lost") {
			tg.lines["error"] = no
			if strings.Contains(c, "GPU is lost") {
				g.Lost = true
				tg.lines["lost"] = no
			}
		}
	}
	if len(cells) < 3 {
		return
	}
	c2 := strings.TrimSpace(cells[2])
	switch {
	case tblUtilRE.MatchString(c2):
		m := tblUtilRE.FindStringSubmatch(c2)
		g.Util = num(m[1])
		g.ComputeMode = computeMode(m[2])
		tg.lines["util"] = no
	case tblUtilNARE.MatchString(c2):
		g.ComputeMode = computeMode(tblUtilNARE.FindStringSubmatch(c2)[1])
		tg.lines["util"] = no
	case tblVGPUUtilRE.MatchString(c2) && (tblBusRE.MatchString(c1) || tblMemRE.MatchString(c1)):
		// nvidia-smi vgpu's bare "3%", or a GPU row cut after its GPU-Util
		// (the compute mode lost: corpus smi-table-cut-2xm40-*).
		g.Util = num(tblVGPUUtilRE.FindStringSubmatch(c2)[1])
		tg.lines["util"] = no
	case c2 == "Enabled" || c2 == "Disabled":
		g.MIG = c2 == "Enabled"
		tg.lines["mig"] = no
	default:
		if n, err := strconv.Atoi(c2); err == nil && tg.lines["ecc_uncorrected"] == 0 {
			g.ECCUncorrected = sampler.Some(float64(n))
			tg.lines["ecc_uncorrected"] = no
		}
	}
}

func computeMode(s string) string {
	switch s {
	case "Default":
		return "default"
	case "E. Process", "E. Thread":
		return "exclusive_process"
	case "Prohibited":
		return "prohibited"
	}
	return ""
}

// readMIGLine takes a MIG devices row: "GPU GI CI MIG-dev | mem | SM ECC | ...",
// and says whether the line was one. No GPU row starts with four numbers
// (its first cell holds the GPU's name), so a row that does is a MIG
// device's even where the paste begins below the box's "MIG devices:"
// header, and its memory is the instance's, not a GPU's.
func readMIGLine(gpus *[]*tableGPU, cells []string, no int) bool {
	f := strings.Fields(cells[0])
	if len(f) < 4 || len(cells) < 2 {
		return false
	}
	var ids [4]int
	for i := range ids {
		n, err := strconv.Atoi(f[i])
		if err != nil {
			return false
		}
		ids[i] = n
	}
	found := false
	for _, tg := range *gpus {
		found = found || tg.g.Index == ids[0]
	}
	if !found { // the MIG block alone: the GPU is known only by index
		*gpus = append(*gpus, &tableGPU{g: sampler.GPU{Index: ids[0]}, lines: map[string]int{}})
	}
	for _, tg := range *gpus {
		if tg.g.Index != ids[0] {
			continue
		}
		d := sampler.MIGDevice{Index: ids[3], GPUInstance: ids[1], ComputeInstance: ids[2]}
		if m := tblMemRE.FindStringSubmatch(cells[1]); m != nil {
			d.MemUsed, d.MemTotal = memNum(m[1], m[2]), memNum(m[3], m[4])
		}
		tg.g.MIG = true
		tg.g.MIGDevices = append(tg.g.MIGDevices, d)
		tg.lines["mig"] = no
	}
	return true
}

// readProcLine takes a process row: "GPU [GI CI] PID Type Name Memory".
func readProcLine(gpus *[]*tableGPU, t string, no int) {
	if strings.Contains(t, "No running processes found") {
		return
	}
	f := strings.Fields(strings.Trim(t, "| "))
	if len(f) < 4 {
		return
	}
	idx, err := strconv.Atoi(f[0])
	if err != nil {
		return
	}
	ti := -1
	for i := 2; i < len(f)-1; i++ {
		if isProcType(f[i]) {
			ti = i
			break
		}
	}
	if ti < 0 {
		return
	}
	pid, err := strconv.Atoi(f[ti-1])
	if err != nil {
		return
	}
	proc := sampler.GPUProc{PID: pid, Type: f[ti]}
	last := f[len(f)-1]
	name := strings.Join(f[ti+1:len(f)-1], " ")
	if m, err := parseValue(last, memory, "MiB"); err == nil {
		proc.MemUsed = m
	} else {
		name = strings.Join(f[ti+1:], " ")
	}
	if name != "" {
		proc.Host = &sampler.Proc{PID: pid, Name: name}
	}
	var tg *tableGPU
	for _, g := range *gpus {
		if g.g.Index == idx {
			tg = g
		}
	}
	if tg == nil { // the processes block alone: the GPU is known only by index
		tg = &tableGPU{g: sampler.GPU{Index: idx}, lines: map[string]int{}}
		*gpus = append(*gpus, tg)
	}
	gi, ci := -1, -1
	if ti-1 >= 3 {
		gi, _ = strconv.Atoi(f[1])
		ci, _ = strconv.Atoi(f[2])
	}
	for i := range tg.g.MIGDevices {
		d := &tg.g.MIGDevices[i]
		if d.GPUInstance == gi && d.ComputeInstance == ci {
			d.Procs = append(d.Procs, proc)
		}
	}
	tg.g.Procs = append(tg.g.Procs, proc)
	tg.lines["procs"] = no
}

func isProcType(s string) bool {
	switch s {
	case "C", "G", "C+G", "M", "M+C", "M+G", "M+C+G", "G+C":
		return true
	}
	return false
}

func num(s string) sampler.Metric {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return sampler.Metric{}
	}
	return sampler.Some(v)
}

func memNum(n, unit string) sampler.Metric {
	v, err := strconv.ParseFloat(n, 64)
	scale, ok := memScale(unit)
	if err != nil || !ok {
		return sampler.Metric{}
	}
	return sampler.Some(v * scale)
}

// Out of line: inlined at its many call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func countGPUs(n int) string {
	return sampler.Counted(n, "GPU", "GPUs")
}
