package promsource

import (
	"slices"
	"strings"

	"github.com/gpuscope/gpuscope/sampler/promtext"
)

// labelSets is one node's label sets, each the text between a line's
// braces, kept as its pairs (`name="value"` as written) with each distinct
// pair held once: a dcgm-exporter node's 16 label sets repeat its host
// name, driver and model in each and a GPU's UUID and bus id in two, which
// as whole texts were half the memory a scrape kept (docs/benchmarks.md,
// "`--nodes` over 1,000 targets"). Lookups are binary searches over
// sorted indices: no map.
type labelSets struct {
	pairs   []string // distinct pairs
	byPair  []uint16 // pairs' indices, by pair text
	refs    []uint16 // each set's pairs' indices, set after set
	ends    []uint32 // each set's end in refs
	bySet   []uint16 // sets' indices, by their pairs' texts
	scratch []string
}

func (l *labelSets) len() int { return len(l.ends) }

// clip drops the spare room appends left: most rings add sets at their
// first scrape only.
func (l *labelSets) clip() {
	l.pairs, l.byPair, l.refs = slices.Clone(l.pairs), slices.Clone(l.byPair), slices.Clone(l.refs)
	l.ends, l.bySet, l.scratch = slices.Clone(l.ends), slices.Clone(l.bySet), nil
}

// setPairs is set i's pairs' indices.
func (l *labelSets) setPairs(i uint16) []uint16 {
	from := uint32(0)
	if i > 0 {
		from = l.ends[i-1]
	}
	return l.refs[from:l.ends[i]]
}

// text is set i as `a="b",c="d"`.
func (l *labelSets) text(i uint16) string {
	var b strings.Builder
	for k, p := range l.setPairs(i) {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.pairs[p])
	}
	return b.String()
}

// index is text's set, added if new; text was checked by ParseRaw.
func (l *labelSets) index(text string) uint16 {
	l.scratch = splitPairs(l.scratch[:0], text)
	ps := l.scratch
	at, found := slices.BinarySearchFunc(l.bySet, ps, func(s uint16, ps []string) int {
		set := l.setPairs(s)
		for k := range min(len(set), len(ps)) {
			if c := strings.Compare(l.pairs[set[k]], ps[k]); c != 0 {
				return c
			}
		}
		return len(set) - len(ps)
	})
	if found {
		return l.bySet[at]
	}
	for _, p := range ps {
		j, ok := slices.BinarySearchFunc(l.byPair, p, func(k uint16, p string) int { return strings.Compare(l.pairs[k], p) })
		id := uint16(len(l.pairs))
		if ok {
			id = l.byPair[j]
		} else {
			l.pairs = append(l.pairs, strings.Clone(p)) // not the scrape's whole text
			l.byPair = slices.Insert(l.byPair, j, id)
		}
		l.refs = append(l.refs, id)
	}
	l.ends = append(l.ends, uint32(len(l.refs)))
	set := uint16(len(l.ends) - 1)
	l.bySet = slices.Insert(l.bySet, at, set)
	return set
}

// splitPairs appends text's pairs to dst: each from its name through its
// value's closing quote, as written.
func splitPairs(dst []string, text string) []string {
	i := 0
	for {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == ',') {
			i++
		}
		if i >= len(text) {
			return dst
		}
		start := i
		q := strings.IndexByte(text[i:], '"')
		if q < 0 {
			return append(dst, text[start:]) // not checked text: kept whole
		}
		for i += q + 1; i < len(text) && text[i] != '"'; i++ {
			if text[i] == '\\' {
				i++
			}
		}
		i = min(i+1, len(text))
		dst = append(dst, text[start:i])
	}
}

// pairLabel reads one pair: substrings of it, unless the value has escapes.
func pairLabel(pair string) (name, value string) {
	eq := strings.IndexByte(pair, '=')
	open, end := strings.IndexByte(pair, '"'), strings.LastIndexByte(pair, '"')
	if eq < 0 || open < 0 || end <= open {
		return pair, "" // not checked text
	}
	name, value = strings.TrimRight(pair[:eq], " \t"), pair[open+1:end]
	if strings.IndexByte(value, '\\') >= 0 {
		if ls, err := promtext.Labels(pair); err == nil && len(ls) == 1 {
			value = ls[0].Value
		}
	}
	return name, value
}

// pairsIn is at most how many pairs text holds (each has a quote pair).
func pairsIn(text string) int { return strings.Count(text, "=") }
