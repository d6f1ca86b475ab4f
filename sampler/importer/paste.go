package importer

import (
	"strings"
)

// Section kinds of pasted text: what a run of lines was recognised as.
const (
	kindTable    = "nvidia-smi table"
	kindQuery    = "nvidia-smi -q"
	kindTopo     = "nvidia-smi topo -m"
	kindKernel   = "kernel log"
	kindSMIError = "nvidia-smi error lines"
	kindList     = "nvidia-smi -L"
	kindCUDAInit = "CUDA initialisation error"
	kindStream   = "log" // a CSV, dmon, pmon, dcgmi or XML run; its Format says which
	kindOther    = "other text"
)

// section is a run of lines of one kind inside pasted text.
type section struct {
	kind   string
	format Format // kindStream only
	file   string // the input it came from (report A B C)
	first  int    // 1-based line number of lines[0] in its input
	lines  []string
	// header is a CSV header taken from the command line above rows
	// printed with --format=csv,noheader ("" when the rows carry one).
	header string
}

// ansiRE matches the terminal escapes a terminal capture leaves in text
// (CSI colour and cursor sequences, OSC titles).
var ansiRE = lazy(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]`)

// cleanLine removes what a paste adds around the tool's own text: terminal
// escapes, carriage returns, tabs (expanded to 8-column stops, as a
// terminal shows them, so indentation survives), trailing spaces.
func cleanLine(s string) string {
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansiRE.ReplaceAllString(s, "")
	}
	s = strings.TrimRight(s, "\r")
	if strings.IndexByte(s, '\r') >= 0 { // a progress line redrawn in place: keep the last drawing
		s = s[strings.LastIndexByte(s, '\r')+1:]
	}
	if strings.IndexByte(s, '\t') >= 0 {
		var b strings.Builder
		col := 0
		for _, r := range s {
			if r == '\t' {
				n := 8 - col%8
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			b.WriteRune(r)
			col++
		}
		s = b.String()
	}
	return strings.TrimRight(s, " ")
}

var (
	fenceRE   = lazy("^\\s*(```|~~~)")
	promptRE  = lazy(`^\s*([\w.-]+@[\w.-]+[^$#>]*[$#]|\$|#|>|PS [A-Z]:\\[^>]*>|[A-Z]:\\[^>]*>)\s*(sudo\s+)?(nvidia-smi|nvidia-bug-report|dmesg|journalctl|dcgmi|watch|cat|grep|gpuscope)\b`)
	qStartRE  = lazy(`^(=+\s*NVSMI LOG\s*=+|Timestamp\s+:|Attached GPUs\s+:|Driver Version\s+:|GPU [0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]\s*$)`)
	qLineRE   = lazy(`^\S[^:]*\s:(\s|$)`)
	topoRowRE = lazy(`^\s*(GPU\d+|NIC\d+|mlx\S+|CPU\d+|ib\S*|eth\S*|Legend:?|NIC Legend:?)(\s|$)`)
	legendRE  = lazy(`^\s+(X|SYS|NODE|PHB|PXB|PIX|NV#|NV\d*|NIC\d+)\s*[=:]`)
	kernelRE  = lazy(`NVRM:|nvidia-modeset|nvidia-nvlink|nvidia-uvm|\bkernel:|^\s*\[\s*\d+\.\d+\]`)
	dateRE    = lazy(`^\s*(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+\w{3}\s+\d+\s+\d\d:\d\d:\d\d\s+\d{4}\s*$`)
	smiErrRE  = lazy(`(?i)^\s*(unable to determine the device handle|nvidia-smi has failed|no devices (?:were )?found|failed to initialize nvml|unable to determine the (number|handle)|warning: infoROM is corrupted)`)
	// smiErrQuotedRE: the device-handle error quoted inside a sentence
	// ("nvidia-smi outputs the following error: Unable to determine the
	// device handle for GPU 0000:0B:00.0: Unknown Error."); the PCI address
	// makes it nvidia-smi's words, not prose about them, so the words before
	// "determine" are not needed: a quote whose first letters a copy lost
	// ("nable to determine ...") is the same error.
	smiErrQuotedRE = lazy(`(?i)determine the device handle for GPU\s*[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}`)
)

