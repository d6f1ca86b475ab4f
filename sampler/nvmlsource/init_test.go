package nvmlsource

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// Starting NVML on real nodes (docs/driver-compatibility.md, the Init rows).

// TestSlowInitSaid: without persistence mode nvmlInit takes seconds; the
// dashboard says how long and what fixes it, once.
func TestSlowInitSaid(t *testing.T) {
	box := &truthBox{}
	box.set(varied(fakenvml.BaseTruth(2, ""), 0))
	f := fakenvml.New(fakenvml.Config{GPUs: 2, Truth: box.get, InitDelay: 40 * time.Millisecond})
	src, err := New(f.Interface(), Options{SlowInit: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	_, first := src.Sample(tickTime(0))
	if len(first) != 1 || !strings.Contains(first[0], "NVML took") || !strings.Contains(first[0], "nvidia-persistenced") {
		t.Errorf("first tick: %q, want one line with the time and the fix", first)
	}
	if _, next := src.Sample(tickTime(1)); len(next) != 0 {
		t.Errorf("said again: %q", next)
	}
}

// TestInitHangGivesUp: an nvmlInit that does not return (a wedged driver)
// must not hold the dashboard: New gives up after Options.InitTimeout and
// the explanation says what to check.
func TestInitHangGivesUp(t *testing.T) {
	f := fakenvml.New(fakenvml.Config{GPUs: 1, InitDelay: 3 * time.Second})
	start := time.Now()
	_, err := New(f.Interface(), Options{InitTimeout: 50 * time.Millisecond})
	if !errors.Is(err, ErrInitHung) {
		t.Fatalf("err = %v, want ErrInitHung", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("gave up after %s", took)
	}
	se := ExplainFS(err, os.DirFS(t.TempDir()))
	if len(se.CauseKeys) == 0 || se.CauseKeys[0] != "init_hang" {
		t.Errorf("causes %q", se.CauseKeys)
	}
}

// TestExplainInitErrors: what Init answered decides the first cause.
func TestExplainInitErrors(t *testing.T) {
	docker := map[string]string{".dockerenv": ""}
	cases := []struct {
		name  string
		ret   nvml.Return
		files map[string]string
		first string // CauseKeys[0]
		text  string // in Causes[0]
	}{
		{"rm_mismatch", nvml.ERROR_LIB_RM_VERSION_MISMATCH, nil, "rm_mismatch", "reboot"},
		{"no_permission", nvml.ERROR_NO_PERMISSION, nil, "no_permission", "permissions"},
		{"revoked", nvml.ERROR_UNKNOWN, docker, "revoked", "restart the container"},
		{"driver_not_loaded", nvml.ERROR_DRIVER_NOT_LOADED, nil, "module_not_loaded", "modprobe nvidia"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for p := range c.files {
				if err := os.WriteFile(filepath.Join(root, p), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			se := ExplainFS(c.ret, os.DirFS(root))
			if se.CauseKeys[0] != c.first || !strings.Contains(se.Causes[0], c.text) {
				t.Errorf("first cause %q: %q", se.CauseKeys[0], se.Causes[0])
			}
		})
	}
}
