package promexport

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// family describes one metric family: its name, help, type and label names.
// Families are fixed when the exporter starts; each scrape fills a batch.
type family struct {
	name, help string
	counter    bool
	labels     []string // as the values are given
	order      []int    // label indexes sorted by name: the exposition order
	idx        int      // its batch in a scrape (set by newMetricSet)
}

func newFamily(name, help string, counter bool, labels ...string) *family {
	f := &family{name: name, help: help, counter: counter, labels: labels}
	f.order = make([]int, len(labels))
	for i := range f.order {
		f.order[i] = i
	}
	slices.SortFunc(f.order, func(a, b int) int { return strings.Compare(labels[a], labels[b]) })
	return f
}

// labelSet is one series' label values, in the order of its family's
// labels. Families with the same label names share sets (a GPU's labels
// serve ~35 families), so each set is checked, escaped and rendered once a
// scrape, not once a series (BenchmarkScrape).
type labelSet struct {
	values   []string
	rendered []byte  // `{a="x",b="y"}` in exposition order, for renderedAs
	renderAs *string // the label names it was rendered for
}

// newLabelSet repairs values that are not valid UTF-8 (a process name is
// bytes): the exposition formats require UTF-8.
func newLabelSet(values ...string) *labelSet {
	ls := &labelSet{values: values}
	for i, v := range values {
		if !utf8.ValidString(v) {
			ls.values[i] = strings.ToValidUTF8(v, "\uFFFD")
		}
	}
	return ls
}

// render returns the label block for a family, computing it once per
// label-name list.
func (ls *labelSet) render(f *family) []byte {
	if len(f.labels) == 0 {
		return nil
	}
	key := &f.labels[0]
	if ls.renderAs != key {
		if ls.rendered == nil {
			ls.rendered = make([]byte, 0, 256) // a process's labels, ~200 B
		}
		ls.rendered, ls.renderAs = appendLabels(ls.rendered[:0], f, ls.values), key
	}
	return ls.rendered
}

// batch is one scrape's series of one family.
type batch struct {
	fam    *family
	sets   []*labelSet
	vals   []float64
	sorted []int // series indexes in exposition order, duplicates removed
}

// add appends one series with its own label values.
func (b *batch) add(v float64, labels ...string) { b.addSet(v, newLabelSet(labels...)) }

// addSet appends one series with a shared label set.
func (b *batch) addSet(v float64, ls *labelSet) {
	b.sets = append(b.sets, ls)
	b.vals = append(b.vals, v)
}

// sort orders the series by their label values in exposition order, as
// client_golang's Gather does, and drops a repeated label set (keeping the
// first), which a Prometheus registry would refuse.
func (b *batch) sort() {
	b.sorted = b.sorted[:0]
	for i := range b.vals {
		b.sorted = append(b.sorted, i)
	}
	cmp := func(x, y int) int {
		if b.sets[x] == b.sets[y] {
			return 0
		}
		for _, li := range b.fam.order {
			if c := strings.Compare(b.sets[x].values[li], b.sets[y].values[li]); c != 0 {
				return c
			}
		}
		return 0
	}
	slices.SortStableFunc(b.sorted, cmp)
	b.sorted = slices.CompactFunc(b.sorted, func(x, y int) bool { return cmp(x, y) == 0 })
}

func (b *batch) reset() {
	clear(b.sets) // let the label sets go
	b.sets, b.vals, b.sorted = b.sets[:0], b.vals[:0], b.sorted[:0]
}

func sortFamilies(fs []*family) {
	slices.SortFunc(fs, func(a, b *family) int { return strings.Compare(a.name, b.name) })
}
