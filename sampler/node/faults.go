package node

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/gpuscope/gpuscope/sampler"
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
	}
}

// Inject turns on the named faults ("all" for every one). Call it before
// Sampler, which wires the hostile process in.
func (s *Demo) Inject(ids []string) error {
	for _, id := range ids {
		if id == "all" {
			for _, f := range Faults() {
				s.faults[f.ID] = true
			}
			continue
		}
		if !slices.ContainsFunc(Faults(), func(f Fault) bool { return f.ID == id }) {
			var names []string
			for _, f := range Faults() {
				names = append(names, f.ID)
			}
			return fmt.Errorf("unknown demo fault %q: use %s or all", id, strings.Join(names, ", "))
		}
		s.faults[id] = true
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
	if !s.faults["lost"] {
		return
	}
	if t := now.Sub(s.start); t >= lostFrom && t < lostUntil {
		s.fake.SetFault(lostGPU, "*", nvml.ERROR_GPU_IS_LOST)
	} else {
		s.fake.ClearFault(lostGPU, "*")
	}
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
