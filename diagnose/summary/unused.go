package summary

// unusedMemBytes: below this a GPU holds no one's data (a context's own
// few MiB, or nothing).
const unusedMemBytes = 512 << 20

// Unused is whether GPU g had nothing to report over the range: never
// busy, no memory held, never slowed, not lost, no vGPU on it and no
// finding about it. The text report says such GPUs in one line instead of
// a block of zeros each (docs/user-guide.md, "Recording, reports and comparisons").
func (r *Report) Unused(g *GPU) bool {
	if g.Lost || len(g.VGPUs) > 0 || g.Util == nil || g.Util.Samples == 0 || g.Util.P95 > 0 || g.Util.Mean > 0 {
		return false
	}
	if g.SMActive != nil && (g.SMActive.P95 > 0 || g.SMActive.Mean > 0) {
		return false
	}
	if !g.MemPeak.OK || g.MemPeak.V >= unusedMemBytes || (g.ThrottledSeconds.OK && g.ThrottledSeconds.V > 0) {
		return false
	}
	for _, f := range r.Findings {
		if f.GPU == g.Index {
			return false
		}
	}
	return true
}
