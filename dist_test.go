package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestArm64Binary builds the linux/arm64 release binary the way `make dist`
// does (cgo through Debian's aarch64 cross compiler) and runs it under
// qemu-user: GH200 and GB200 nodes are aarch64, and a cgo cross build can
// link and still fail at run time. .ci/run installs the two tools; without
// them this test fails and says which is missing, it does not skip.
func TestArm64Binary(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the arm64 cross build takes a minute")
	}
	for _, tool := range []string{"aarch64-linux-gnu-gcc", "qemu-aarch64"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: install Debian's gcc-aarch64-linux-gnu and qemu-user (as .ci/run does)", tool)
		}
	}
	dist := t.TempDir()
	mk := exec.Command("make", "dist-arm64", "DIST="+dist, "VERSION=test-arm64")
	mk.Env = os.Environ()
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make dist-arm64: %v\n%s", err, out)
	}
	bin := filepath.Join(dist, "gpuscope-linux-arm64")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("qemu-aarch64", append([]string{"-L", "/usr/aarch64-linux-gnu", bin}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("qemu-aarch64 gpuscope %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if v := run("version"); !strings.Contains(v, "test-arm64") || !strings.Contains(v, "linux/arm64") {
		t.Fatalf("version is not stamped for arm64: %q", v)
	}
	// The demo runs the production NVML reader over the fake driver: the
	// whole sampling path, not just the CLI, works on arm64.
	if out := run("--demo", "--once"); strings.Count(out, "H200") < 8 {
		t.Fatalf("--demo --once on arm64 shows fewer than 8 GPUs:\n%s", out)
	}
}
