package importer

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkPasteTableAndDayOfDmon: a table of 8 GPUs plus a day of dmon at
// 10 s (8640 ticks × 8 GPUs) in one paste: split, parse, merge.
func BenchmarkPasteTableAndDayOfDmon(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(table418)
	sb.WriteString("$ nvidia-smi dmon -d 10\n# gpu   pwr gtemp    sm   mem\n# Idx     W     C     %     %\n")
	for i := 0; i < 8640; i++ {
		for g := 0; g < 8; g++ {
			fmt.Fprintf(&sb, "%5d %5d %5d %5d %5d\n", g, 200+i%50, 60, (i*7+g)%100, 30)
		}
	}
	benchPaste(b, sb.String())
}

// BenchmarkPasteLogWithOneTable: a job's log of 100 000 lines that are not
// GPU output with one table in it: every unclaimed line passes the section
// claims once (paste.go claim), which is what this measures.
func BenchmarkPasteLogWithOneTable(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 100000; i++ {
		if i == 50000 {
			sb.WriteString(table418)
		}
		fmt.Fprintf(&sb, "[rank%d]: step %d loss %.4f lr 2.0e-05 grad_norm 1.%03d tokens/s 31%03d\n", i%8, i, 1/float64(i+1), i%1000, i%1000)
	}
	benchPaste(b, sb.String())
}

// benchPaste reads text as one paste b.N times: split, parse, merge.
func benchPaste(b *testing.B, text string) {
	lines := strings.Split(text, "\n")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		s, err := newPaste([]textInput{{lines: lines}}, "bench", Options{}.withDefaults(""))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := s.Next(); err != nil {
				break
			}
		}
	}
}
