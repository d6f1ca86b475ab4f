package importer

import (
	"bytes"
	"strings"

	"github.com/gpuscope/gpuscope/sampler/record"
)

// detectBytes is how much of a file Detect looks at: enough for the longest
// real header (a CSV query of ~40 columns, or XML's prolog) with room to spare.
const detectBytes = 8 << 10

// Detect names the format of a log from its first bytes (gzip is looked
// through). It never fails: Unknown means none matched.
func Detect(head []byte) Format {
	trimmed, ok := record.TextHead(head, detectBytes)
	if !ok {
		return Unknown
	}
	switch {
	case len(trimmed) == 0:
		return Unknown
	case trimmed[0] == '{':
		if bytes.Contains(trimmed, []byte(`"gpuscope_recording"`)) {
			return Gpuscope
		}
		return Unknown
	case trimmed[0] == '<':
		if bytes.Contains(trimmed, []byte("<nvidia_smi_log")) {
			return SMIXML
		}
		return Unknown
	}
	for i, line := range strings.Split(string(trimmed), "\n") {
		if i >= 20 { // a real log shows its header in the first lines
			break
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if strings.Contains(line, ":") { // a comment ("# cmd: ..."): no tool's header holds a colon
				continue
			}
			return detectHashHeader(line)
		}
		if strings.Contains(line, ",") {
			if isSMICSVHeader(splitCSV(line)) || headerlessLayout(splitCSV(line)) {
				return SMICSV
			}
		}
		return Unknown
	}
	return Unknown
}

// detectHashHeader tells dcgmi dmon, nvidia-smi pmon and dmon apart by the
// names in their "#" header line.
func detectHashHeader(line string) Format {
	names := hashHeaderNames(line)
	if len(names) < 2 || !headerStart(names[0]) {
		return Unknown // a comment or a Markdown heading ("### NVIDIA Open GPU Kernel Modules Version") that names a GPU
	}
	has := func(n string) bool {
		for _, x := range names {
			if x == n {
				return true
			}
		}
		return false
	}
	switch {
	case has("entity"):
		return DCGMIDmon
	case has("gpu") && has("pid"):
		return SMIPmon
	case has("gpu"):
		return SMIDmon
	}
	return Unknown
}

// hashHeaderNames splits a "# gpu pwr ..." or "#Date, Time, gpu, ..." line
// into lower-case names.
func hashHeaderNames(line string) []string {
	line = strings.TrimLeft(line, "# ")
	sep := func(r rune) bool { return r == ' ' || r == '\t' || r == ',' }
	names := strings.FieldsFunc(line, sep)
	for i := range names {
		names[i] = strings.ToLower(names[i])
	}
	return names
}

// queryFieldRE is the shape of a --query-gpu field name: "pcie.link.gen.max",
// "vgpu_device_capability.mig_timeSlicing", "clocks_event_reasons.active".
var queryFieldRE = lazy(`^[A-Za-z][A-Za-z0-9_.]*$`)

func isSMICSVHeader(cells []string) bool {
	if len(cells) > 0 && strings.Contains(cells[0], "--") {
		return false // the command that printed it ("nvidia-smi --query-gpu=index,name --format=csv"): a header holds no option
	}
	known, shaped := 0, 0
	for _, c := range cells {
		name, _ := splitHeaderUnit(c)
		if _, ok := csvColumns[name]; ok {
			known++
		}
		if queryFieldRE.MatchString(name) {
			shaped++
		}
	}
	// Most cells name a field gpuscope reads; or, for a query of the full
	// field list (200+ columns, most of them vGPU, inforom, ...), several
	// do and every cell has a field name's shape.
	return known > 0 && known*2 >= len(cells) || known >= 3 && shaped == len(cells)
}
