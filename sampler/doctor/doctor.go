// Package doctor answers "why can't I see my GPU, or why is it slow to
// reach?" with a list of checks, each ok / warn / fail with what was seen and
// the fix. The checks come from [gpu-idle-pipeline] §7.1–7.3 (containers, device
// numbering) and [gpu-idle-handbook] §5 (CUDA_VISIBLE_DEVICES, Container Toolkit / CDI,
// WSL2), plus persistence and MIG mode from NVML.
package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Status of one check.
type Status string

const (
	OK   Status = "ok"
	Warn Status = "warn"
	Fail Status = "fail"
	// NA: the check does not apply here (no NVSwitch fabric, a driver that
	// cannot tell): neither a pass nor a problem.
	NA Status = "na"
)

// Check is one line of the doctor's answer.
type Check struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	Seen   string `json:"seen"`
	Fix    string `json:"fix,omitempty"`
	// ID names the check, SeenMsg and FixMsg its words as messages, so ui
	// can show them in the reader's language; the JSON stays English.
	ID      string `json:"-"`
	SeenMsg Msg    `json:"-"`
	FixMsg  Msg    `json:"-"`
}

// Library is the part of nvml.Interface doctor calls (go-nvml's and the
// fake's satisfy it).
type Library interface {
	Init() nvml.Return
	Shutdown() nvml.Return
	DeviceGetCount() (int, nvml.Return)
	DeviceGetHandleByIndex(int) (nvml.Device, nvml.Return)
	SystemGetDriverVersion() (string, nvml.Return)
	SystemGetCudaDriverVersion() (int, nvml.Return)
	Extensions() nvml.ExtendedInterface
}

// Env is what the doctor inspects; tests point Root at a temp dir and pass a
// fake NVML.
type Env struct {
	Root   string              // filesystem root, "/" on a real machine
	Getenv func(string) string // os.Getenv
	// NVML is the library handle; InitErr is what Init answered (nil: loaded).
	NVML    Library
	InitErr error
	// LoadedFrom is the path the library was loaded from, when known.
	LoadedFrom string
	// InitTook is how long nvmlInit took (0: not measured).
	InitTook time.Duration
}

// System returns the environment of this machine, with NVML initialised.
// The caller shuts NVML down when InitErr is nil.
func System() Env {
	lib := nvml.New()
	env := Env{Root: "/", Getenv: os.Getenv, NVML: lib}
	start := time.Now()
	if err := initWithin(lib, initTimeout); err != nil {
		env.InitErr = err
	} else {
		env.InitTook = time.Since(start)
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
	if c, ok := checkInitTime(env); ok {
		cs = append(cs, c)
	}
	if c, ok := checkContainer(env); ok {
		cs = append(cs, c)
	}
	if c, ok := checkWSL(env); ok {
		cs = append(cs, c)
	}
	cs = append(cs, checkVisible(env, "CUDA_VISIBLE_DEVICES", count), checkVisible(env, "NVIDIA_VISIBLE_DEVICES", count))
	if count > 0 {
		cs = append(cs, checkPersistence(env, count), checkMIG(env, count))
		if c, ok := checkPIDNamespace(env, count); ok {
			cs = append(cs, c)
		}
		cs = append(cs, checkFabric(env, count))
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
	c := Check{ID: "library", Name: "NVML library"}
	if env.InitErr != nil {
		c.Status = Fail
		c.seen(say("seen.library_not_loaded", "libnvidia-ml.so.1 did not load: {{.Err}}", "Err", fmt.Sprint(env.InitErr)))
		initFix(env, &c)
		return c
	}
	driver, _ := env.NVML.SystemGetDriverVersion()
	cudaV, _ := env.NVML.SystemGetCudaDriverVersion()
	from := env.LoadedFrom
	if from == "" {
		from = "libnvidia-ml.so.1"
	}
	c.Status = OK
	c.seen(say("seen.library_loaded", "loaded {{.From}}; driver {{.Driver}}, CUDA {{.CUDA}}; {{.Count}} {{plural .Count \"GPU\" \"GPUs\"}}",
		"From", from, "Driver", driver, "CUDA", fmt.Sprintf("%d.%d", cudaV/1000, cudaV%1000/10), "Count", strconv.Itoa(count)))
	if count == 0 {
		c.Status = Fail
		c.fix(say("fix.no_gpu", "the driver sees no GPU: check `nvidia-smi`, `dmesg | grep -i nvidia`, and that the card is seated and powered"))
	}
	return c
}

func checkDeviceNodes(env Env) Check {
	c := Check{ID: "device_nodes", Name: "device nodes"}
	matches, _ := filepath.Glob(env.path("/dev/nvidia[0-9]*"))
	ctl := env.exists("/dev/nvidiactl")
	n := strconv.Itoa(len(matches))
	switch {
	case len(matches) > 0 && ctl && env.exists("/dev/nvidia-uvm"):
		c.Status = OK
		c.seen(say("seen.nodes", "/dev/nvidiactl and {{.Count}} /dev/nvidiaN {{plural .Count \"node\" \"nodes\"}}", "Count", n))
	case len(matches) > 0 && ctl:
		c.Status = Warn
		c.seen(say("seen.nodes_no_uvm", "/dev/nvidiactl and {{.Count}} /dev/nvidiaN {{plural .Count \"node\" \"nodes\"}}; /dev/nvidia-uvm missing", "Count", n))
		c.fix(say("fix.modprobe_uvm", "CUDA programs need nvidia-uvm: `sudo modprobe nvidia-uvm` (or run any CUDA program once as root)"))
	case env.exists("/dev/dxg"):
		c.Status = OK
		c.seen(say("seen.dxg", "/dev/dxg (WSL2 GPU paravirtualisation); no /dev/nvidia* is expected there"))
	default:
		c.Status = Fail
		c.seen(say("seen.no_nodes", "no /dev/nvidiactl or /dev/nvidia0"))
		c.fix(say("fix.load_driver", "load the driver (`sudo modprobe nvidia`); in a container pass the GPUs in (`docker run --gpus all`, or `--device /dev/nvidia0`)"))
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
