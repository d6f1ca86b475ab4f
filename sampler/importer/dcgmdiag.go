package importer

import (
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// The table `dcgmi diag -r N` prints (dcgmi/Diag.cpp, DCGM 2.x-4.x): a
// 27-column name cell and a value cell, blocks headed by a category line,
// each test's result(s) and its Warning/Error/Info rows under it:
//
//	|-----  Deployment  --------+------------------------------------------------|
//	| Denylist                  | Pass                                           |
//	+-----  Hardware  ----------+------------------------------------------------+
//	| GPU Memory                | Pass - GPUs: 1, 2, 3                           |   (2.x/3.x)
//	|                           | Fail - GPU: 0                                  |
//	| Warning                   | GPU 0 Thermal violations totaling 13.3 second  |
//	|                           | s started at 9.7 seconds into the test ...     |
//	| memory                    | Fail                                           |   (4.x)
//	|                           | GPU0: Fail                                     |
//	| Warning: GPU0             | Error using CUDA API cudaMalloc ...            |
//
// Messages are cut every 45 characters regardless of words, so a
// continuation is joined without a space.
var (
	diagCatRE    = lazy(`^[|+]-{3,}\s+([A-Za-z][A-Za-z ]*[A-Za-z])\s+-+\+-+[|+]$`)
	diagRowRE    = lazy(`^\|([^|]{27})\|(.*)$`)
	diagBorderRE = lazy(`^\+[-=]{27}\+[-=]+\+$`)
	diagResRE    = lazy(`^(Pass|Fail|Skip|Warn|Not Run)(?:\s+-\s+(All|GPUs?:\s*([\d,\s]+)))?$`)
	diagEntRE    = lazy(`^([A-Za-z]+)(\d+):\s*(Pass|Fail|Skip|Warn|Not Run)$`)
	diagMsgRE    = lazy(`^(Warning|Error|Info)(?::\s*([A-Za-z]+)(\d+))?$`)
	diagGPURE    = lazy(`GPU\s?(\d{1,3})(?:\D|$)`) // "GPU 0GPU 0's NvLink" (2.x doubles the prefix)
)

const (
	kindDiag = "dcgmi diag"
	// diagWrap is where DCGM cuts a message (DATA_INFO_TAG_LEN).
	diagWrap = 45
)

// isDiagLine: a line of the diag table's shape (either layout).
func isDiagLine(l string) bool {
	t := strings.TrimSpace(l)
	return diagRowRE.MatchString(t) || diagCatRE.MatchString(t) || diagBorderRE.MatchString(t)
}

// diagRun is the length of the diag table from ls[i], 0 when the run of
// table-shaped lines holds nothing only dcgmi prints (a category line, a
// result, a Warning row): a bare box could be another tool's.
func diagRun(ls []string, i int) int {
	n, marks := 0, 0
	for ; i+n < len(ls) && isDiagLine(ls[i+n]); n++ {
		t := strings.TrimSpace(ls[i+n])
		if diagCatRE.MatchString(t) {
			marks++
			continue
		}
		if m := diagRowRE.FindStringSubmatch(t); m != nil {
			name, val := strings.TrimSpace(m[1]), diagValue(m[2])
			if diagMsgRE.MatchString(name) || diagResRE.MatchString(val) || diagEntRE.MatchString(val) ||
				name == "Diagnostic" && strings.HasPrefix(val, "Result") {
				marks++
			}
		}
	}
	if marks == 0 {
		return 0
	}
	return n
}

// diagValue is the value cell's text without its frame.
func diagValue(cell string) string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(cell, " "), "|"))
}

// diagChunk is the part of a value cell a message continues with: the
// 45 characters DCGM wrote (trailing spaces kept, they can be the space
// between two words), or the trimmed text where the cell is cut short.
func diagChunk(cell string) (string, bool) {
	s := strings.TrimSuffix(strings.TrimRight(cell, " "), "|")
	s = strings.TrimPrefix(s, " ")
	if len(s) >= diagWrap && strings.TrimSpace(s[diagWrap:]) == "" {
		return s[:diagWrap], true
	}
	return strings.TrimRight(s, " "), false
}

// diagReader is the parse state of one table.
type diagReader struct {
	p        *part
	category string
	test     string
	checks   []sampler.DiagCheck
	first    int // index in checks of the current test's first check
	msg      *sampler.DiagMessage
	msgLine  int
	full     bool // the message's last chunk filled the wrap: the next row continues it
	version  string
	devices  int
	driver   string
}

// parseDiag reads a dcgmi diag table into the node's Diag checks, with
// the GPUs it names.
func parseDiag(sec *section) *part {
	r := &diagReader{p: newPart(sec), first: -1}
	for k, l := range sec.lines {
		r.line(strings.TrimSpace(l), sec.first+k)
	}
	r.endMessage()
	if len(r.checks) == 0 {
		return r.p.skip("a dcgmi diag table with no test result in it")
	}
	snap := sampler.Snapshot{Node: sampler.Node{Diag: r.checks, Driver: r.driver}}
	for _, i := range r.gpus() {
		snap.GPUs = append(snap.GPUs, sampler.GPU{Index: i})
	}
	r.p.snaps = []sampler.Snapshot{snap}
	r.p.note(diagNote(r.checks, r.version, len(snap.GPUs)) + diagCut(sec.lines, r.category))
	return r.p
}

// diagCut says where a table cut before its closing border stops: the
// tests after that point were not seen, so passes above it are no verdict
// on the node (IBM autopilot's -r 3 paste, cut inside Deployment before
// its PCIe failure: sampler/importer/testdata/real/INDEX.md, batch 8).
func diagCut(ls []string, category string) string {
	k := len(ls) - 1
	for k > 0 && strings.TrimSpace(ls[k]) == "" {
		k--
	}
	if k < 0 || diagBorderRE.MatchString(strings.TrimSpace(ls[k])) {
		return ""
	}
	if category == "" {
		return "; the table stops before its first section: the tests in it were not seen, not judged"
	}
	return "; the table stops inside its " + category + " section: the tests after it were not seen, not judged"
}

