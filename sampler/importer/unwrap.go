package importer

import (
	"strings"
	"unicode/utf8"
)

// A message line of a tool (a kernel Xid, a CUDA or PyTorch error, an NCCL
// WARN, DCGM's health line, HAMi-core's, the fabric manager's) copied out
// of a chat or mail client, or a terminal, that wrapped it at its width
// comes as two or more lines, and its reader sees none of them whole: the
// Xid code or the free memory is on the second. unwrapMessages joins them
// back where the cut is where that width puts one (docs/corpus-copies.md):
// the line ends at the width (a terminal's cut) or the next line's first
// word would not have fitted (a word wrap), the next line is no line of its
// own, and the joined text is the tool's message.
// The message keeps the first line's number; the lines joined into it
// become joinedAway, blank to every reader but a kernel log's run, which
// goes on past them as it did past the wrapped line.

// joinedAway is a line joined into the one above: no cleaned line is a
// lone space (cleanLine trims them).
const joinedAway = " "

// wrapWidths are the widths a copy wraps at: a terminal's 80 columns and
// the common wider chat, mail and terminal windows.
var wrapWidths = [...]int{80, 100, 120}

// maxWrapped bounds the lines one message is joined from (a 300-character
// PyTorch message at 80 columns is four).
const maxWrapped = 5

// wrapAnchors: a message line holds one of these within its first width,
// so a line without them is not tried. The device-handle error quoted in a
// sentence may start late in its line: "determine" is on the first line of
// any one cut that leaves "device handle" whole on neither. "BUG: ",
// "Oops: ", "IP: " and "pc : " are a kernel oops's header and fault line
// (kernoops.go); "ut of memory" is CUDA's "out of memory" and Paddle's
// "Out of memory" (cudaoom.go); "IS_LOST" is NVML's ERROR_GPU_IS_LOST,
// which ends its line and may be all a wrap leaves on the second
// (nvmllost.go); "umad_init" is NVLSM's start failure (fmlog.go); "is lost" and "eboot the system" are nvidia-smi's "GPU
// is lost. Reboot the system to recover this GPU" quoted without its
// device-handle prefix, a wrap leaving either whole (smilost.go). One string, "|" between anchors: as an array of strings
// each anchor was 16 bytes of initialised data (docs/benchmarks.md,
// "Corpus batch 16").
const wrapAnchors = "NVRM|Xid|CUDA|Cuda|cuda|NCCL|Detected a|HAMI|hijack_call|abric|[ERROR]|device handle|determine|UUID|" +
	"ut of memory|total capacity|event type|unhealthy|NVIDIA Corporation|BUG: |Oops: |IP: |pc : |IS_LOST|umad_init|is lost|eboot the system"

// unwrapMessages joins wrapped messages in ls, the cleaned lines of raw;
// a line's width is taken with the quote marks unquote removed and
// without, since a quote may have been added before the wrap or after it.
func unwrapMessages(ls, raw []string) {
	u := unwrapper{ls: ls, raw: raw}
	for i := 0; i+1 < len(ls); i++ {
		if len(ls[i]) < 40 || u.seps(i, i+1) == nil || !wrapCandidate(ls[i]) && !wrapCandidate(ls[i+1]) || !u.continues(i, i+1, false) {
			continue
		}
		cur, n := ls[i], 0
		if kernelLine(cur) && !isMessageLine(cur) { // a kernel line's tail: lines that are none of their own
			for j := i + 1; j-i < maxWrapped && j < len(ls) && u.continues(j-1, j, true) && claimsNothing(ls, j); j++ {
				cur, n = cur+u.sepsIn(i, j)[0]+ls[j], n+1
			}
			if n == 0 {
				continue
			}
		} else if !isMessageLine(cur) {
			if cur, n = u.complete(i, cur); n == 0 {
				continue
			}
		}
		for j := i + n + 1; j < len(ls) && n+1 < maxWrapped && u.continues(j-1, j, true); j++ {
			joined := ""
			for _, sep := range u.sepsIn(i, j) {
				if c := cur + sep + ls[j]; isMessageLine(c) {
					joined = c
					break
				}
			}
			if joined == "" {
				break
			}
			cur, n = joined, n+1
		}
		if n > 0 {
			ls[i] = cur
			for k := i + 1; k <= i+n; k++ {
				ls[k] = joinedAway
			}
			i += n
		}
	}
}

