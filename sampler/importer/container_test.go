package importer

import (
	"strings"
	"testing"
)

// NVML's Unknown Error under a command that ran nvidia-smi in a container
// is the node's fact (the container lost its GPU devices), read although
// it names no GPU; the same line with no container command stays what it
// was: nvidia-smi could not reach the driver, unread.
func TestNVMLUnknownErrorInAContainer(t *testing.T) {
	in := "➜  k exec -it -n test gpustress-vgpu-ccc546647-vhl5c -- nvidia-smi\n" +
		"Failed to initialize NVML: Unknown Error\ncommand terminated with exit code 255\n"
	snaps, ev := readPaste(t, in)
	c := snaps[len(snaps)-1].Node.ContainerError
	if !strings.Contains(c, "Unknown Error") || !strings.Contains(c, "k exec") {
		t.Fatalf("container error %q, want the message and the command\n%s", c, strings.Join(ev.Sections(), "\n"))
	}
	if w := ev.Where(-1, "container_error"); !strings.Contains(w, "line 2") {
		t.Errorf("read from %q, want line 2", w)
	}
	for _, bare := range []string{
		"$ nvidia-smi\nFailed to initialize NVML: Unknown Error\n",
	} {
		if _, _, err := NewStream(strings.NewReader(bare), "paste", Options{Start: fixedStart}); err == nil {
			t.Errorf("%q read; want it refused as nvidia-smi failing to reach the driver", bare)
		}
	}
	// NVML's driver/library mismatch under a container command is the
	// driver's (drvmismatch.go), never the container's lost devices.
	snaps, _ = readPaste(t, "$ docker run --gpus all cuda nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n")
	if n := snaps[len(snaps)-1].Node; n.ContainerError != "" || n.DriverMismatch == "" {
		t.Errorf("a mismatch under a container command: container error %q, driver mismatch %q", n.ContainerError, n.DriverMismatch)
	}
}

// NVML's Unknown Error with nothing to say where it ran is refused with
// what it is (a container that lost its devices, or a host's device nodes,
// as the container toolkit's troubleshooting page lists), not as a driver
// nvidia-smi could not reach (a version mismatch is read as the driver's:
// drvmismatch.go).
func TestNVMLUnknownErrorAloneRefusedForWhatItIs(t *testing.T) {
	for in, want := range map[string]string{
		"Failed to initialize NVML: Unknown Error\n":                      "lost its GPU devices",
		"$ nvidia-smi\nFailed to initialize NVML: Unknown Error\n":        "recreate it",
		"$ nvidia-smi\r\nFailed to initialize NVML: Unknown Error\r\n":    "or a host (gpuscope doctor",
		"> Failed to initialize NVML: Unknown Error\n> exit status 255\n": "nothing shows where it ran",
	} {
		_, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v; want a refusal saying %q", in, err, want)
		}
	}
}

// A reporter who writes, instead of pasting the command, that nvidia-smi
// ran in a container or a pod says where it ran just as well; words that
// do not place it there leave the refusal naming both candidates.
func TestNVMLUnknownErrorUnderWordsSayingAContainer(t *testing.T) {
	for _, above := range []string{
		"容器内执行nvidia-smi 输出",
		"Running nvidia-smi inside the container gives:",
		"nvidia-smi in the pod now prints",
	} {
		snaps, _ := readPaste(t, above+"\nFailed to initialize NVML: Unknown Error\n")
		if c := snaps[len(snaps)-1].Node.ContainerError; !strings.Contains(c, "Unknown Error") || !strings.Contains(c, above) {
			t.Errorf("%q: container error %q, want the message under those words", above, c)
		}
	}
	for _, above := range []string{"执行nvidia-smi 输出", "Running nvidia-smi on the host gives:", "the container started, then:"} {
		_, _, err := NewStream(strings.NewReader(above+"\nFailed to initialize NVML: Unknown Error\n"), "paste", Options{Start: fixedStart})
		if err == nil || !strings.Contains(err.Error(), "nothing shows where it ran") {
			t.Errorf("%q: %v; want the refusal naming both candidates", above, err)
		}
	}
}
