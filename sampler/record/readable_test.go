package record

import (
	"bytes"
	"testing"
)

// Readable refuses what the reader refuses (too many GPUs for the shape
// check, a line past the limit) and takes a line as the writer writes it.
func TestReadable(t *testing.T) {
	gpus := func(n int) []byte { // long enough for the shape check
		b := append([]byte(`{"time":"2026-03-01T10:00:00Z","node":{"hostname":"`), bytes.Repeat([]byte("x"), shapeCheckBytes)...)
		b = append(append(b, `"},"gpus":[`...), bytes.Repeat([]byte(`{"index":0},`), n)...)
		return append(b, `{"index":0}]}`+"\n"...)
	}
	if !Readable([]byte(`{"time":"2026-03-01T10:00:00Z","gpus":[{"index":0}]}` + "\n")) {
		t.Error("a plain line refused")
	}
	if !Readable(gpus(maxGPUsPerLine - 1)) {
		t.Error("a line of the most GPUs refused")
	}
	if Readable(gpus(maxGPUsPerLine + 10)) {
		t.Error("a line of more GPUs than any host taken")
	}
	long := append(append([]byte(`{"time":"2026-03-01T10:00:00Z","node":{"hostname":"`), bytes.Repeat([]byte("x"), maxLineBytes)...), `"}}`+"\n"...)
	if Readable(long) {
		t.Error("a line past the reader's limit taken")
	}
}
