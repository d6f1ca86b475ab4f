package cli

import "runtime/debug"

// Reading a recording allocates ~2.6 GB a day of 8 GPUs (each line's GPUs,
// processes and findings, short-lived) over a live heap of ~4 MB, so at
// Go's default GOGC=100 the collector ran ~700 times, and the stops it
// needs preempted the decoding goroutines as often: ~25 % of `report`'s
// CPU. A heap allowed to grow 9x its live size, capped at readMemLimit,
// cut the day's CPU by ~20 % for ~45 MB more RSS (docs/benchmarks.md,
// "Recordings: a line read without reflection"), inside report's 200 MB.
const (
	readGCPercent = 800
	readMemLimit  = 120 << 20
)

// A demo recorded as fast as it can allocates alike (~300 MB an hour of
// snapshots, findings and lines over ~25 MB live): at GOGC=100 the
// collector was ~15 % of its CPU.

// readingGC sets the collector for report, compare and a fast record, unless the user
// set GOGC or GOMEMLIMIT; the returned func puts it back.
func readingGC(getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	pct := debug.SetGCPercent(readGCPercent)
	limit := debug.SetMemoryLimit(readMemLimit)
	return func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(limit)
	}
}
