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

// initWithin calls Init and gives up after limit; the call is left running
// (a cgo call cannot be cancelled), doctor reports what it saw.
func initWithin(lib nvml.Interface, limit time.Duration) error {
	done := make(chan nvml.Return, 1)
	go func() { done <- lib.Init() }()
	select {
	case r := <-done:
		if r != nvml.SUCCESS {
			return r
		}
		return nil
	case <-time.After(limit):
		return fmt.Errorf("nvmlInit did not return within %s (a stuck driver: see `dmesg` for Xid errors)", limit)
	}
}

// initFix names the fix for a failed nvmlInit: the answer says more than
// "no driver" for an upgrade without reboot, a permission, a revoked
// container device.
func initFix(env Env, c *Check) {
	var ret nvml.Return
	errors.As(env.InitErr, &ret)
	switch {
	case ret == nvml.ERROR_LIB_RM_VERSION_MISMATCH:
		c.fix(say("fix.reboot_upgrade", "the driver was upgraded but the old kernel module is still loaded: reboot (or stop every GPU program and reload the nvidia modules)"))
	case ret == nvml.ERROR_NO_PERMISSION:
		c.fix(say("fix.init_permission", "this user may not open /dev/nvidia*: check the device files' group and mode; in Apptainer or Singularity start with --nv"))
	case ret == nvml.ERROR_UNKNOWN && containerKind(env) != "":
		c.fix(say("fix.restart_container", "the container lost its GPU access (on a systemd host `systemctl daemon-reload` takes back the device permissions it started with): restart the container"))
	default:
		c.fix(say("fix.install_driver", "install the NVIDIA driver on the host (nvidia-smi must work there); in a container, start it with --gpus all (NVIDIA Container Toolkit); on WSL2 install the Windows driver"))
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
