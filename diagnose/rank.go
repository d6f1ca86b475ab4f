package diagnose

import (
	"cmp"
	"sort"
)

// Rank orders findings, the one order every face lists them in: severity
// (worst first), node-level before per-GPU, then GPU index, then the
// rule's position in Rules (RuleOrder).
func Rank(fs []Finding) {
	order := func(a, b *Finding) int {
		if a.Severity != b.Severity {
			return cmp.Compare(b.Severity, a.Severity)
		}
		if an, bn := a.GPU < 0, b.GPU < 0; an != bn {
			if an {
				return -1
			}
			return 1
		}
		if a.GPU != b.GPU {
			return cmp.Compare(a.GPU, b.GPU)
		}
		return cmp.Compare(RuleOrder(a.Rule), RuleOrder(b.Rule))
	}
	sort.SliceStable(fs, func(i, j int) bool { return order(&fs[i], &fs[j]) < 0 })
}

// RankByGPU is Rank with each GPU's findings kept together, for a list read
// beside the GPUs it names (the dashboard's findings pane): a group sits
// where its worst finding ranks, groups as bad sort by GPU index with the
// node's own findings last (the GPUs are what the reader came for), and
// inside a group Rank's order holds.
func RankByGPU(fs []Finding) {
	Rank(fs)
	worst := map[int]Severity{}
	for _, f := range fs {
		if _, ok := worst[f.GPU]; !ok { // Rank put the group's worst first
			worst[f.GPU] = f.Severity
		}
	}
	nodeLast := func(gpu int) int {
		if gpu < 0 {
			return 1 << 30
		}
		return gpu
	}
	order := func(a, b *Finding) int {
		if c := cmp.Compare(worst[b.GPU], worst[a.GPU]); c != 0 {
			return c
		}
		return cmp.Compare(nodeLast(a.GPU), nodeLast(b.GPU))
	}
	sort.SliceStable(fs, func(i, j int) bool { return order(&fs[i], &fs[j]) < 0 })
}