// splitPaste cuts cleaned lines into sections of known kinds; what is none
// of them becomes kindOther. Each recogniser claims a run of lines from its
// start; the first that claims wins.
func splitPaste(file string, raw []string) []section {
	ls := make([]string, len(raw))
	for i, l := range raw {
		if fenceRE.MatchString(l) {
			l = "" // a markdown fence is a boundary, not content
		}
		ls[i] = unquote(cleanLine(l))
	}
	unwrapMessages(ls, raw)
	var out []section
	other := -1
	pendingHeader := "" // from a "--query-gpu=... --format=csv,noheader" command line
	flushOther := func(end int) {
		if other >= 0 {
			out = append(out, section{kind: kindOther, file: file, first: other + 1, lines: ls[other:end]})
			other = -1
		}
	}
	for i := 0; i < len(ls); {
		if h := queryHeader(ls[i]); h != "" {
			pendingHeader = h
		}
		kind, format, n := claim(ls, i)
		if n == 0 && pendingHeader != "" {
			n = noheaderRun(ls, i, pendingHeader)
			kind, format = kindStream, SMICSV
		}
		if n == 0 {
			if other < 0 && strings.TrimSpace(ls[i]) != "" {
				other = i
			}
			i++
			continue
		}
		flushOther(i)
		sec := section{kind: kind, format: format, file: file, first: i + 1, lines: ls[i : i+n]}
		if kind == kindStream && format == SMICSV && pendingHeader != "" && !isSMICSVHeader(splitCSV(strings.TrimSpace(ls[i]))) {
			sec.header = pendingHeader
		}
		pendingHeader = ""
		out = append(out, sec)
		i += n
	}
	flushOther(len(ls))
	return out
}

// claim reports the kind and length of the section starting at ls[i], or 0.
func claim(ls []string, i int) (string, Format, int) {
	l := ls[i]
	t := strings.TrimSpace(l)
	switch {
	case t == "":
		return "", Unknown, 0
	case isSMIErrLine(l):
		return kindSMIError, Unknown, runWhile(ls, i, isSMIErrLine)
	case (strings.HasPrefix(t, "+") || strings.HasPrefix(t, "|")) && diagRun(ls, i) > 0: // before the nvidia-smi table: both are boxes
		return kindDiag, Unknown, diagRun(ls, i)
	case migRun(ls, i) > 0:
		return kindMIG, Unknown, migRun(ls, i)
	case isTableStart(ls, i):
		return kindTable, Unknown, tableRun(ls, i)
	case bareProcRun(ls, i) > 0:
		return kindTable, Unknown, bareProcRun(ls, i)
	case qStartRE.MatchString(l) || isQueryFragment(ls, i):
		return kindQuery, Unknown, queryRun(ls, i)
	case nvlSpeedRun(ls, i) > 0: // before -L: its GPU lines head the listing
		return kindNVLinkSpeed, Unknown, nvlSpeedRun(ls, i)
	case isListLine(l):
		return kindList, Unknown, runWhile(ls, i, isListLine)
	case isTopoHeader(l):
		return kindTopo, Unknown, topoRun(ls, i)
	case nvlStatusRun(ls, i) > 0:
		return kindNVLinkStatus, Unknown, nvlStatusRun(ls, i)
	case isDCGMHealthLine(l):
		return kindDCGMHealth, Unknown, runWhile(ls, i, isDCGMHealthLine)
	case isDCGMXidLine(l):
		return kindDCGMXid, Unknown, runWhile(ls, i, isDCGMXidLine)
	case isPluginXidLine(l):
		return kindPluginXid, Unknown, runWhile(ls, i, isPluginXidLine)
	case isNCCLWarnLine(l):
		return kindNCCLWarn, Unknown, runWhile(ls, i, isNCCLWarnLine)
	case isHAMiLine(l) && hamiOOMIn(ls[i:i+runWhile(ls, i, isHAMiLine)]):
		return kindHAMiOOM, Unknown, runWhile(ls, i, isHAMiLine)
	case isVCUDAOOMLine(l):
		return kindVCUDAOOM, Unknown, runWhile(ls, i, isVCUDAOOMLine)
	case isTorchOOMLine(l):
		return kindTorchOOM, Unknown, runWhile(ls, i, isTorchOOMLine)
	case torchAsyncRun(ls, i) > 0:
		return kindTorchOOM, Unknown, torchAsyncRun(ls, i)
	case isCUDAOOMLine(l):
		return kindCUDAOOM, Unknown, runWhile(ls, i, isCUDAOOMLine)
	case fmRun(ls, i) > 0:
		return kindFabricManager, Unknown, fmRun(ls, i)
	case ctxOOMRun(ls, i) > 0:
		return kindCUDAInit, Unknown, ctxOOMRun(ls, i)
	case isCUDAErrorLine(l):
		return kindCUDAInit, Unknown, runWhile(ls, i, isCUDAInitLine)
	case diagErrRun(ls, i) > 0:
		return kindDiagErr, Unknown, diagErrRun(ls, i)
	case isLspciGoneLine(l):
		return kindLspciGone, Unknown, runWhile(ls, i, isLspciGoneLine)
	case isNVMLLostLine(l):
		return kindNVMLLost, Unknown, runWhile(ls, i, isNVMLLostLine)
	case isCtrRuntimeLine(l):
		return kindCtrRuntime, Unknown, runWhile(ls, i, isCtrRuntimeLine)
	case slurmGRES.is(l):
		return kindSlurmGRES, Unknown, runWhile(ls, i, slurmGRES.is)
	case shareErr.is(l):
		return kindShareErr, Unknown, runWhile(ls, i, shareErr.is)
	case kernelRE.MatchString(l):
		return kindKernel, Unknown, runWhile(ls, i, func(s string) bool { return s == joinedAway || kernelRE.MatchString(s) })
	}
	if f, n := streamRun(ls, i); n > 0 {
		return kindStream, f, n
	}
	return "", Unknown, 0
}

