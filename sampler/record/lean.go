package record

// Lean says that from now on the caller reads no host's per-CPU figures
// and no process's children: they are read and checked as JSON, as ever,
// but not kept (Host.CPUs and Proc.Children nil), which saves a slice of
// each per line and process. A report whose findings come from the
// recording reads neither (diagnose/summary.Build asks for this); each
// line's decoding costs 5-7 % less (docs/benchmarks.md, "Recordings: the
// host read as far as a report needs it"). Lines already decoded stay
// whole, and a line the fast reader refuses is decoded in full as before.
// Safe to call while the decoding goroutines run.
func (r *Reader) Lean() { r.lean.Store(true) }

// skipInts is ints without the slice.
func (s *scanner) skipInts() {
	if !s.expect('[') {
		return
	}
	for n := 0; s.more(&n, ']'); {
		s.int()
	}
}
