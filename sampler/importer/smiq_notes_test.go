package importer

import (
	"strings"
	"testing"
)

// A -q whose header attaches more GPUs than its blocks show (-q -i 0, or a
// paste cut after GPU 0) says the others were not judged; a whole -q does
// not. Layout: nvidia-smi's -q text (header, then "GPU <bus id>").
func TestQueryNotesWhatWasNotJudged(t *testing.T) {
	head := func(n int) string {
		return "==============NVSMI LOG==============\n\nTimestamp                                 : Mon Mar  3 10:00:00 2025\n" +
			"Driver Version                            : 550.54.15\nCUDA Version                              : 12.4\n\n" +
			"Attached GPUs                             : " + string(rune('0'+n)) + "\n"
	}
	block := func(bus, brand string) string {
		return "GPU 00000000:" + bus + ":00.0\n    Product Name                          : NVIDIA A10G\n" +
			"    Product Brand                         : " + brand + "\n    Product Architecture                  : Ampere\n"
	}
	for in, want := range map[string][]string{
		head(4) + block("16", "Unknown Error"):                  {"4 GPUs attached, 1 shown (nvidia-smi -q -i, or a cut paste): the others were not seen, not judged"},
		head(2) + block("16", "NVIDIA") + block("17", "NVIDIA"): nil,
	} {
		_, ev := readPaste(t, in)
		sec := strings.Join(ev.Sections(), "\n")
		for _, w := range want {
			if !strings.Contains(sec, w) {
				t.Errorf("want %q in\n%s", w, sec)
			}
		}
		if want == nil && strings.Contains(sec, "attached") {
			t.Errorf("a whole -q got the note:\n%s", sec)
		}
	}
}