func (r *diagReader) line(t string, no int) {
	if m := diagCatRE.FindStringSubmatch(t); m != nil {
		r.endMessage()
		r.category, r.test, r.first = m[1], "", -1
		return
	}
	m := diagRowRE.FindStringSubmatch(t)
	if m == nil {
		return // a border
	}
	name, val := strings.TrimSpace(m[1]), diagValue(m[2])
	switch {
	case r.category == "Metadata" && name != "":
		r.metadata(name, val)
	case name == "Diagnostic" && strings.HasPrefix(val, "Result"):
	case diagMsgRE.MatchString(name):
		r.endMessage()
		mm := diagMsgRE.FindStringSubmatch(name)
		gpu := -1
		if strings.EqualFold(mm[2], "GPU") {
			gpu, _ = strconv.Atoi(mm[3])
		}
		chunk, full := diagChunk(m[2])
		r.msg, r.msgLine, r.full = &sampler.DiagMessage{Kind: strings.ToLower(mm[1]), GPU: gpu, Text: chunk}, no, full
	case name == "" && r.msg != nil && (r.full || !isDiagResult(val)):
		chunk, full := diagChunk(m[2])
		r.msg.Text += chunk
		r.full = full
	case name == "":
		r.endMessage()
		if r.first >= 0 {
			r.result(val, no)
		} // else: the tail of a message cut above the paste
	default:
		r.endMessage()
		r.test, r.first = name, len(r.checks)
		r.result(val, no)
	}
}

func isDiagResult(v string) bool { return diagResRE.MatchString(v) || diagEntRE.MatchString(v) }

func (r *diagReader) metadata(name, val string) {
	switch name {
	case "DCGM Version":
		r.version = val
	case "Driver Version Detected":
		r.driver = val
	case "GPU Device IDs Detected":
		if val != "" {
			r.devices = len(strings.Split(val, ","))
		}
	}
}

// result adds "Pass - GPUs: 1, 2", "Fail - All", "Pass" or "GPU0: Fail"
// to the current test. 4.x prints the test's overall result and then one
// row per GPU: the per-GPU rows replace the overall one.
func (r *diagReader) result(val string, no int) {
	var res string
	var gpus []int
	if m := diagResRE.FindStringSubmatch(val); m != nil {
		res = strings.ToLower(m[1])
		for _, f := range strings.FieldsFunc(m[3], func(c rune) bool { return c == ',' || c == ' ' }) {
			if n, err := strconv.Atoi(f); err == nil && n < maxPictureGPUs {
				gpus = append(gpus, n)
			}
		}
	} else if m := diagEntRE.FindStringSubmatch(val); m != nil {
		if !strings.EqualFold(m[1], "GPU") {
			return // a CPU or NVSwitch entity: not a GPU of this picture
		}
		n, _ := strconv.Atoi(m[2])
		if n >= maxPictureGPUs {
			return
		}
		res, gpus = strings.ToLower(m[3]), []int{n}
		if o := len(r.checks) - 1; o == r.first && r.checks[o].GPUs == nil {
			r.checks = r.checks[:o] // the overall row the GPU rows detail
		}
		for i := r.first; i < len(r.checks); i++ {
			if c := &r.checks[i]; c.Result == res && c.GPUs != nil {
				c.GPUs = append(c.GPUs, n)
				r.where(n, no)
				return
			}
		}
	} else {
		return
	}
	r.checks = append(r.checks, sampler.DiagCheck{Category: r.category, Test: r.test, Result: res, GPUs: gpus})
	for _, g := range gpus {
		r.where(g, no)
	}
}

func (r *diagReader) where(gpu, line int) {
	if _, ok := r.p.at[fieldAt{gpu, "diag"}]; !ok {
		r.p.where(gpu, "diag", line)
	}
}

// endMessage files the open message under the check it belongs to: the
// one naming its GPU, else the first that did not pass.
func (r *diagReader) endMessage() {
	m := r.msg
	r.msg, r.full = nil, false
	if m == nil {
		return
	}
	m.Text = strings.Join(strings.Fields(m.Text), " ")
	if m.GPU < 0 {
		if g := diagGPURE.FindStringSubmatch(m.Text); g != nil {
			m.GPU, _ = strconv.Atoi(g[1])
		}
	}
	if m.GPU >= maxPictureGPUs {
		m.GPU = -1
	}
	if r.first < 0 || r.first >= len(r.checks) {
		// A message with no result row above it: an Error straight under
		// a category (the check's name cut from the paste), or a result
		// cell this reader cannot read. Its kind is the verdict.
		res := map[string]string{"error": "fail", "warning": "warn"}[m.Kind]
		if res == "" {
			return // an Info row judges nothing
		}
		if r.first < 0 {
			r.test = ""
		}
		r.first = len(r.checks)
		r.checks = append(r.checks, sampler.DiagCheck{Category: r.category, Test: r.test, Result: res})
	}
	if m.GPU >= 0 {
		r.p.where(m.GPU, "diag", r.msgLine)
	}
	pick := len(r.checks) - 1
	for i := len(r.checks) - 1; i >= r.first; i-- {
		c := &r.checks[i]
		if m.GPU >= 0 && containsInt(c.GPUs, m.GPU) {
			pick = i
			break
		}
		if c.Result != "pass" {
			pick = i
		}
	}
	r.checks[pick].Messages = append(r.checks[pick].Messages, *m)
}
