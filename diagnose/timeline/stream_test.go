package timeline

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// HTA's merge and overlap over whole lists, as the Builder computed them
// before it streamed: the oracle of the streaming versions (stream.go).

// merge is the union of intervals, sorted ([hta-docs] §Temporal breakdown:
// merge_kernel_intervals).
func merge(iv []interval) []interval {
	slices.SortFunc(iv, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	out := iv[:0]
	for _, v := range iv {
		if n := len(out); n > 0 && v.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, v.end)
			continue
		}
		out = append(out, v)
	}
	return out
}

func total(iv []interval) float64 {
	t := 0.0
	for _, v := range iv {
		t += v.end - v.start
	}
	return t
}

// overlap is the length of the intersection of two merged interval lists.
func overlap(a, b []interval) float64 {
	t, i, j := 0.0, 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].start, b[j].start), min(a[i].end, b[j].end)
		if hi > lo {
			t += hi - lo
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return t
}

// The streaming merge, overlap and DataLoader union give what the lists
// gave, to the bit, in any arrival order the order buffer sorts.
func TestStreamingMergeIsHTAsMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var comp, comm, all []interval
		n := 1 + rng.IntN(60)
		for range n {
			s := float64(rng.IntN(1000)) + rng.Float64()
			v := interval{s, s + float64(rng.IntN(40))}
			all = append(all, v)
			if rng.IntN(3) == 0 {
				comm = append(comm, v)
			} else {
				comp = append(comp, v)
			}
		}
		byStart := func(a, b interval) int { return cmp.Compare(a.start, b.start) }
		in := slices.Clone(all)
		slices.SortFunc(in, byStart)
		var ma, mc, mm mergeAcc
		var o overlapAcc
		pos := -1.0
		isComm := map[interval]bool{}
		for _, v := range comm {
			isComm[v] = true
		}
		for _, v := range in {
			pos = v.start
			ma.add(v)
			if isComm[v] {
				if c, ok := mm.add(v); ok {
					o.comm.push(c)
				}
			} else if c, ok := mc.add(v); ok {
				o.comp.push(c)
			}
			o.step(mc.next(pos), mm.next(pos))
		}
		ma.close()
		if c, ok := mc.close(); ok {
			o.comp.push(c)
		}
		if c, ok := mm.close(); ok {
			o.comm.push(c)
		}
		o.step(1e18, 1e18)
		// isComm by value: an interval in both lists counts as comm in both
		// computations alike.
		comp = slices.DeleteFunc(slices.Clone(all), func(v interval) bool { return isComm[v] })
		comm = slices.DeleteFunc(slices.Clone(all), func(v interval) bool { return !isComm[v] })
		wantAll, wantComp, wantComm := merge(slices.Clone(all)), merge(comp), merge(comm)
		if ma.total != total(wantAll) || ma.first != wantAll[0].start || ma.last != wantAll[len(wantAll)-1].end {
			t.Fatalf("round %d: merged total %v [%v, %v], want %v [%v, %v]", round, ma.total, ma.first, ma.last, total(wantAll), wantAll[0].start, wantAll[len(wantAll)-1].end)
		}
		if want := overlap(wantComm, wantComp); o.t != want {
			t.Fatalf("round %d: overlap %v, want %v", round, o.t, want)
		}
		b := New()
		for _, i := range rng.Perm(len(all)) {
			b.addLoader(span{ts: all[i].start, end: all[i].end})
		}
		if want := merge(slices.Clone(all)); !slices.Equal(b.loaderIv, want) {
			t.Fatalf("round %d: DataLoader union %v, want %v", round, b.loaderIv, want)
		}
	}
}
