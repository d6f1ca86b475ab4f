package importer

import (
	"strings"
	"testing"
)

// nvidia-smi's error line pasted as a Markdown code span (GitHub and the
// forums show a line between single backticks as code) is the same line:
// refused naming it (the doctor hint), not as other text. A span inside a
// sentence, or a double-backtick span, is not taken off.
func TestErrorLineInInlineCode(t *testing.T) {
	for _, in := range []string{
		"`NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.`\n",
		"  `No devices were found`\n",
	} {
		_, _, err := readString(in)
		if err == nil || !strings.Contains(err.Error(), "nvidia-smi error lines") {
			t.Errorf("%q: %v, want refused as nvidia-smi's error line", in, err)
		}
	}
	for in, want := range map[string]string{
		"`a`":                  "a",
		"run `nvidia-smi` now": "run `nvidia-smi` now",
		"``x ` y``":            "``x ` y``",
		"`open":                "`open",
	} {
		if got := unquote(in); got != want {
			t.Errorf("unquote(%q) = %q, want %q", in, got, want)
		}
	}
}
