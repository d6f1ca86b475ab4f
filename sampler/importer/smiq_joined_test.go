package importer

import (
	"io"
	"strings"
	"testing"
)

// A -q -d CLOCK paste (the layout of nvidia-smi's -q, docs/corpus-copies.md)
// whose line ends a forum's Markdown quote dropped, and the same line cut
// by a terminal of 80 and 120 columns: all three refused alike, saying why.
// Before, the cut copies read as a GPU fragment while the line was refused
// as "no GPU block".
func TestJoinedQueryRefusedAlike(t *testing.T) {
	joined := "> ==============NVSMI LOG============== Timestamp : Mon Mar 4 11:02:51 2024 " +
		"Driver Version : 550.54.14 CUDA Version : 12.4 Attached GPUs : 1 GPU 00000000:2B:00.0 " +
		"Clocks Graphics : 1785 MHz SM : 1785 MHz Memory : 9751 MHz Video : 1560 MHz " +
		"Applications Clocks Graphics : N/A Memory : N/A Max Clocks Graphics : 2100 MHz SM : 2100 MHz " +
		"Memory : 9751 MHz Video : 1950 MHz Clock Policy Auto Boost : N/A Auto Boost Default : N/A"
	cut := func(n int) string {
		var b strings.Builder
		for r := []rune(joined); len(r) > 0; {
			k := min(n, len(r))
			b.WriteString(string(r[:k]) + "\n")
			r = r[k:]
		}
		return b.String()
	}
	for name, text := range map[string]string{"joined": joined + "\n", "cut-80": cut(80), "cut-120": cut(120)} {
		f, err := OpenSnapshots(io.NopCloser(strings.NewReader(text)), "q.txt")
		if err == nil {
			f.Close()
			t.Errorf("%s: read, want refused", name)
			continue
		}
		if !strings.Contains(err.Error(), "lines joined into one") {
			t.Errorf("%s: refused without saying why: %v", name, err)
		}
	}
}

// A -q line holds one pair even when its value has colons of its own.
func TestJoinedQueryNotOnePair(t *testing.T) {
	if joinedQuery([]string{"Timestamp                 : Mon Mar  4 11:02:51 2024", "    Bus Id : 00000000:2B:00.0"}) {
		t.Error("one pair a line read as joined")
	}
}