type unwrapper struct{ ls, raw []string }

// complete joins the fewest lines after ls[i] that make cur a message,
// trying both cuts where a line ends at a width and going on with the
// likelier: at most two tries a line, so a paste of near misses costs a
// few pattern tests a line, as claim does; n is how many lines it joined.
func (u unwrapper) complete(i int, cur string) (string, int) {
	for j := i + 1; j-i < maxWrapped && j < len(u.ls) && u.continues(j-1, j, false); j++ {
		seps := u.sepsIn(i, j)
		for _, sep := range seps {
			if c := cur + sep + u.ls[j]; isMessageLine(c) {
				return c, j - i
			}
		}
		cur += seps[0] + u.ls[j]
	}
	return "", 0
}

// claimsNothing: no reader claims ls[i] as the start of its output.
func claimsNothing(ls []string, i int) bool {
	_, _, n := claim(ls, i)
	return n == 0
}

// wrapCandidate: s holds an anchor; asked of a line and of the line after
// it, since a cut may come before the message's own words.
func wrapCandidate(s string) bool {
	for rest := wrapAnchors; rest != ""; { // strings.Cut: SplitSeq's iterator allocated on every line
		a, r, _ := strings.Cut(rest, "|")
		if strings.Contains(s, a) {
			return true
		}
		rest = r
	}
	return false
}

// continues: line j may be the rest of line i, cut at a width. A word
// wrap drops the space it cut at, so its rest never starts with one; a
// terminal's cut may leave one. The rest of a message is no message of its
// own, but a message not yet whole may go on with one (the last GPUs of an
// nvidia-smi -L pasted on one line); never with a kernel line.
func (u unwrapper) continues(i, j int, whole bool) bool {
	next := u.ls[j]
	seps := u.seps(i, j)
	if strings.TrimSpace(next) == "" || len(seps) == 0 || next[0] == ' ' && seps[0] != "" {
		return false
	}
	return !kernelLine(next) && (!whole || !isMessageLine(next))
}

// kernelLine is kernelRE with its words looked for first: a line of none
// of them is not matched against it.
func kernelLine(s string) bool {
	t := strings.TrimLeft(s, " ")
	stamp := len(t) > 1 && t[0] == '[' && (t[1] == ' ' || t[1] >= '0' && t[1] <= '9') // "[  12.345678]"
	if !stamp && !strings.Contains(s, "NVRM:") && !strings.Contains(s, "nvidia-") && !strings.Contains(s, "kernel:") {
		return false
	}
	return kernelRE.MatchString(s)
}

// seps are what the cut between lines i and j removed: a space where line
// j's first word would have gone past a width; where line i fills one,
// nothing (a terminal's cut) or a space (a word that ended there), the
// space first only where line i ends a sentence or clause and line j
// starts a word, which a cut inside a number ("1." "29 GiB") never does.
func (u unwrapper) seps(i, j int) []string {
	prev, next := u.ls[i], u.ls[j]
	if next == "" {
		return nil
	}
	w := strings.IndexByte(next, ' ')
	if w < 0 {
		w = len(next)
	}
	w = utf8.RuneCountInString(next[:w])
	widths := []int{utf8.RuneCountInString(prev)}
	if i < len(u.raw) && len(u.raw[i]) != len(prev) { // quoted, or with a tab or an escape
		widths = append(widths, utf8.RuneCountInString(cleanLine(u.raw[i])))
	}
	for _, n := range widths {
		for _, width := range wrapWidths {
			switch {
			case n == width && next[0] == ' ':
				return cutOnly
			case n == width && strings.IndexByte(".,;:)", prev[len(prev)-1]) >= 0 && isWordStart(next[0]):
				return spaceFirst
			case n == width:
				return cutFirst
			case n < width && n+1+w > width:
				return spaceOnly
			}
		}
	}
	return nil
}

