package doctor

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Checks for what real drivers do (docs/driver-compatibility.md): the fix
// for what nvmlInit answered, a slow start, host PIDs in a container.

// slowInit: with persistence mode nvmlInit takes well under a second;
// initTimeout: a wedged driver's nvmlInit never returns.
const (
	slowInit    = 2 * time.Second
	initTimeout = 30 * time.Second
)

// errInitStuck is initWithin's answer when nvmlInit did not return.
type errInitStuck struct{ limit time.Duration }

func (e errInitStuck) Error() string {
	return fmt.Sprintf("nvmlInit did not return within %s (a stuck driver: see `dmesg` for Xid errors)", e.limit)
}

// initWithin calls Init and gives up after limit; the call is left running
// (a cgo call cannot be cancelled), doctor reports what it saw.
func initWithin(lib Library, limit time.Duration) error {
	done := make(chan nvml.Return, 1)
	go func() { done <- lib.Init() }()
	select {
	case r := <-done:
		if r != nvml.SUCCESS {
			return r
		}
		return nil
	case <-time.After(limit):
		return errInitStuck{limit}
	}
}

// initFix names the fix for a failed nvmlInit by what it answered: only
// a missing library means "install the driver"; a module not loaded, an
// upgrade without reboot, a permission, a revoked container device, a
// lost GPU and a stuck driver each have their own (docs/driver-compatibility.md).
func initFix(env Env, c *Check) {
	var ret nvml.Return
	var stuck errInitStuck
	if errors.As(env.InitErr, &stuck) {
		c.fix(say("fix.init_stuck", "the driver is stuck: read `dmesg | grep -e NVRM -e Xid`; stop the programs holding the GPUs (`sudo fuser -v /dev/nvidia*`) and reboot if `nvidia-smi` hangs too"))
		return
	}
	errors.As(env.InitErr, &ret)
	switch {
	case ret == nvml.ERROR_LIBRARY_NOT_FOUND:
		c.fix(say("fix.install_driver", "install the NVIDIA driver on the host (nvidia-smi must work there); in a container, start it with --gpus all (NVIDIA Container Toolkit); on WSL2 install the Windows driver"))
	case ret == nvml.ERROR_DRIVER_NOT_LOADED:
		c.fix(say("fix.load_module", "the library is installed but the nvidia kernel module is not loaded: `sudo modprobe nvidia`; if that fails, `dmesg | grep -i nvidia` says why (no module built for this kernel after a kernel upgrade: reinstall the driver or its DKMS package; Secure Boot refusing an unsigned module)"))
	case ret == nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		c.fix(say("fix.reboot_upgrade", "the driver was upgraded but the old kernel module is still loaded: reboot (or stop every GPU program, nvidia-persistenced and the fabric manager included, and reload the nvidia modules); in a container, an image that carries its own libnvidia-ml does the same"))
	case ret == nvml.ERROR_NO_PERMISSION:
		c.fix(say("fix.init_permission", "this user may not open /dev/nvidia*: check the device files' group and mode (`ls -l /dev/nvidia*`); in a container pass the GPUs with --gpus or the Kubernetes device plugin, not a bare --device; in Apptainer or Singularity start with --nv"))
	case ret == nvml.ERROR_UNKNOWN && containerKind(env) != "":
		c.fix(say("fix.restart_container", "the container lost its GPU access (on a systemd host `systemctl daemon-reload` takes back the device permissions it started with): restart the container"))
	case ret == nvml.ERROR_GPU_IS_LOST:
		c.fix(say("fix.init_gpu_lost", "a GPU fell off the bus (Xid 79 in `dmesg`): drain the node and reboot; if it repeats, check the GPU's power, cooling and slot"))
	case ret == nvml.ERROR_INSUFFICIENT_SIZE || ret == nvml.ERROR_ARGUMENT_VERSION_MISMATCH || ret == nvml.ERROR_FUNCTION_NOT_FOUND:
		c.fix(say("fix.init_library_mismatch", "the NVML library and the driver do not match (an old or second copy of libnvidia-ml): `ldconfig -p | grep libnvidia-ml` and LD_LIBRARY_PATH must find only the driver's own; reinstall the driver"))
	case ret == nvml.ERROR_UNKNOWN:
		c.fix(say("fix.init_unknown", "the driver could not start: read `dmesg | grep -e NVRM -e Xid` (a GPU that failed to initialise or fell off the bus); `nvidia-smi` prints the driver's own message; a reboot usually clears it"))
	default:
		c.fix(say("fix.init_other", "run `nvidia-smi`, which prints the driver's own message, and read `dmesg | grep -i nvidia`; collect nvidia-bug-report.sh if it stays"))
	}
}

// checkInitTime: without persistence mode every NVML client, gpuscope and
// each job included, waits seconds for the driver to set the GPUs up.
func checkInitTime(env Env) (Check, bool) {
	if env.InitTook <= 0 {
		return Check{}, false
	}
	c := Check{ID: "init_time", Name: "NVML start", Status: OK}
	c.seen(say("seen.init_time", "nvmlInit took {{.Seconds}} s", "Seconds", fmt.Sprintf("%.1f", env.InitTook.Seconds())))
	if env.InitTook >= slowInit {
		c.Status = Warn
		persistenceFix(&c)
	}
	return c, true
}

// checkPIDNamespace: the driver knows no PID namespaces and lists the
// host's PIDs; inside a container with its own namespace none of them is
// in /proc, so processes show without command, user or tree.
func checkPIDNamespace(env Env, count int) (Check, bool) {
	if containerKind(env) == "" {
		return Check{}, false
	}
	var pids []string
	here := false
	for i := 0; i < count; i++ {
		d, ret := env.NVML.DeviceGetHandleByIndex(i)
		if ret != nvml.SUCCESS {
			continue
		}
		procs, ret := d.GetComputeRunningProcesses()
		if ret != nvml.SUCCESS {
			continue
		}
		for _, p := range procs {
			pid := strconv.Itoa(int(p.Pid))
			pids = append(pids, pid)
			here = here || env.exists("/proc/"+pid)
		}
	}
	if len(pids) == 0 {
		return Check{}, false // nothing to compare
	}
	c := Check{ID: "pid_namespace", Name: "PID namespace", Status: OK}
	if here {
		c.seen(say("seen.pids_here", "the GPU processes NVML lists are in this PID namespace"))
		return c, true
	}
	c.Status = Warn
	c.seen(say("seen.pids_foreign", "NVML lists PIDs {{.PIDs}}, which this PID namespace does not have (the driver reports the host's PIDs)",
		"PIDs", strings.Join(pids[:min(len(pids), 5)], ", ")))
	c.fix(say("fix.pid_host", "run gpuscope in the host's PID namespace: `docker run --pid=host`, or `hostPID: true` in the pod spec; without it processes show without command or user"))
	return c, true
}
