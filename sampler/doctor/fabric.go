package doctor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// fabricSymbol is the fabric query; older drivers lack it, and go-nvml
// binds lazily, so calling it there would end the process.
const fabricSymbol = "nvmlDeviceGetGpuFabricInfo"

// checkFabric: on an NVSwitch system each GPU registers with the fabric,
// which nvidia-fabricmanager sets up; until it has, CUDA fails with error
// 802 "system not yet initialized". NVML's fabric info ([nvml-api]
// nvmlDeviceGetGpuFabricInfo: state and status) says where each GPU is.
// A GPU that answers NOT_SUPPORTED is outside a fabric or older than
// Hopper; then the NVSwitch device nodes and the daemon's process are
// what can be seen.
func checkFabric(env Env, count int) Check {
	c := Check{ID: "fabric", Name: "NVSwitch fabric", Status: NA}
	var notStarted, inProgress, failed, done []string
	if env.NVML.Extensions().LookupSymbol(fabricSymbol) == nil {
		for i := 0; i < count; i++ {
			d, ret := env.NVML.DeviceGetHandleByIndex(i)
			if ret != nvml.SUCCESS {
				continue
			}
			info, ret := d.GetGpuFabricInfo()
			if ret != nvml.SUCCESS {
				continue // not supported, or unreadable: no state to judge
			}
			gpu := strconv.Itoa(i)
			switch {
			case info.State == nvml.GPU_FABRIC_STATE_NOT_STARTED:
				notStarted = append(notStarted, gpu)
			case info.State == nvml.GPU_FABRIC_STATE_IN_PROGRESS:
				inProgress = append(inProgress, gpu)
			case info.State == nvml.GPU_FABRIC_STATE_COMPLETED && nvml.Return(info.Status) != nvml.SUCCESS:
				failed = append(failed, gpu+" ("+nvml.Return(info.Status).String()+")")
			case info.State == nvml.GPU_FABRIC_STATE_COMPLETED:
				done = append(done, gpu)
			}
		}
	}
	driver, _ := env.NVML.SystemGetDriverVersion()
	switch {
	case len(notStarted)+len(failed) > 0:
		c.Status = Fail
		c.seen(say("seen.fabric_not_ready", "fabric registration not started on GPU {{.NotStarted}}; failed on GPU {{.Failed}}",
			"NotStarted", listOrNone(notStarted), "Failed", listOrNone(failed)))
		fabricFix(&c, driver)
	case len(inProgress) > 0:
		c.Status = Warn
		c.seen(say("seen.fabric_in_progress", "fabric registration still in progress on GPU {{.GPUs}}", "GPUs", strings.Join(inProgress, ", ")))
		c.fix(say("fix.fabric_wait", "wait a minute and run doctor again; if it stays in progress, check the fabric manager (`systemctl status nvidia-fabricmanager`)"))
	case len(done) > 0:
		c.Status = OK
		c.seen(say("seen.fabric_ok", "{{.Count}} {{plural .Count \"GPU\" \"GPUs\"}} registered with the NVSwitch fabric", "Count", strconv.Itoa(len(done))))
	case nvswitchPresent(env):
		// NVSwitches without a fabric state: an A100-era system or an old driver.
		if fabricManagerRunning(env) {
			c.Status = OK
			c.seen(say("seen.fabric_daemon", "NVSwitch devices present; nv-fabricmanager is running"))
			return c
		}
		c.Status = Warn
		c.seen(say("seen.fabric_unknown", "NVSwitch devices present, but the GPUs report no fabric state and no nv-fabricmanager process is visible here"))
		fabricFix(&c, driver)
	default:
		c.seen(say("seen.fabric_na", "not applicable: no GPU reports an NVSwitch fabric (none here, or the driver cannot tell)"))
	}
	return c
}

// fabricFix is what a fabric that is not up needs.
func fabricFix(c *Check, driver string) {
	c.fix(say("fix.fabric_manager", "CUDA fails with error 802 \"system not yet initialized\" until the fabric is up: see `systemctl status nvidia-fabricmanager` and its log, start it (`sudo systemctl enable --now nvidia-fabricmanager`), and install the fabric manager of the driver's exact version ({{.Driver}})",
		"Driver", driver))
}

// nvswitchPresent: the NVSwitch driver lists its devices.
func nvswitchPresent(env Env) bool {
	for _, pat := range []string{"/dev/nvidia-nvswitch[0-9]*", "/proc/driver/nvidia-nvswitch/devices/*"} {
		if m, _ := filepath.Glob(env.path(pat)); len(m) > 0 {
			return true
		}
	}
	return false
}

// fabricManagerRunning looks for the daemon (nv-fabricmanager) in /proc;
// from a container with its own PID namespace it cannot be seen.
func fabricManagerRunning(env Env) bool {
	comms, _ := filepath.Glob(env.path("/proc/[0-9]*/comm"))
	for _, p := range comms {
		if b, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(b)) == "nv-fabricmanager" {
			return true
		}
	}
	return false
}

// listOrNone joins GPU indices, the word "none" for none.
func listOrNone(gpus []string) any {
	if len(gpus) == 0 {
		return word("none")
	}
	return strings.Join(gpus, ", ")
}
