package doctor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// checkContainer reports whether we run in a container and whether GPUs were
// passed in ([gpu-idle-pipeline] §7.1, [gpu-idle-handbook] §5.2).
func checkContainer(env Env) (Check, bool) {
	kind := containerKind(env)
	if kind == "" {
		return Check{}, false
	}
	c := Check{ID: "container", Name: "container", Status: OK}
	hasNodes := env.exists("/dev/nvidiactl")
	c.seen(say("seen.container", "running in a container ({{.Kind}}); GPU device nodes passed in: {{.Passed}}", "Kind", kind, "Passed", yesNo(hasNodes)))
	if !hasNodes && !env.exists("/dev/dxg") {
		c.Status = Fail
		c.fix(say("fix.gpus_all", "start the container with `--gpus all` (or `--gpus '\"device=1,3\"'`); if Docker answers \"could not select device driver\" or a CDI error, run `sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker` on the host, then check `nvidia-ctk cdi list`"))
	}
	return c, true
}

// containerKind names the container runtime gpuscope runs in, "" for none.
func containerKind(env Env) string {
	switch {
	case env.exists("/.dockerenv"):
		return "docker"
	case env.exists("/run/.containerenv"):
		return "podman"
	}
	cg := env.read("/proc/1/cgroup")
	for _, k := range []string{"kubepods", "docker", "containerd", "crio", "libpod"} {
		if strings.Contains(cg, k) {
			return k
		}
	}
	return ""
}

// checkWSL looks for the pieces WSL2's GPU support needs ([gpu-idle-handbook] §5.3).
func checkWSL(env Env) (Check, bool) {
	v := strings.ToLower(env.read("/proc/version"))
	if !strings.Contains(v, "microsoft") {
		return Check{}, false
	}
	c := Check{ID: "wsl2", Name: "WSL2", Status: OK}
	dxg, lib := env.exists("/dev/dxg"), env.exists("/usr/lib/wsl/lib/libnvidia-ml.so.1")
	c.seen(say("seen.wsl", "WSL kernel; /dev/dxg: {{.Dxg}}; /usr/lib/wsl/lib/libnvidia-ml.so.1: {{.Lib}}", "Dxg", yesNo(dxg), "Lib", yesNo(lib)))
	if !dxg || !lib {
		c.Status = Fail
		c.fix(say("fix.wsl_driver", "install or update the NVIDIA driver on Windows (not inside WSL), run `wsl --update`, and make sure your user can open /dev/dxg"))
	}
	return c, true
}

// checkVisible explains what CUDA_VISIBLE_DEVICES / NVIDIA_VISIBLE_DEVICES
// hide or renumber ([gpu-idle-pipeline] §7.3, [gpu-idle-handbook] §3.3 and §5.1).
func checkVisible(env Env, name string, count int) Check {
	v, set := env.Getenv(name), false
	if v != "" {
		set = true
	}
	c := Check{ID: strings.ToLower(name), Name: name, Status: OK}
	if !set {
		c.seen(say("seen.visible_unset", "not set: programs see every GPU"))
		return c
	}
	lv := strings.ToLower(strings.TrimSpace(v))
	if lv == "-1" || lv == "none" || lv == "void" || lv == "" {
		c.Status = Fail
		c.seen(say("seen.visible_none", "{{.Var}}={{.Value}} hides every GPU", "Var", name, "Value", strconv.Quote(v)))
		c.fix(say("fix.visible_unset", "unset {{.Var}}, or list the GPUs to use, e.g. {{.Var}}=0,1", "Var", name))
		return c
	}
	if lv == "all" {
		c.seen(say("seen.visible_all", "{{.Var}}=all", "Var", name))
		return c
	}
	ids := strings.Split(v, ",")
	var mapping []string
	for i, id := range ids {
		id = strings.TrimSpace(id)
		mapping = append(mapping, fmt.Sprintf("cuda:%d→GPU %s", i, id))
		if n, err := strconv.Atoi(id); err == nil && count > 0 && n >= count {
			c.Status = Warn
			c.fix(say("fix.visible_invalid", "GPU {{.GPU}} does not exist (this node has {{.Count}}); CUDA stops at the first invalid entry",
				"GPU", strconv.Itoa(n), "Count", strconv.Itoa(count)))
		}
	}
	c.seen(say("seen.visible", "{{.Var}}={{.Value}}: programs see {{.Count}} {{plural .Count \"GPU\" \"GPUs\"}}, renumbered from 0: {{.Mapping}}",
		"Var", name, "Value", v, "Count", strconv.Itoa(len(ids)), "Mapping", strings.Join(mapping, ", ")))
	if c.Status == OK {
		c.Status = Warn
		c.fix(say("fix.visible_renumbered", "inside the program, device 0 is the first listed GPU, not physical GPU 0; gpuscope and nvidia-smi show physical indices"))
	}
	return c
}

// checkPersistence: with persistence off the driver tears down between
// clients, so every nvidia-smi / NVML start pays seconds of initialisation.
func checkPersistence(env Env, count int) Check {
	c := Check{ID: "persistence", Name: "persistence mode", Status: OK}
	off := gpusWhere(env, count, func(d nvml.Device) bool {
		m, ret := d.GetPersistenceMode()
		return ret == nvml.SUCCESS && m == nvml.FEATURE_DISABLED
	})
	if len(off) == 0 {
		c.seen(say("seen.persistence_on", "on (or not applicable) for every GPU"))
		return c
	}
	c.Status = Warn
	c.seen(say("seen.persistence_off", "off on GPU {{.GPUs}}", "GPUs", strings.Join(off, ", ")))
	persistenceFix(&c)
	return c
}

// persistenceFix is the fix for persistence mode off and for a slow start.
func persistenceFix(c *Check) {
	c.fix(say("fix.persistence", "enable the persistence daemon (`sudo systemctl enable --now nvidia-persistenced`) or `sudo nvidia-smi -pm 1`, so tools and jobs start fast"))
}

// checkMIG: MIG changes what can be measured and how GPUs are addressed.
func checkMIG(env Env, count int) Check {
	c := Check{ID: "mig", Name: "MIG mode", Status: OK}
	on := gpusWhere(env, count, func(d nvml.Device) bool {
		cur, _, ret := d.GetMigMode()
		return ret == nvml.SUCCESS && cur == nvml.DEVICE_MIG_ENABLE
	})
	if len(on) == 0 {
		c.seen(say("seen.mig_off", "off on every GPU"))
		return c
	}
	c.Status = Warn
	c.seen(say("seen.mig_on", "MIG enabled on GPU {{.GPUs}}", "GPUs", strings.Join(on, ", ")))
	c.fix(say("fix.mig", "device-level and per-process utilisation are not available under MIG; address instances by MIG UUID in CUDA_VISIBLE_DEVICES (`nvidia-smi -L` lists them)"))
	return c
}

// gpusWhere lists the indices of the GPUs for which pred holds.
func gpusWhere(env Env, count int, pred func(nvml.Device) bool) []string {
	var out []string
	for i := 0; i < count; i++ {
		if d, ret := env.NVML.DeviceGetHandleByIndex(i); ret == nvml.SUCCESS && pred(d) {
			out = append(out, strconv.Itoa(i))
		}
	}
	return out
}
