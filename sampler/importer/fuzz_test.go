package importer

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDetectAndParse feeds arbitrary bytes to Detect and to every format's
// reader (not only the detected one): none may panic or loop forever.
func FuzzDetectAndParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"gpuscope_recording":1}` + "\n" + `{"gpus":[{"index":0,"util":5}]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Detect(data)
		for _, format := range Formats() {
			br := bufio.NewReader(bytes.NewReader(data))
			s, err := newParser(format, br, "fuzz", Options{}.withDefaults(""))
			if err != nil {
				continue
			}
			// Each snapshot consumes at least one line or element, so the
			// count is bounded by the input length.
			for range len(data) + 2 {
				if _, err := s.Next(); err != nil {
					break
				}
			}
			_ = s.Warnings()
			s.Close()
		}
	})
}
