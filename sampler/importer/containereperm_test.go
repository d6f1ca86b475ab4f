package importer

import (
	"strings"
	"testing"
)

// NVML's Unknown Error read as a container that lost its GPUs when the
// paste is that container's log (the GPUs it listed first, then the error)
// or shows the device node refused with EPERM; a host's log, a node
// refused with EACCES and a logs command above unrelated text stay unread.
func TestNVMLUnknownErrorContainerLogsAndEPERM(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"pod log", "$ kubectl logs -n ml trainer-0\nGPU 0: Tesla T4 (UUID: GPU-0000aaaa-1111-2222-3333-444455556666)\n" +
			"Failed to initialize NVML: Unknown Error\n", "kubectl logs"},
		{"docker log", "# docker logs smi-loop\nFailed to initialize NVML: Unknown Error\nFailed to initialize NVML: Unknown Error\n", "docker logs"},
		{"strace", "$ nvidia-smi\nFailed to initialize NVML: Unknown Error\n$ strace -f nvidia-smi 2>&1 | grep nvidia\n" +
			"openat(AT_FDCWD, \"/dev/nvidiactl\", O_RDWR) = -1 EPERM (Operation not permitted)\n", "EPERM"},
	} {
		snaps, ev := readPaste(t, c.in)
		got := snaps[len(snaps)-1].Node.ContainerError
		if !strings.Contains(got, "Unknown Error") || !strings.Contains(got, c.want) {
			t.Errorf("%s: container error %q, want the message and %q\n%s", c.name, got, c.want, strings.Join(ev.Sections(), "\n"))
		}
	}
	for _, bare := range []string{
		"$ journalctl -u gpu-exporter\nGPU 0: Tesla T4 (UUID: GPU-0000aaaa-1111-2222-3333-444455556666)\nFailed to initialize NVML: Unknown Error\n",
		"$ nvidia-smi\nFailed to initialize NVML: Unknown Error\nopen(\"/dev/nvidiactl\", O_RDWR) = -1 EACCES (Permission denied)\n",
		"$ kubectl logs web-0\nserver listening on :8080\nFailed to initialize NVML: Unknown Error\n",
	} {
		snaps, _, err := readString(bare)
		if err != nil {
			continue // refused: nothing claimed
		}
		for _, s := range snaps {
			if s.Node.ContainerError != "" {
				t.Errorf("%q: container error %q, want none", bare, s.Node.ContainerError)
			}
		}
	}
}
