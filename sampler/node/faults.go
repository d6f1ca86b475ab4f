package node

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/sampler/fakenvml"
)

// Fault is a failure the demo can show (--demo-fault), so a user can see
// what a lost GPU, a failing NVML call or a hostile process looks like
// before meeting one on a real node. NVML faults go through the fake driver,
// so the production reader handles them as it would on hardware.
type Fault struct {
	ID, Summary string
}

// The lost GPU's schedule in simulated time from the demo's start: lost
// after the two-minute pre-roll has begun, back from a reset half a minute
// into the live view, read again on the next slow tier (10 s).
const (
	lostGPU   = 3
	lostFrom  = 60 * time.Second
	lostUntil = 150 * time.Second
)

// The revoked GPU answers UNKNOWN to every call from revokedFrom on, as a
// container's GPU does after the host's systemd reloaded its units
// (docs/driver-compatibility.md, "revoked").
const (
	revokedGPU  = 5
	revokedFrom = 90 * time.Second
)

// oldDriver is a driver before R535 without GPM, with the functions it
// lacks (docs/driver-compatibility.md, the "missing symbol" rows).
func oldDriver(cfg fakenvml.Config) fakenvml.Config {
	cfg.Driver, cfg.NVML, cfg.CUDA = oldDriverVersion, "11."+oldDriverVersion, "11.7"
	cfg.Missing = []string{"nvmlDeviceGetCurrentClocksEventReasons", "nvmlGpmQueryDeviceSupport", "nvmlGpmSampleAlloc",
		"nvmlGpmSampleGet", "nvmlGpmMetricsGet", "nvmlGpmMigSampleGet", "nvmlDeviceGetNumaNodeId"}
	return cfg
}

const oldDriverVersion = "515.105.01"

// hostileCmdline retitles (OSC 0) and clears (CSI 2J) a terminal that
// prints it raw; gpuscope shows it escaped (sampler/safe).
const hostileCmdline = "python train.py --tag \x1b]0;PWNED\a\x1b[2J"

// Faults lists the --demo-fault values.
func Faults() []Fault {
	return []Fault{
		{"lost", fmt.Sprintf("GPU %d falls off the bus (GPU_IS_LOST) %s into the run and answers again after a reset at %s", lostGPU, lostFrom, lostUntil)},
		{"timeout", "GPU 2's power reading times out (ERROR_TIMEOUT): n/a, with one problem line"},
		{"noperm", "GPU 1's process list is refused (NO_PERMISSION), as in a container without the host's PID namespace"},
		{"hostile", "a process's command line holds terminal escape sequences (retitle, clear screen): shown escaped"},
		{"old-driver", "driver " + oldDriverVersion + " lacks the R535 clock-event call and GPM: clock events come through the older call, GPM is n/a, one line names what is missing"},
		{"no-events", "the driver offers no Xid event set (NOT_SUPPORTED, as on old GPUs): one line says Xids are not watched live"},
		{"revoked", fmt.Sprintf("GPU %d answers UNKNOWN to every call from %s, as a container's GPU after the host's `systemctl daemon-reload`: one line with the fix", revokedGPU, revokedFrom)},
		{"foreign-pids", "NVML's PIDs are the host's (gpuscope in a container without --pid=host): processes without command or user, and a line saying why"},
	}
}

// Inject turns on the named faults ("all" for every one). Call it before
// Sampler, which wires the hostile process in.
func (s *Demo) Inject(ids []string) error {
	for _, id := range ids {
		if id == "all" { // but foreign-pids, which would hide the hostile process
			for _, f := range Faults() {
				s.faults[f.ID] = f.ID != "foreign-pids"
			}
			continue
		}
		if !slices.ContainsFunc(Faults(), func(f Fault) bool { return f.ID == id }) {
			var names []string
			for _, f := range Faults() {
				names = append(names, f.ID)
			}
			return fmt.Errorf("unknown demo fault %q: use %s or all (every one but foreign-pids)", id, strings.Join(names, ", "))
		}
		s.faults[id] = true
	}
	if s.faults["old-driver"] || s.faults["no-events"] { // met while the reader starts
		if s.faults["old-driver"] {
			s.cfg = oldDriver(s.cfg)
		}
		if err := s.open(func(f *fakenvml.Fake) {
			if s.faults["no-events"] {
				f.SetFault(fakenvml.LibraryGPU, "EventSetCreate", nvml.ERROR_NOT_SUPPORTED)
			}
		}); err != nil {
			return err
		}
	}
	if s.faults["timeout"] {
		s.fake.SetFault(2, "GetPowerUsage", nvml.ERROR_TIMEOUT)
	}
	if s.faults["noperm"] {
		s.fake.SetFault(1, "GetComputeRunningProcesses", nvml.ERROR_NO_PERMISSION)
	}
	return nil
}

// applySchedule sets the time-driven faults for simulated time now.
func (s *Demo) applySchedule(now time.Time) {
	t := now.Sub(s.start)
	if s.faults["lost"] {
		if t >= lostFrom && t < lostUntil {
			s.fake.SetFault(lostGPU, "*", nvml.ERROR_GPU_IS_LOST)
		} else {
			s.fake.ClearFault(lostGPU, "*")
		}
	}
	if s.faults["revoked"] && t >= revokedFrom {
		s.fake.SetFault(revokedGPU, "*", nvml.ERROR_UNKNOWN)
	}
}

// foreignHost finds none of NVML's PIDs, as a container with its own PID
// namespace does: the driver reports the host's PIDs.
type foreignHost struct{ sampler.HostSource }

func (h foreignHost) Sample(now time.Time, pids []int) (*sampler.Host, error) {
	host, err := h.HostSource.Sample(now, nil)
	if host == nil || len(pids) == 0 {
		return host, err
	}
	out := *host
	out.Procs, out.ForeignPIDs = nil, true
	return &out, err
}

// hostileHost gives the GPU process with the lowest PID a hostile command line; the
// simulator's host is shared, so the one process is copied, not written.
type hostileHost struct{ sampler.HostSource }

func (h hostileHost) Sample(now time.Time, pids []int) (*sampler.Host, error) {
	host, err := h.HostSource.Sample(now, pids)
	if host == nil || len(pids) == 0 {
		return host, err
	}
	pid := slices.Min(pids)
	p, ok := host.Procs[pid]
	if !ok {
		return host, err
	}
	out := *host
	out.Procs = maps.Clone(host.Procs)
	q := *p
	q.Cmdline = hostileCmdline
	out.Procs[pid] = &q
	return &out, err
}
