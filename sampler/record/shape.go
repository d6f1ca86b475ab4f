package record

import "fmt"

// A JSON line can cost far more memory decoded than it takes on disk: `{},`
// is 3 bytes but one sampler.GPU is 792 (measured with unsafe.Sizeof), so a
// 1 MB line of empty objects in "gpus" took 1.27 GB to decode
// (docs/security.md, "What it reads"). Lines longer than shapeCheckBytes
// are scanned first, without allocating, and refused when a list is longer
// than any real snapshot's.
const (
	// shapeCheckBytes: a real snapshot line is 2-20 KB (8 GPUs, tens of
	// processes), and at the worst ratio above a line this size decodes into
	// less than 20 MB, so shorter lines skip the scan.
	shapeCheckBytes = 64 << 10
	// maxGPUsPerLine: far above any one host's GPUs (an HGX
	// board has 8; MIG instances are listed under their GPU, not here);
	// 1024 GPUs decode into under 1 MB.
	maxGPUsPerLine = 1024
	// maxListLen bounds any other list or map: processes,
	// links, CPU cores. Each GPU process holds a CUDA context of hundreds of
	// MB of device memory, so a GPU has at most hundreds; 65,536 leaves room
	// for their host children and for 4-digit core counts.
	maxListLen = 1 << 16
	// maxValuesPerLine bounds all list entries and object members of a line
	// together: a snapshot of ten thousand processes has about 200,000; at
	// most 262,144 entries of the largest list element (a 168-byte MIG
	// device) stay under 50 MB.
	maxValuesPerLine = 1 << 18
)

// checkShape refuses a long line whose lists are longer than any snapshot
// has, before it is decoded. It reads JSON only as far as needed to count:
// a line that is not valid JSON is left to the decoder to report.
func checkShape(b []byte) error {
	if len(b) < shapeCheckBytes {
		return nil
	}
	type level struct {
		key    string // the member whose value this is ("" in a list or at the top)
		array  bool
		n      int
		empty  bool
		wanted bool // an object waiting for its next member's key
	}
	stack := make([]level, 0, 16)
	total := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if n := len(stack); n > 0 && stack[n-1].empty && c != ']' && c != '}' {
			stack[n-1].empty, stack[n-1].n = false, 1
			total++
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			if n := len(stack); n > 0 && stack[n-1].wanted {
				stack[n-1].wanted = false
				if k := j - i - 1; k > 0 && k <= 32 && j < len(b) {
					stack[len(stack)-1].key = string(b[i+1 : j])
				} else {
					stack[len(stack)-1].key = ""
				}
			}
			i = j
		case '{', '[':
			key := ""
			if n := len(stack); n > 0 && !stack[n-1].array {
				key = stack[n-1].key
			}
			stack = append(stack, level{key: key, array: c == '[', empty: true, wanted: c == '{'})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			n := len(stack)
			if n == 0 {
				continue
			}
			top := &stack[n-1]
			top.n++
			total++
			top.wanted = !top.array
			limit := maxListLen
			if top.key == "gpus" {
				limit = maxGPUsPerLine
			}
			if top.n > limit {
				name := "a list"
				if top.key != "" {
					name = fmt.Sprintf("%q", top.key)
				}
				return fmt.Errorf("%s has more than %d entries, more than any snapshot holds", name, limit)
			}
			if total > maxValuesPerLine {
				return fmt.Errorf("more than %d values in one line, more than any snapshot holds", maxValuesPerLine)
			}
		}
	}
	return nil
}
