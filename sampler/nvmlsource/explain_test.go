package nvmlsource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

func TestExplainOrdersCausesByWhatIsSeen(t *testing.T) {
	f := fakenvml.New(fakenvml.Config{GPUs: 1})
	f.SetFault(fakenvml.LibraryGPU, "Init", nvml.ERROR_LIBRARY_NOT_FOUND)
	_, err := New(f.Interface(), Options{})
	if err == nil {
		t.Fatal("New succeeded with Init failing")
	}
	cases := []struct {
		name  string
		files map[string]string
		first string // substring of Causes[0]
		not   string // substring that must appear in no cause ("" = skip)
	}{
		{"bare metal", nil, "no NVIDIA driver", "WSL2"},
		{"docker", map[string]string{".dockerenv": ""}, "container started without GPUs", "WSL2"},
		{"kubernetes", map[string]string{"proc/1/cgroup": "0::/kubepods/besteffort/pod1/abc\n"}, "container started without GPUs", ""},
		{"wsl without dxg", map[string]string{"proc/version": "Linux version 5.15.153.1-microsoft-standard-WSL2"}, "WSL2", ""},
		{"wsl with dxg", map[string]string{"proc/version": "Linux version 5.15 microsoft-standard-WSL2", "dev/dxg": ""}, "no NVIDIA driver", ""},
		{"driver loaded, no library", map[string]string{"proc/driver/nvidia/version": "NVRM 550"}, "kernel driver is loaded", "WSL2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for p, body := range c.files {
				full := filepath.Join(root, p)
				if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			se := ExplainFS(err, os.DirFS(root))
			if se.Tried != "libnvidia-ml.so.1" || !strings.Contains(se.Err, "ERROR_LIBRARY_NOT_FOUND") {
				t.Errorf("Tried %q Err %q", se.Tried, se.Err)
			}
			if len(se.Causes) < 2 || !strings.Contains(se.Causes[0], c.first) {
				t.Fatalf("causes = %q, want first to mention %q", se.Causes, c.first)
			}
			for _, cause := range se.Causes {
				if c.not != "" && strings.Contains(cause, c.not) {
					t.Errorf("unexpected cause %q", cause)
				}
			}
		})
	}
}

func TestExplainVersionMismatchFirst(t *testing.T) {
	se := ExplainFS(nvml.ERROR_LIB_RM_VERSION_MISMATCH, os.DirFS(t.TempDir()))
	if !strings.Contains(se.Causes[0], "reboot") {
		t.Errorf("causes = %q", se.Causes)
	}
}
