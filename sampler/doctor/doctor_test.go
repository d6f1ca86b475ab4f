package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh200"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
)

// fsRoot makes a fake filesystem root with the given files.
func fsRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// h200 is an 8-GPU HGX mock (registered with its NVSwitch fabric) whose
// GPU 2 has persistence off.
func h200() *server.Server {
	s := dgxh200.New()
	for i, d := range s.Devices {
		mode := nvml.FEATURE_ENABLED
		if i == 2 {
			mode = nvml.FEATURE_DISABLED
		}
		d.(*server.Device).GetPersistenceModeFunc = func() (nvml.EnableState, nvml.Return) { return mode, nvml.SUCCESS }
		d.(*server.Device).GetGpuFabricInfoFunc = func() (nvml.GpuFabricInfo, nvml.Return) {
			return nvml.GpuFabricInfo{State: nvml.GPU_FABRIC_STATE_COMPLETED}, nvml.SUCCESS
		}
	}
	return s
}

func find(t *testing.T, cs []Check, name string) Check {
	t.Helper()
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q in %+v", name, cs)
	return Check{}
}

func TestHealthyNodeWithPersistenceOffOnOneGPU(t *testing.T) {
	root := fsRoot(t, map[string]string{"/dev/nvidiactl": "", "/dev/nvidia0": "", "/dev/nvidia-uvm": ""})
	cs := Run(Env{Root: root, Getenv: env(nil), NVML: h200(), LoadedFrom: "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"})
	if Failed(cs) {
		t.Fatalf("healthy node failed: %+v", cs)
	}
	lib := find(t, cs, "NVML library")
	if lib.Status != OK || !strings.Contains(lib.Seen, "550.54.15") || !strings.Contains(lib.Seen, "CUDA 12.4") || !strings.Contains(lib.Seen, "8 GPU") {
		t.Errorf("library check: %+v", lib)
	}
	if p := find(t, cs, "persistence mode"); p.Status != Warn || !strings.Contains(p.Seen, "GPU 2") {
		t.Errorf("persistence: %+v", p)
	}
	if m := find(t, cs, "MIG mode"); m.Status != OK {
		t.Errorf("MIG: %+v", m)
	}
}

func TestNoDriverInContainerWithoutGPUs(t *testing.T) {
	root := fsRoot(t, map[string]string{"/.dockerenv": ""})
	cs := Run(Env{Root: root, Getenv: env(nil), InitErr: nvml.ERROR_LIBRARY_NOT_FOUND})
	if !Failed(cs) {
		t.Fatal("no driver must fail")
	}
	if c := find(t, cs, "container"); c.Status != Fail || !strings.Contains(c.Fix, "--gpus all") {
		t.Errorf("container: %+v", c)
	}
	if c := find(t, cs, "device nodes"); c.Status != Fail {
		t.Errorf("device nodes: %+v", c)
	}
}

func TestWSLWithoutDxg(t *testing.T) {
	root := fsRoot(t, map[string]string{"/proc/version": "Linux version 5.15.153.1-microsoft-standard-WSL2"})
	cs := Run(Env{Root: root, InitErr: nvml.ERROR_LIBRARY_NOT_FOUND})
	if c := find(t, cs, "WSL2"); c.Status != Fail || !strings.Contains(c.Seen, "/dev/dxg: no") {
		t.Errorf("WSL2: %+v", c)
	}
}

func TestVisibleDevices(t *testing.T) {
	root := fsRoot(t, map[string]string{"/dev/nvidiactl": "", "/dev/nvidia0": "", "/dev/nvidia-uvm": ""})
	cases := []struct {
		val    string
		status Status
		seen   string
	}{
		{"", OK, "not set"},
		{"2,3", Warn, "cuda:0→GPU 2, cuda:1→GPU 3"},
		{"-1", Fail, "hides every GPU"},
		{"9", Warn, "renumbered"},
	}
	for _, c := range cases {
		cs := Run(Env{Root: root, Getenv: env(map[string]string{"CUDA_VISIBLE_DEVICES": c.val}), NVML: h200()})
		got := find(t, cs, "CUDA_VISIBLE_DEVICES")
		if got.Status != c.status || !strings.Contains(got.Seen, c.seen) {
			t.Errorf("CUDA_VISIBLE_DEVICES=%q: %+v", c.val, got)
		}
	}
}

func TestMIGEnabled(t *testing.T) {
	s := h200()
	d := s.Devices[1].(*server.Device)
	d.GetMigModeFunc = func() (int, int, nvml.Return) { return nvml.DEVICE_MIG_ENABLE, nvml.DEVICE_MIG_ENABLE, nvml.SUCCESS }
	root := fsRoot(t, map[string]string{"/dev/nvidiactl": "", "/dev/nvidia0": ""})
	cs := Run(Env{Root: root, NVML: s})
	if m := find(t, cs, "MIG mode"); m.Status != Warn || !strings.Contains(m.Seen, "GPU 1") {
		t.Errorf("MIG: %+v", m)
	}
	if c := find(t, cs, "device nodes"); c.Status != Warn {
		t.Errorf("missing nvidia-uvm should warn: %+v", c)
	}
}

func TestLoadedLibraryFromMaps(t *testing.T) {
	root := fsRoot(t, map[string]string{"maps": "7f00-7f01 r-xp 00000000 08:01 123 /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.15\n"})
	if got := loadedLibrary(filepath.Join(root, "maps")); got != "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.550.54.15" {
		t.Errorf("got %q", got)
	}
}
