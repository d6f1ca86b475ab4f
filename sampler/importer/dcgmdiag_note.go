package importer

import (
	"sort"
	"strconv"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// diagNoteMsg bounds a message quoted in the sections list; the finding
// carries it whole.
const diagNoteMsg = 160

// diagNote says what a diag run checked: failures with their first
// message, warnings, what was skipped (not judged: a skipped test proves
// nothing either way) and what passed.
func diagNote(cs []sampler.DiagCheck, version string, gpus int) string {
	head := "dcgmi diag"
	if version != "" {
		head += " (DCGM " + version + ")"
	}
	head += ": " + sampler.Counted(len(cs), "result", "results") + " on " + countGPUs(gpus)
	groups := map[string][]string{}
	for _, c := range cs {
		s := diagCheckName(c)
		if c.Result == "fail" || c.Result == "warn" {
			if m := firstMessage(c); m != "" {
				s += " (" + m + ")"
			}
		}
		groups[c.Result] = append(groups[c.Result], s)
	}
	out := []string{head}
	for _, g := range [...]struct{ key, label string }{
		{"fail", "failed"}, {"warn", "warned"}, {"skip", "skipped, not judged"}, {"not run", "not run, not judged"}, {"pass", "passed"},
	} {
		if v := groups[g.key]; len(v) > 0 {
			out = append(out, g.label+": "+strings.Join(v, "; "))
		}
	}
	return strings.Join(out, "; ")
}

// diagCheckName is "GPU Memory on GPU 0", "PCIe on all GPUs",
// "Denylist", or the category when the paste cut the test's name.
func diagCheckName(c sampler.DiagCheck) string {
	s := c.Test
	if s == "" {
		s = "a " + c.Category + " check (name cut from the paste)"
	}
	switch {
	case len(c.GPUs) == 1:
		s += " on GPU " + strconv.Itoa(c.GPUs[0])
	case len(c.GPUs) > 1:
		s += " on GPUs " + joinInts(c.GPUs)
	case c.Category != "Deployment" && c.Test != "":
		s += " on all GPUs"
	}
	return s
}

func firstMessage(c sampler.DiagCheck) string {
	for _, m := range c.Messages {
		if m.Kind != "info" {
			if r := []rune(m.Text); len(r) > diagNoteMsg {
				return string(r[:diagNoteMsg]) + "..."
			}
			return m.Text
		}
	}
	return ""
}

func sortedInts(v []int) []int {
	sort.Ints(v)
	return v
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

func containsInt(v []int, x int) bool {
	for _, y := range v {
		if y == x {
			return true
		}
	}
	return false
}

// gpus lists the GPUs the run names, or 0..n-1 from the device ids when
// every result is "All".
func (r *diagReader) gpus() []int {
	seen := map[int]bool{}
	var out []int
	add := func(i int) {
		if i >= 0 && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for _, c := range r.checks {
		for _, g := range c.GPUs {
			add(g)
		}
		for _, m := range c.Messages {
			if m.Kind != "info" {
				add(m.GPU)
			}
		}
	}
	if len(out) == 0 {
		for i := 0; i < min(r.devices, maxPictureGPUs); i++ {
			add(i)
		}
	}
	return sortedInts(out)
}
