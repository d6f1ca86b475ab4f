package importer

import "strings"

// causeLines are a tool's own error lines that name their cause, read by
// the words each carries: the section they start is refused with what the
// first cause found proves and the check that settles it, not as other
// text (slurmgres.go's Slurm, shareerr.go's GPU sharing layers).
type causeLines struct {
	// sieve: words every line of the table carries as printed, so the
	// lines of a paste are asked of the table only where they have one.
	sieve []string
	// fold: the table's words are lower case and matched so.
	fold   bool
	causes []cause
}

// cause is the words a line carries and what they prove, most telling
// first in its table.
type cause struct{ words, why string }

func (c *causeLines) match(line string, x cause) bool {
	if c.fold {
		return strings.Contains(strings.ToLower(line), x.words)
	}
	return strings.Contains(line, x.words)
}

// why is what line proves, or "" where it is no such line.
func (c *causeLines) why(line string) string {
	sifted := len(c.sieve) == 0
	for _, w := range c.sieve {
		sifted = sifted || strings.Contains(line, w)
	}
	if !sifted {
		return ""
	}
	for _, x := range c.causes {
		if c.match(line, x) {
			return x.why
		}
	}
	return ""
}

func (c *causeLines) is(line string) bool { return c.why(line) != "" }

// parse refuses sec with the cause its lines prove most (the table's order).
func (c *causeLines) parse(sec *section) *part {
	for _, x := range c.causes {
		for _, s := range sec.lines {
			if c.match(s, x) {
				return newPart(sec).skip(x.why + "; nothing about the GPUs was judged (" + clip(strings.TrimSpace(s), 160) + ")")
			}
		}
	}
	return newPart(sec).skip(otherWhy(sec.lines))
}