// sepsIn are seps for the cut before line j of a message that starts at
// line i: once one of its lines ended short of a width, the copy wrapped
// words, so a line filling the width ended a word too ("has" "1.23 GiB").
func (u unwrapper) sepsIn(i, j int) []string {
	seps := u.seps(j-1, j)
	if len(seps) != 2 {
		return seps
	}
	for k := i; k+1 < j; k++ {
		if len(u.seps(k, k+1)) == 1 && u.seps(k, k+1)[0] == " " {
			return spaceFirst
		}
	}
	return seps
}

var (
	cutOnly    = []string{""}
	cutFirst   = []string{"", " "}
	spaceFirst = []string{" ", ""}
	spaceOnly  = []string{" "}
)

func isWordStart(c byte) bool { return c == '(' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

// isMessageLine: s is whole as one of the message readers reads it. Each
// pattern runs only where its words are (any case): the unwrapper asks this
// of joined lines up to five times a line, where claim asks its patterns
// once.
func isMessageLine(s string) bool {
	low := strings.ToLower(s)
	for _, m := range messages {
		if strings.Contains(low, m.word) && m.is(s) {
			return true
		}
	}
	return false
}

var messages = [...]struct {
	word string // lower case
	is   func(string) bool
}{
	{"xid (", xidRE.MatchString},
	{"sxid (", sxidRE.MatchString},
	{"init", initFailRE.MatchString},
	{"init", isCUDAInitLine},
	{"off the bus", offBusRE.MatchString},
	{"total capacity", isTorchOOMLine},
	{"allowed memory", isTorchAsyncHead},
	{"out of memory", isCUDAOOMLine},
	{"unavailable", isCUDAInitLine},
	{"returned 46", isCUDAInitLine},
	{"802", isCUDAInitLine},
	{"insufficient", isCUDAInitLine},
	{"notready", isCUDAInitLine},
	{"not_ready", isCUDAInitLine},
	{"uncorrectable ecc", isCUDAInitLine},
	{"ecc_uncorrectable", isCUDAInitLine},
	{"nccl warn", isNCCLWarnLine},
	{"health system", isDCGMHealthLine},
	{"detected xid", isDCGMXidLine},
	{"[hami-core", hamiOOMRE.MatchString},
	{"hijack_call", isVCUDAOOMLine},
	{"fabric", isFMFailLine},
	{"[error] [tid", isFMFailLine},
	{"device information from", isFMFailLine},
	{"umad_init", isFMFailLine},
	{"unable to determine", smiErrRE.MatchString},
	{"device handle", smiErrQuotedRE.MatchString},
	{"is lost", isSMILostTail},
	{"failed", smiErrRE.MatchString},
	{"no devices", smiErrRE.MatchString},
	{"inforom", smiErrRE.MatchString},
	{"(uuid: ", listGPURE.MatchString},
	{"xidcriticalerror", isPluginXidLine},
	{"event type: 8", isPluginXidLine},
	{"(rev ff)", oneLspciGone},
	{"match", isDriverMismatchLine}, // "mismatch", and XLA's "does not match"
	{"gpu_is_lost", isNVMLLostLine},
}

// oneLspciGone: one lspci line of a GPU not responding, not a whole line
// of another device's with one after it (lspciGoneRE's ".*" would span both).
func oneLspciGone(s string) bool {
	return strings.Count(s, " controller") == 1 && isLspciGoneLine(s)
}
