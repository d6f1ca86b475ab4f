package importer

import (
	"strings"
	"testing"
)

// XLA's and TensorFlow's stream executor compare the loaded kernel module's
// version with the user-space driver library's (libcuda, "the DSO") before
// they look for devices, and print the two when they differ
// (cuda_diagnostics.cc: "kernel version X does not match DSO version Y --
// cannot find working devices in this configuration", versions without
// leading zeros). Bare, behind the logger's prefix, indented as a chat
// quotes it, or wrapped at 80 columns, it is the node's driver mismatch
// with both versions; the diagnostician's lines that only report the
// versions are not.
func TestXLAKernelDSOMismatch(t *testing.T) {
	line := "kernel version 515.48.7 does not match DSO version 510.73.5 -- cannot find working devices in this configuration"
	logged := "2022-07-13 10:21:04.118245: E external/org_tensorflow/tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:313] " + line
	wrapped := ""
	for rest := logged; rest != ""; {
		cut := len(rest)
		if cut > 80 {
			if cut = strings.LastIndexByte(rest[:80], ' '); cut <= 0 {
				cut = 80 // a word longer than the line (the logger's source path) is cut
			}
		}
		wrapped += rest[:cut] + "\n"
		rest = strings.TrimPrefix(rest[cut:], " ")
	}
	for name, in := range map[string]string{"bare": line + "\n", "logged": logged + "\n", "indented": "    " + line + "\n", "wrapped": wrapped} {
		snaps, _, err := readString(in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := snaps[len(snaps)-1].Node.DriverMismatch; !strings.Contains(got, "515.48.7") || !strings.Contains(got, "510.73.5") {
			t.Errorf("%s: driver mismatch %q, want both versions", name, got)
		}
	}
	same := "2022-07-13 10:21:04.118230: I external/org_tensorflow/tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:200] libcuda reported version is: 515.48.7\n" +
		"2022-07-13 10:21:04.118240: I external/org_tensorflow/tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:204] kernel reported version is: 515.48.7\n"
	if snaps, _, err := readString(same); err == nil && snaps[len(snaps)-1].Node.DriverMismatch != "" {
		t.Errorf("the versions reported alike read as a mismatch: %q", snaps[len(snaps)-1].Node.DriverMismatch)
	}
}
