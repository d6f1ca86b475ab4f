// Package doctor answers "why can't I see my GPU, or why is it slow to
// reach?" with a list of checks, each ok / warn / fail with what was seen and
// the fix. The checks come from [gpu-idle-pipeline] §7.1–7.3 (containers, device
// numbering) and [gpu-idle-handbook] §5 (CUDA_VISIBLE_DEVICES, Container Toolkit / CDI,
// WSL2), plus persistence and MIG mode from NVML.
package doctor

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Status of one check.
type Status string

const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
)

// Check is one line of the doctor's answer.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Seen   string `json:"seen"`
	Fix    string `json:"fix,omitempty"`
}

// Env is what the doctor inspects; tests point Root at a temp dir and pass a
// fake NVML.
type Env struct {
	Root   string              // filesystem root, "/" on a real machine
	Getenv func(string) string // os.Getenv
	// NVML is the library handle; InitErr is what Init answered (nil: loaded).
	NVML    nvml.Interface
	InitErr error
	// LoadedFrom is the path the library was loaded from, when known.
	LoadedFrom string
}

// System returns the environment of this machine, with NVML initialised.
// The caller shuts NVML down when InitErr is nil.
func System() Env {
	lib := nvml.New()
	env := Env{Root: "/", Getenv: os.Getenv, NVML: lib}
	if ret := lib.Init(); ret != nvml.SUCCESS {
		env.InitErr = ret
	} else {
		env.LoadedFrom = loadedLibrary("/proc/self/maps")
	}
	return env
}

// Failed reports whether any check failed (the command then exits 1).
func Failed(cs []Check) bool {
	for _, c := range cs {
		if c.Status == Fail {
			return true
		}
	}
	return false
}

// Run performs every check, in the order a person would look.
func Run(env Env) []Check {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	count := 0
	if env.InitErr == nil && env.NVML != nil {
		if n, ret := env.NVML.DeviceGetCount(); ret == nvml.SUCCESS {
			count = n
		}
	}
	cs := []Check{checkLibrary(env, count), checkDeviceNodes(env)}
	if c, ok := checkContainer(env); ok {
		cs = append(cs, c)
	}
	if c, ok := checkWSL(env); ok {
		cs = append(cs, c)
	}
	cs = append(cs, checkVisible(env, "CUDA_VISIBLE_DEVICES", count), checkVisible(env, "NVIDIA_VISIBLE_DEVICES", count))
	if count > 0 {
		cs = append(cs, checkPersistence(env, count), checkMIG(env, count))
	}
	return cs
}

func (e Env) path(p string) string { return filepath.Join(e.Root, p) }

func (e Env) exists(p string) bool {
	_, err := os.Stat(e.path(p))
	return err == nil
}

func (e Env) read(p string) string {
	b, err := os.ReadFile(e.path(p))
	if err != nil {
		return ""
	}
	return string(b)
}

func checkLibrary(env Env, count int) Check {
	c := Check{Name: "NVML library"}
	if env.InitErr != nil {
		c.Status = Fail
		c.Seen = fmt.Sprintf("libnvidia-ml.so.1 did not load: %v", env.InitErr)
		c.Fix = "install the NVIDIA driver on the host (nvidia-smi must work there); in a container, start it with --gpus all (NVIDIA Container Toolkit); on WSL2 install the Windows driver"
		return c
	}
	driver, _ := env.NVML.SystemGetDriverVersion()
	cudaV, _ := env.NVML.SystemGetCudaDriverVersion()
	from := env.LoadedFrom
	if from == "" {
		from = "libnvidia-ml.so.1"
	}
	c.Status = OK
	c.Seen = fmt.Sprintf("loaded %s; driver %s, CUDA %d.%d; %d GPU(s)", from, driver, cudaV/1000, cudaV%1000/10, count)
	if count == 0 {
		c.Status = Fail
		c.Fix = "the driver sees no GPU: check `nvidia-smi`, `dmesg | grep -i nvidia`, and that the card is seated and powered"
	}
	return c
}

func checkDeviceNodes(env Env) Check {
	c := Check{Name: "device nodes"}
	matches, _ := filepath.Glob(env.path("/dev/nvidia[0-9]*"))
	ctl := env.exists("/dev/nvidiactl")
	switch {
	case len(matches) > 0 && ctl:
		c.Status, c.Seen = OK, fmt.Sprintf("/dev/nvidiactl and %d /dev/nvidiaN node(s)", len(matches))
		if !env.exists("/dev/nvidia-uvm") {
			c.Status = Warn
			c.Seen += "; /dev/nvidia-uvm missing"
			c.Fix = "CUDA programs need nvidia-uvm: `sudo modprobe nvidia-uvm` (or run any CUDA program once as root)"
		}
	case env.exists("/dev/dxg"):
		c.Status, c.Seen = OK, "/dev/dxg (WSL2 GPU paravirtualisation); no /dev/nvidia* is expected there"
	default:
		c.Status, c.Seen = Fail, "no /dev/nvidiactl or /dev/nvidia0"
		c.Fix = "load the driver (`sudo modprobe nvidia`); in a container pass the GPUs in (`docker run --gpus all`, or `--device /dev/nvidia0`)"
	}
	return c
}

// loadedLibrary finds where libnvidia-ml was mapped from in a maps file.
func loadedLibrary(maps string) string {
	b, err := os.ReadFile(maps)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if i := strings.Index(line, "/"); i >= 0 && strings.Contains(line, "libnvidia-ml") {
			return strings.TrimSpace(line[i:])
		}
	}
	return ""
}

// WriteText prints the checks for a person, the fix under each problem.
func WriteText(w io.Writer, cs []Check) {
	fmt.Fprintln(w, "gpuscope doctor: why a GPU may be invisible or slow to reach")
	for _, c := range cs {
		fmt.Fprintf(w, "  %-4s  %-22s %s\n", strings.ToUpper(string(c.Status)), c.Name, c.Seen)
		if c.Fix != "" {
			fmt.Fprintf(w, "        %-22s fix: %s\n", "", c.Fix)
		}
	}
	if Failed(cs) {
		fmt.Fprintln(w, "result: a check failed; fix it first (the first failure is usually the cause of the rest)")
	} else {
		fmt.Fprintln(w, "result: no check failed")
	}
}
