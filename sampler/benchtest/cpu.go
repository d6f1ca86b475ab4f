// Package benchtest holds what the benchmarks of several packages measure
// the same way.
package benchtest

import (
	"syscall"
	"testing"
)

// ProcessCPU is the process's CPU time so far (user and system, every
// goroutine), in nanoseconds. Benchmarks report it per op (cpu-ns/op):
// the work runs on all cores, and on a shared machine wall time is mostly
// the neighbours' (docs/benchmarks.md).
func ProcessCPU(tb testing.TB) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
