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
	lines := strings.Split(sb.String(), "\n")
	b.SetBytes(int64(sb.Len()))
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
