package importer

import (
	"strings"
	"testing"
)

// A container runtime's own error lines are refused with the cause they
// name (the toolkit not registered with Docker, the hook not finding the
// driver's libraries, enroot's hook without libnvidia-container), each in
// the forms seen in pastes (Docker's capitalised and lower-case prefix,
// the hook's line inside runc's wrapped message); none is read as a GPU.
func TestContainerRuntimeErrorsRefusedWithTheirCause(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].`, "Container Toolkit is not installed"},
		{`docker: error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]].`, "nvidia-ctk runtime configure"},
		{`docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: ` +
			`runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: ` +
			`exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'`, ""},
		{`nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared object file: no such file or directory: unknown.`,
			"library libnvidia-ml.so.1 on the host"},
		{`    docker: Error response from daemon: OCI runtime create failed: ... stderr: nvidia-container-cli: detection error: open failed: ` +
			`/usr/lib/x86_64-linux-gnu/libnvidia-tls.so.450.36.06: no such file or directory\\\\\\\"\\\\n\\\"\"": unknown.`,
			"library /usr/lib/x86_64-linux-gnu/libnvidia-tls.so.450.36.06 on the host"},
		{`slurmstepd: error: pyxis:     [ERROR] Command not found: nvidia-container-cli, see https://github.com/NVIDIA/libnvidia-container`,
			"libnvidia-container (the NVIDIA Container Toolkit) is not installed"},
	} {
		_, _, err := NewStream(strings.NewReader(c.in+"\n"), "paste", Options{Start: fixedStart})
		if err == nil {
			t.Errorf("%q read; want it refused", c.in)
			continue
		}
		if c.want == "" { // runc's wrapper alone names no cause: other text
			if strings.Contains(err.Error(), kindCtrRuntime) {
				t.Errorf("%q taken for a runtime error: %v", c.in, err)
			}
			continue
		}
		if !strings.Contains(err.Error(), kindCtrRuntime) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q refused with %v; want %s naming %q", c.in, err, kindCtrRuntime, c.want)
		}
	}
}

// The hook's own driver/library version mismatch stays the node's
// mismatch (drvmismatch.go), read, not refused as a runtime error.
func TestContainerHookMismatchStaysTheDriversMismatch(t *testing.T) {
	in := "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) == 0 {
		t.Fatalf("not read: %v", err)
	}
	if snaps[len(snaps)-1].Node.DriverMismatch == "" {
		t.Errorf("the hook's mismatch not read as the driver's")
	}
}

// Docker without the toolkit's runtime and a container given nothing of
// the driver are refused with their causes too, and a paste of such lines
// only is refused leading with the cause, not with the list of formats it
// is not (pastestream.go); a sentence about the same tools is no such line.
func TestContainerRuntimeRefusalLeadsWithTheCause(t *testing.T) {
	for in, want := range map[string]string{
		"docker: Error response from daemon: unknown or invalid runtime name: nvidia.\n": "no runtime named nvidia",
		"failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: " +
			"exec: \"nvidia-smi\": executable file not found in $PATH: unknown.\n": "accept-nvidia-visible-devices-as-volume-mounts",
		"$ docker run --gpus all ubuntu nvidia-smi\n" +
			"docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n": "nvidia-ctk runtime configure",
	} {
		_, _, err := readString(in)
		switch {
		case err == nil || !strings.Contains(err.Error(), kindCtrRuntime) || !strings.Contains(err.Error(), want):
			t.Errorf("%q: %v; want it refused as %s naming %q", in, err, kindCtrRuntime, want)
		case !strings.Contains(err.Error(), "no GPU reading to judge") || strings.Contains(err.Error(), "recognised:"):
			t.Errorf("%q: %v; want the refusal to lead with the cause", in, err)
		}
	}
	for _, prose := range []string{"I installed nvidia-container-cli and docker works now\n", "Does nvidia-smi work inside the container?\n"} {
		if _, _, err := readString(prose); err != nil && strings.Contains(err.Error(), kindCtrRuntime) {
			t.Errorf("%q read as %s: %v", prose, kindCtrRuntime, err)
		}
	}
}
