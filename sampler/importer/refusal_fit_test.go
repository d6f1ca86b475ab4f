package importer

import (
	"strings"
	"testing"
)

// A refusal says what the paste is: the advice about --query-gpu's
// "noheader" only for a first line that is a row of values, not for a
// sentence, a log line or lspci's fields with commas in them; and
// "No devices were found" (the driver answered and lists no GPU) is not a
// driver nvidia-smi could not reach; one it could not reach is refused with
// the commands that tell its causes apart.
func TestRefusalFitsTheInput(t *testing.T) {
	for in, c := range map[string]struct{ want, not string }{
		"Detected gpus, using --nv:\nNo devices were found\n": {"found no GPU", "noheader"},
		"No devices were found\n":                             {"found no GPU", "could not reach the NVIDIA driver"},
		"login-session:nvidia-smi -L\nNo devices found.\n":    {"found no GPU", ""},
		"    LnkCap: Port #0, Speed 16GT/s, Width x16, ASPM L1, Exit Latency L1 <16us\n    LnkSta: Speed 2.5GT/s (downgraded), Width x16 (ok)\n":                          {"", "noheader"},
		"2025-03-19 07:20:54,313 - INFO - flashinfer.jit: Prebuilt kernels not found, using JIT backend\n":                                                                {"", "noheader"},
		"Hello, I have a problem with my GPU, please help\n":                                                                                                              {"", "noheader"},
		"$ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n": {"dkms status", "noheader"},
		"nvidia-smi\nFailed to initialize NVML: Insufficient Permissions\n":                                                                                               {"device files", "modprobe"},
		"0, NVIDIA H100 80GB HBM3, 97 %, 1\n":                   {"noheader", ""},
		"NVIDIA A100-SXM4-80GB, 00000000:07:00.0, 0 %, 3 MiB\n": {"noheader", ""},
		"NVIDIA L4, [N/A], 45 %, 1024 MiB\n":                    {"noheader", ""},
	} {
		_, _, err := readString(in)
		if err == nil {
			t.Errorf("%q read; want it refused", in)
			continue
		}
		if c.want != "" && !strings.Contains(err.Error(), c.want) || c.not != "" && strings.Contains(err.Error(), c.not) {
			t.Errorf("%q: %v; want %q and not %q", in, err, c.want, c.not)
		}
	}
}
