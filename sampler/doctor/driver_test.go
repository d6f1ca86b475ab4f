package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
)

// What real drivers answer, and the fix doctor names for each
// (docs/driver-compatibility.md).

func TestDoctorInitErrorFixes(t *testing.T) {
	cases := []struct {
		name  string
		err   nvml.Return
		files map[string]string
		fix   string
	}{
		{"rm_mismatch", nvml.ERROR_LIB_RM_VERSION_MISMATCH, nil, "reboot"},
		{"no_permission", nvml.ERROR_NO_PERMISSION, nil, "/dev/nvidia"},
		{"revoked", nvml.ERROR_UNKNOWN, map[string]string{"/.dockerenv": "", "/dev/nvidiactl": ""}, "restart the container"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cs := Run(Env{Root: fsRoot(t, c.files), InitErr: c.err})
			if lib := find(t, cs, "NVML library"); lib.Status != Fail || !strings.Contains(lib.Fix, c.fix) {
				t.Errorf("library check: %+v, want a fix with %q", lib, c.fix)
			}
		})
	}
}

func TestDoctorSlowInit(t *testing.T) {
	root := fsRoot(t, map[string]string{"/dev/nvidiactl": "", "/dev/nvidia0": "", "/dev/nvidia-uvm": ""})
	cs := Run(Env{Root: root, NVML: h200(), InitTook: 7 * time.Second})
	c := find(t, cs, "NVML start")
	if c.Status != Warn || !strings.Contains(c.Seen, "7.0 s") || !strings.Contains(c.Fix, "nvidia-persistenced") {
		t.Errorf("start check: %+v", c)
	}
	cs = Run(Env{Root: root, NVML: h200(), InitTook: 80 * time.Millisecond})
	if c := find(t, cs, "NVML start"); c.Status != OK {
		t.Errorf("a quick start: %+v", c)
	}
}

// TestDoctorForeignPIDs: in a container with its own PID namespace NVML
// lists the host's PIDs, which /proc here does not have.
func TestDoctorForeignPIDs(t *testing.T) {
	s := h200()
	for i, d := range s.Devices {
		var procs []nvml.ProcessInfo
		if i == 0 {
			procs = []nvml.ProcessInfo{{Pid: 48211}, {Pid: 48230}}
		}
		d.(*server.Device).GetComputeRunningProcessesFunc = func() ([]nvml.ProcessInfo, nvml.Return) { return procs, nvml.SUCCESS }
	}
	files := map[string]string{"/.dockerenv": "", "/dev/nvidiactl": "", "/dev/nvidia0": "", "/proc/1/stat": ""}
	cs := Run(Env{Root: fsRoot(t, files), NVML: s})
	c := find(t, cs, "PID namespace")
	if c.Status != Warn || !strings.Contains(c.Seen, "48211") || !strings.Contains(c.Fix, "--pid=host") || !strings.Contains(c.Fix, "hostPID") {
		t.Errorf("PID namespace check: %+v", c)
	}
	files["/proc/48211/stat"] = ""
	cs = Run(Env{Root: fsRoot(t, files), NVML: s})
	if c := find(t, cs, "PID namespace"); c.Status != OK {
		t.Errorf("PIDs visible here: %+v", c)
	}
}
