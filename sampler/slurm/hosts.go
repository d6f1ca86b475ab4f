package slurm

import (
	"fmt"
	"strconv"
	"strings"
)

// ExpandHosts expands a Slurm host list: "gpu[01-02,04],cpu1" is gpu01
// gpu02 gpu04 cpu1, "r[1-2]n[1-2]" r1n1 r1n2 r2n1 r2n2; ranges keep the
// zero padding of their first number. At most maxHosts names; a
// malformed bracket gives the text as it is.
func ExpandHosts(list string) []string {
	var out []string
	for _, item := range splitTop(list, ',', '[', ']') {
		out = expandOne(item, out)
		if len(out) >= maxHosts {
			return out[:maxHosts]
		}
	}
	return out
}

func expandOne(item string, out []string) []string {
	open := strings.IndexByte(item, '[')
	if open < 0 {
		if item != "" {
			out = append(out, item)
		}
		return out
	}
	end := strings.IndexByte(item[open:], ']')
	if end < 0 {
		return append(out, item)
	}
	prefix, ranges, rest := item[:open], item[open+1:open+end], item[open+end+1:]
	tails := []string{""}
	if rest != "" {
		if tails = expandOne(rest, nil); len(tails) == 0 {
			tails = []string{""}
		}
	}
	for r := range strings.SplitSeq(ranges, ",") {
		a, b, isRange := strings.Cut(r, "-")
		lo, err := strconv.Atoi(a)
		if err != nil || lo < 0 {
			return append(out, item)
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(b); err != nil || hi < lo {
				return append(out, item)
			}
		}
		for i := lo; i <= hi; i++ {
			for _, t := range tails {
				if len(out) >= maxHosts {
					return out
				}
				out = append(out, fmt.Sprintf("%s%0*d%s", prefix, len(a), i, t))
			}
		}
	}
	return out
}
