package nvmlsource

import (
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
)

// libraryName is the library go-nvml loads.
const libraryName = "libnvidia-ml.so.1"

// Explain turns a failed New into a human explanation, looking at this
// machine's filesystem for clues (container, WSL2, driver presence).
func Explain(err error) *sampler.SourceError {
	return ExplainFS(err, os.DirFS("/"))
}

// ExplainFS is Explain with the filesystem root injected (tests pass a temp
// dir through os.DirFS). Paths are looked up relative to the root.
func ExplainFS(err error, root fs.FS) *sampler.SourceError {
	se := &sampler.SourceError{Tried: libraryName}
	if err != nil {
		se.Err = err.Error()
	}
	c := lookAround(root)
	ret, _ := errReturn(err)

	const (
		driverCause = "no NVIDIA driver is installed or its kernel module is not loaded: " +
			"install the driver, then check that `nvidia-smi` works on the host"
		containerCause = "running in a container started without GPUs: install the NVIDIA Container Toolkit on the host " +
			"and start the container with `--gpus all` ([gpu-idle-pipeline] §7.1, [gpu-idle-handbook] §5.2)"
		wslCause = "WSL2 without GPU access (/dev/dxg is missing): update the Windows NVIDIA driver and run " +
			"`wsl --update` ([gpu-idle-handbook] §5.3)"
	)
	add := func(key, text, seen string) {
		se.Causes = append(se.Causes, text+seen)
		se.CauseKeys = append(se.CauseKeys, key)
		se.CauseSeen = append(se.CauseSeen, seen)
	}
	switch {
	case errors.Is(err, ErrInitHung):
		add("init_hang", "nvmlInit did not answer: the driver is stuck (a GPU in a bad state, see `dmesg` for Xid errors); "+
			"if `nvidia-smi` hangs too, the GPU needs a reset or the node a reboot", "")
	case ret == nvml.ERROR_UNKNOWN && c.container:
		add("revoked", "the container lost access to its GPUs (on a systemd host, `systemctl daemon-reload` takes back the "+
			"device permissions the container was started with): restart the container", c.evidence())
	}
	switch ret {
	case nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		add("rm_mismatch", "the driver was upgraded but the old kernel module is still loaded: reboot (or reload the nvidia modules)", "")
	case nvml.ERROR_NO_PERMISSION:
		add("no_permission", "this user may not open /dev/nvidia*: check the device files' group and permissions", "")
	case nvml.ERROR_DRIVER_NOT_LOADED:
		add("module_not_loaded", "the driver's library is installed but its kernel module is not loaded: `sudo modprobe nvidia` "+
			"(after a kernel upgrade, rebuild the module: reinstall the driver or its DKMS package)", "")
	}
	wslMissingDxg := c.wsl && !c.dxg
	switch {
	case wslMissingDxg:
		add("wsl", wslCause, c.evidence())
		add("container", containerCause, "")
		add("driver", driverCause, "")
	case c.container:
		add("container", containerCause, c.evidence())
		add("driver", driverCause, "")
	case c.kernelDriver && ret == nvml.ERROR_LIBRARY_NOT_FOUND:
		add("libpath", "the NVIDIA kernel driver is loaded (/proc/driver/nvidia exists) but "+libraryName+
			" is not on the library path: reinstall the driver's user-space libraries or run `ldconfig`", "")
		add("driver", driverCause, "")
		add("container", containerCause, "")
	default:
		add("driver", driverCause, c.evidence())
		add("container", containerCause, "")
	}
	if c.wsl && !wslMissingDxg {
		add("wsl", wslCause, "")
	}
	return se
}

// clues are what the filesystem shows about where gpuscope runs.
type clues struct {
	container    bool
	containerWhy string
	wsl          bool
	dxg          bool
	kernelDriver bool
	devNodes     bool
}

func lookAround(root fs.FS) clues {
	var c clues
	exists := func(p string) bool { _, err := fs.Stat(root, p); return err == nil }
	switch {
	case exists(".dockerenv"):
		c.container, c.containerWhy = true, "/.dockerenv exists"
	case exists("run/.containerenv"):
		c.container, c.containerWhy = true, "/run/.containerenv exists (podman)"
	default:
		if b, err := fs.ReadFile(root, "proc/1/cgroup"); err == nil {
			for _, marker := range []string{"docker", "containerd", "kubepods", "libpod", "lxc"} {
				if strings.Contains(string(b), marker) {
					c.container, c.containerWhy = true, "/proc/1/cgroup mentions "+marker
					break
				}
			}
		}
	}
	if b, err := fs.ReadFile(root, "proc/version"); err == nil {
		c.wsl = strings.Contains(strings.ToLower(string(b)), "microsoft")
	}
	c.dxg = exists("dev/dxg")
	c.kernelDriver = exists("proc/driver/nvidia/version")
	c.devNodes = exists("dev/nvidiactl")
	return c
}

// evidence is a short "(seen: ...)" suffix for the first cause.
func (c clues) evidence() string {
	var seen []string
	if c.wsl {
		seen = append(seen, "/proc/version says Microsoft (WSL)")
		if !c.dxg {
			seen = append(seen, "no /dev/dxg")
		}
	}
	if c.container {
		seen = append(seen, c.containerWhy)
		if !c.devNodes {
			seen = append(seen, "no /dev/nvidiactl")
		}
	}
	if !c.container && !c.wsl && !c.kernelDriver {
		seen = append(seen, "no /proc/driver/nvidia")
	}
	if len(seen) == 0 {
		return ""
	}
	return " (seen: " + strings.Join(seen, ", ") + ")"
}
