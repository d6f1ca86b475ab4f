package timeline

// Cell is one column of a strip as drawn: how busy the stream was over the
// column's time, and with what.
type Cell struct {
	Busy float64  // share of the column's time, 0…1
	Act  Activity // the activity with the most time in the column
}

// Columns resamples the strip to n columns over [from, to) µs: each bin's
// time goes to the columns it overlaps, in proportion.
func (st *Strip) Columns(from, to float64, n int) []Cell {
	out := make([]Cell, n)
	if n <= 0 || to <= from || st.width == 0 {
		return out
	}
	colW := (to - from) / float64(n)
	var acc [Activities]float64
	for c := range out {
		a, b := from+float64(c)*colW, from+float64(c+1)*colW
		acc = [Activities]float64{}
		first := max(0, int((a-st.origin)/st.width))
		for i := first; i < StripBins; i++ {
			lo := st.origin + float64(i)*st.width
			if lo >= b {
				break
			}
			part := (min(b, lo+st.width) - max(a, lo)) / st.width
			if part <= 0 {
				continue
			}
			for k, v := range st.busy[i] {
				acc[k] += float64(v) * part
			}
		}
		total, best := 0.0, 0
		for k, v := range acc {
			total += v
			if v > acc[best] {
				best = k
			}
		}
		busy := total / colW
		if !(busy > 0) { // NaN too
			busy = 0
		}
		out[c] = Cell{Busy: min(1, busy), Act: Activity(best)}
	}
	return out
}

// Hit is the event the cursor is on: the longest one the strip kept near
// that time.
type Hit struct {
	Name    string
	TS, Dur float64 // µs
	Act     Activity
}

// At is the longest event of strip st that the bins within half a column
// (col µs) of t hold; ok is false where the stream was idle.
func (s *Strips) At(st *Strip, t, col float64) (Hit, bool) {
	if st.width == 0 {
		return Hit{}, false
	}
	lo := max(0, int((t-col/2-st.origin)/st.width))
	hi := min(StripBins-1, int((t+col/2-st.origin)/st.width))
	best := binTop{name: -1}
	for i := lo; i <= hi; i++ {
		if tp := st.top[i]; tp.name >= 0 && (best.name < 0 || tp.dur > best.dur) {
			best = tp
		}
	}
	if best.name < 0 || int(best.name) >= len(s.names) {
		return Hit{}, false
	}
	return Hit{Name: s.names[best.name], TS: best.ts, Dur: float64(best.dur), Act: best.act}, true
}

// Find is the strip in s that is st's (same source, process, device and
// stream); nil when s has none (a window read again where the stream ran
// nothing).
func (s *Strips) Find(st *Strip) *Strip {
	return s.by[stripKey{st.Src, st.Proc, st.Device, st.Stream}]
}

// Len is how many strips there are.
func (s *Strips) Len() int { return len(s.by) }
