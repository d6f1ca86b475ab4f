package timeline

// lastN maps correlation ids to values and holds at most n of the ids put
// last: the launches waiting for their GPU event, the joined ones kept for
// a CUDA graph's later kernels, the ids given up on. A trace's ids are
// counted by the million, and these need only the recent ones
// (docs/ARCHITECTURE.md, "Reading a trace"). An id taken out early keeps
// its place in the ring until the ring comes round to it.
type lastN[V any] struct {
	m    map[int64]V
	ring []int64 // the ids in the order put, oldest at next once full
	next int
	n    int
}

func newLastN[V any](n int) lastN[V] { return lastN[V]{m: map[int64]V{}, n: n} }

// put maps k to v. Where the ring was full, the oldest id leaves it:
// dropped says whether that id was still mapped (and is no longer).
func (s *lastN[V]) put(k int64, v V) (old int64, dropped bool) {
	if len(s.ring) < s.n {
		s.ring = append(s.ring, k)
	} else {
		old = s.ring[s.next]
		if _, dropped = s.m[old]; dropped {
			delete(s.m, old)
		}
		s.ring[s.next] = k
		s.next = (s.next + 1) % s.n
	}
	s.m[k] = v
	return old, dropped
}

// get is k's value.
func (s *lastN[V]) get(k int64) (V, bool) {
	v, ok := s.m[k]
	return v, ok
}

// take is k's value, which it forgets.
func (s *lastN[V]) take(k int64) (V, bool) {
	v, ok := s.m[k]
	if ok {
		delete(s.m, k)
	}
	return v, ok
}

// len is how many ids are mapped.
func (s *lastN[V]) len() int { return len(s.m) }
