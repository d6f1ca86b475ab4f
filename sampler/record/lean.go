package record

import "github.com/gpuscope/gpuscope/sampler"

// Lean says that from now on the caller reads no host's per-CPU figures
// and no process's children: they are read and checked as JSON, as ever,
// but not kept (Host.CPUs and Proc.Children nil), which saves a slice of
// each per line and process. A report whose findings come from the
// recording reads neither (diagnose/summary.Build asks for this); each
// line's decoding costs 5-7 % less (docs/benchmarks.md, "Recordings: the
// host read as far as a report needs it"). Lines already decoded stay
// whole, and a line the fast reader refuses is decoded in full as before.
// Safe to call while the decoding goroutines run.
//
// After Lean, an entry's host process records (Host.Procs, the records it
// holds and the GPUs' GPUProc.Host) are reused for a later line once Next
// is called again: the caller reads them before that and keeps none.
// They were two fifths of the bytes a day's report allocated. The entry's
// GPU slice (Snapshot.GPUs, not what its elements point to) is reused the
// same way: two thirds of what was left (docs/benchmarks.md, "Recordings:
// a lean line's GPUs reused").
func (r *Reader) Lean() { r.lean.Store(true) }

// procMem is one line's host process records and GPU slice, for a later
// line once the caller is done with them (Lean).
type procMem struct {
	slab  []sampler.Proc
	procs map[int]*sampler.Proc
	gpus  []sampler.GPU
}

// gpuSlice is the empty GPU slice a line is decoded into: a lean line's
// given back, or a fresh one of the header's GPU count.
func (s *scanner) gpuSlice(hint int) []sampler.GPU {
	if g := s.spare.gpus; s.lean && cap(g) >= hint {
		s.spare.gpus = nil
		return g[:0]
	}
	return make([]sampler.GPU, 0, hint)
}

// giveBack hands the records of the entry Next returned last to the
// decoding goroutines, now that the caller is done with them. Called from
// two places in Next, not inlined.
//
//go:noinline
func (r *Reader) giveBack() {
	if (r.held.procs != nil || r.held.gpus != nil) && r.pipe != nil {
		select {
		case r.pipe.procMem <- r.held:
		default:
		}
	}
	r.held = procMem{}
}

// skipInts is ints without the slice.
func (s *scanner) skipInts() { s.intList(false) }
