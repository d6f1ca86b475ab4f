package ui

import (
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// defaultHistory is the ring size: 300 snapshots = 5 min at the default
// 1 s interval (chosen here: the longest diagnosis window is 120 s and a
// 200-column sparkline shows at most ~90 points, so five minutes leaves room;
// each snapshot of an 8-GPU node with its process tree holds ~40 KB, and 600
// of them put the process over the 30 MB RSS budget).
const defaultHistory = 300

// ring is a bounded history of snapshots, oldest first.
type ring struct {
	buf   []sampler.Snapshot
	start int // index of the oldest element
	n     int
}

func newRing(size int) *ring {
	if size <= 0 {
		size = defaultHistory
	}
	return &ring{buf: make([]sampler.Snapshot, size)}
}

// push appends s, dropping the oldest snapshot when full.
func (r *ring) push(s sampler.Snapshot) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = s
		r.n++
		return
	}
	r.buf[r.start] = s
	r.start = (r.start + 1) % len(r.buf)
}

func (r *ring) len() int { return r.n }

// at returns the i-th snapshot, 0 the oldest.
func (r *ring) at(i int) *sampler.Snapshot { return &r.buf[(r.start+i)%len(r.buf)] }

// last returns the newest snapshot, or nil when empty.
func (r *ring) last() *sampler.Snapshot {
	if r.n == 0 {
		return nil
	}
	return r.at(r.n - 1)
}

// since copies, oldest first, the snapshots taken within d of the newest one.
func (r *ring) since(d time.Duration) []sampler.Snapshot {
	if r.n == 0 {
		return nil
	}
	cut := r.last().Time.Add(-d)
	first := r.n - 1
	for first > 0 && !r.at(first-1).Time.Before(cut) {
		first--
	}
	out := make([]sampler.Snapshot, 0, r.n-first)
	for i := first; i < r.n; i++ {
		out = append(out, *r.at(i))
	}
	return out
}

// series fills dst with f over the newest n snapshots (oldest first), for
// sparklines. A missing GPU or n/a reading counts as 0.
func (r *ring) series(dst []float64, n int, f func(*sampler.Snapshot) sampler.Metric) []float64 {
	dst = dst[:0]
	first := max(0, r.n-n)
	for i := first; i < r.n; i++ {
		dst = append(dst, f(r.at(i)).Or(0))
	}
	return dst
}
