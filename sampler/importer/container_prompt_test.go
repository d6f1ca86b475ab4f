package importer

import (
	"strings"
	"testing"
)

// A shell prompt whose host is 12 hex digits (Docker's and Podman's default
// hostname, the container ID's first 12) is a shell inside a container, so
// NVML's Unknown Error under it is the container's lost GPU; a prompt on a
// named host, or a 12-letter word spelt in hex, stays unread.
func TestNVMLUnknownErrorUnderAContainerPrompt(t *testing.T) {
	in := "root@4c1e0a9b7f32:/app# nvidia-smi\nFailed to initialize NVML: Unknown Error\n"
	snaps, ev := readPaste(t, in)
	if c := snaps[len(snaps)-1].Node.ContainerError; !strings.Contains(c, "Unknown Error") || !strings.Contains(c, "root@4c1e0a9b7f32") {
		t.Fatalf("container error %q, want the message and the prompt\n%s", c, strings.Join(ev.Sections(), "\n"))
	}
	for _, bare := range []string{
		"root@gpu-node-07:/app# nvidia-smi\nFailed to initialize NVML: Unknown Error\n",
		"root@deadbeefcafe:~# nvidia-smi\nFailed to initialize NVML: Unknown Error\n",
		"root@4c1e0a9b7f3:/# nvidia-smi\nFailed to initialize NVML: Unknown Error\n",
	} {
		if _, _, err := NewStream(strings.NewReader(bare), "paste", Options{Start: fixedStart}); err == nil {
			t.Errorf("%q read; want it refused as nvidia-smi failing to reach the driver", bare)
		}
	}
	// NVML's driver/library mismatch in a container is the driver's
	// (drvmismatch.go), never the container's lost devices.
	snaps, _ = readPaste(t, "root@4c1e0a9b7f32:/app# nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n")
	if n := snaps[len(snaps)-1].Node; n.ContainerError != "" || n.DriverMismatch == "" {
		t.Errorf("a mismatch under a container prompt: container error %q, driver mismatch %q", n.ContainerError, n.DriverMismatch)
	}
}
