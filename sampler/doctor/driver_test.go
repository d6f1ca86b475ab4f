package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"

	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// What real drivers answer, and the fix doctor names for each
// (docs/driver-compatibility.md).

// TestDoctorInitErrorFixes: each answer of nvmlInit, given by the fake
// driver, gets its own fix; only a missing library says "install".
func TestDoctorInitErrorFixes(t *testing.T) {
	const install = "install the NVIDIA driver"
	cases := []struct {
		name  string
		err   nvml.Return
		files map[string]string
		fix   []string
	}{
		{"library_not_found", nvml.ERROR_LIBRARY_NOT_FOUND, nil, []string{install}},
		{"driver_not_loaded", nvml.ERROR_DRIVER_NOT_LOADED, nil, []string{"modprobe nvidia", "DKMS"}},
		{"rm_mismatch", nvml.ERROR_LIB_RM_VERSION_MISMATCH, nil, []string{"reboot", "reload the nvidia modules"}},
		{"no_permission", nvml.ERROR_NO_PERMISSION, nil, []string{"/dev/nvidia", "--gpus", "device plugin"}},
		{"revoked", nvml.ERROR_UNKNOWN, map[string]string{"/.dockerenv": "", "/dev/nvidiactl": ""}, []string{"restart the container"}},
		{"unknown_on_host", nvml.ERROR_UNKNOWN, nil, []string{"dmesg", "reboot"}},
		{"gpu_lost", nvml.ERROR_GPU_IS_LOST, nil, []string{"Xid 79", "reboot"}},
		{"insufficient_size", nvml.ERROR_INSUFFICIENT_SIZE, nil, []string{"libnvidia-ml", "LD_LIBRARY_PATH"}},
		{"other", nvml.ERROR_MEMORY, nil, []string{"nvidia-smi", "dmesg"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fakenvml.New(fakenvml.Config{GPUs: 1})
			f.SetFault(fakenvml.LibraryGPU, "Init", c.err)
			err := initWithin(f.Interface(), 5*time.Second)
			cs := Run(Env{Root: fsRoot(t, c.files), NVML: f.Interface(), InitErr: err})
			lib := find(t, cs, "NVML library")
			if lib.Status != Fail || !strings.Contains(lib.Seen, c.err.String()) {
				t.Errorf("library check: %+v, want a failure naming %q", lib, c.err.String())
			}
			for _, w := range c.fix {
				if !strings.Contains(lib.Fix, w) {
					t.Errorf("fix %q lacks %q", lib.Fix, w)
				}
			}
			if c.err != nvml.ERROR_LIBRARY_NOT_FOUND && strings.Contains(lib.Fix, install) {
				t.Errorf("%s answered, yet the fix is to install the driver: %q", c.err, lib.Fix)
			}
		})
	}
}

// TestDoctorInitStuck: an nvmlInit that does not return is a stuck
// driver, not a missing one.
func TestDoctorInitStuck(t *testing.T) {
	f := fakenvml.New(fakenvml.Config{GPUs: 1, InitDelay: 2 * time.Second})
	err := initWithin(f.Interface(), 20*time.Millisecond)
	cs := Run(Env{Root: fsRoot(t, nil), InitErr: err})
	lib := find(t, cs, "NVML library")
	if lib.Status != Fail || !strings.Contains(lib.Seen, "did not return") || !strings.Contains(lib.Fix, "stuck") ||
		strings.Contains(lib.Fix, "install") {
		t.Errorf("library check: %+v", lib)
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
