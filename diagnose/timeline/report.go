package timeline

import (
	"cmp"
	"slices"
	"sort"
)

// Report is what `gpuscope report TRACE…` says: each rank's figures and
// the findings over all of them.
type Report struct {
	Ranks    []Rank    `json:"ranks"`
	Findings []Finding `json:"findings"`
}

// NewReport orders the ranks by rank (then file) and finds what they prove.
func NewReport(ranks []Rank) *Report {
	ranks = slices.Clone(ranks)
	order := func(a, b *Rank) int {
		if c := cmp.Compare(a.Rank, b.Rank); c != 0 {
			return c
		}
		return cmp.Compare(a.File, b.File)
	}
	sort.SliceStable(ranks, func(i, j int) bool { return order(&ranks[i], &ranks[j]) < 0 })
	fs := Findings(ranks)
	if fs == nil {
		fs = []Finding{}
	}
	return &Report{Ranks: ranks, Findings: fs}
}
