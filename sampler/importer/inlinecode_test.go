package importer

import (
	"strings"
	"testing"
)

// nvidia-smi's error line pasted as a Markdown code span (GitHub and the
// forums show a line between single backticks as code) is the same line:
// refused naming it (the doctor hint), not as other text, also where the
// span sits inside a sentence. A sentence whose spans hold other words,
// and a double-backtick span, are not taken off.
func TestErrorLineInInlineCode(t *testing.T) {
	for _, in := range []string{
		"`NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.`\n",
		"  `No devices were found`\n",
		"After the kernel update `nvidia-smi` prints `NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.` on both nodes.\n",
		"Inside the pod `Failed to initialize NVML: Unknown Error` shows up after a few days.\n",
	} {
		_, _, err := readString(in)
		if err == nil || !strings.Contains(err.Error(), "nvidia-smi error lines") {
			t.Errorf("%q: %v, want refused as nvidia-smi's error line", in, err)
		}
	}
	for in, want := range map[string]string{
		"`a`":                  "a",
		"run `nvidia-smi` now": "run `nvidia-smi` now",
		"it says `Failed to initialize NVML: Unknown Error` in `kubectl logs`": "Failed to initialize NVML: Unknown Error",
		"see `docs` and `man nvidia-smi`":                                      "see `docs` and `man nvidia-smi`",
		"``x ` y``":                                                            "``x ` y``",
		"`open":                                                                "`open",
	} {
		if got := unquote(in); got != want {
			t.Errorf("unquote(%q) = %q, want %q", in, got, want)
		}
	}
}
