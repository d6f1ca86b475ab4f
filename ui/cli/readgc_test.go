package cli

import (
	"runtime/debug"
	"testing"
)

// The collector paced for reading and fast recording, then put back; left
// alone where the user set GOGC or GOMEMLIMIT.
func TestReadingGCSetsAndRestores(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := readingGC(func(string) string { return "" })
	if got := debug.SetGCPercent(readGCPercent); got != readGCPercent {
		t.Errorf("GOGC while reading = %d, want %d", got, readGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC after = %d, want 100 put back", got)
	}
	readingGC(func(k string) string { return map[string]string{"GOGC": "50"}[k] })()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC with the user's GOGC set = %d, want 100 left alone", got)
	}
}