// runWhile counts the lines from i on that ok accepts.
//
// Out of line: inlined at its many call sites it cost more than the call
// (docs/benchmarks.md, "Pasted text copied, not changed").
//
//go:noinline
func runWhile(ls []string, i int, ok func(string) bool) int {
	n := 0
	for i+n < len(ls) && ok(ls[i+n]) {
		n++
	}
	return n
}

// isTableStart: a box-drawing line, or nvidia-smi's date banner, with the
// table's own words within the next lines.
func isTableStart(ls []string, i int) bool {
	t := strings.TrimSpace(ls[i])
	if !dateRE.MatchString(ls[i]) && !strings.HasPrefix(t, "+-") && !strings.HasPrefix(t, "|") {
		return false
	}
	for j := i; j < len(ls) && j < i+8; j++ {
		s := ls[j]
		if strings.Contains(s, "NVIDIA-SMI") || strings.Contains(s, "Bus-Id") || strings.Contains(s, "Processes:") ||
			strings.Contains(s, "MIG devices") || strings.Contains(s, "Persistence-M") || strings.Contains(s, "GPU-Util") ||
			strings.HasPrefix(strings.TrimSpace(s), "|") && tblMemRE.MatchString(s) { // a GPU box cut from its table
			return true
		}
	}
	return false
}

// tableRun: box lines, blank lines between the GPU, MIG and process
// blocks, until a line that is none of them.
func tableRun(ls []string, i int) int {
	n := 0
	if dateRE.MatchString(ls[i]) {
		n = 1
	}
	last := n
	for j := i + n; j < len(ls); j++ {
		t := strings.TrimSpace(ls[j])
		switch {
		case strings.HasPrefix(t, "+") || strings.HasPrefix(t, "|"):
			last = j - i + 1
		case t == "":
			continue
		default:
			return last
		}
	}
	return last
}

// queryRun: -q text is "Key : value" lines, indented blocks and "GPU
// <bus id>" headings; an unindented line of another shape ends it.
func queryRun(ls []string, i int) int {
	last := 1
	for j := i + 1; j < len(ls); j++ {
		l := ls[j]
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case l[0] == ' ' || qStartRE.MatchString(l) || qLineRE.MatchString(l) || isElision(t):
			if isTableStart(ls, j) || isTopoHeader(l) {
				return last
			}
			last = j - i + 1
		default:
			return last
		}
	}
	return last
}

// isQueryFragment: a piece cut out of -q text (often by grep -A): an
// indented heading with deeper-indented "Key : value" lines under it.
func isQueryFragment(ls []string, i int) bool {
	l := ls[i]
	if l == "" || l[0] != ' ' && !qBlockTitle(strings.TrimSpace(l)) || strings.Contains(l, " : ") || strings.ContainsAny(strings.TrimSpace(l), "|+#[") {
		return false
	}
	ind := len(l) - len(strings.TrimLeft(l, " "))
	for j := i + 1; j < len(ls) && j < i+3; j++ {
		n := ls[j]
		if strings.TrimSpace(n) == "" {
			continue
		}
		return len(n)-len(strings.TrimLeft(n, " ")) > ind && strings.Contains(n, " : ")
	}
	return false
}

// qBlockTitle: a -q block a paste may start at column 0, cut out of the
// report with grep -A (corpus: smi-q-fabric-insufficient-resources-*).
// A switch, not a map literal built by init (as dmonKnown).
func qBlockTitle(t string) bool {
	switch t {
	case "Fabric", "Temperature", "Clocks Event Reasons", "Clocks Throttle Reasons", "Remapped Rows", "GPU Link Info":
		return true
	}
	return false
}

// isElision is an author's mark for cut text: "[...]", "...", "(snip)".
func isElision(t string) bool {
	t = strings.Trim(t, "[]()<> ")
	return t == "..." || t == "…" || strings.EqualFold(t, "snip") || strings.EqualFold(t, "truncated")
}

func isTopoHeader(l string) bool {
	f := strings.Fields(l)
	return len(f) >= 2 && f[0] == "GPU0" && (l[0] == ' ' || strings.HasPrefix(l, "GPU0")) &&
		(f[1] == "GPU1" || strings.HasPrefix(f[1], "NIC") || strings.HasPrefix(f[1], "mlx") || f[1] == "CPU")
}

// topoRun: the header, device rows, the legends.
func topoRun(ls []string, i int) int {
	last := 1
	for j := i + 1; j < len(ls); j++ {
		l := ls[j]
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			continue
		case topoRowRE.MatchString(l) || legendRE.MatchString(l):
			last = j - i + 1
		default:
			return last
		}
	}
	return last
}
