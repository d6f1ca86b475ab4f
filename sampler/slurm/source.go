package slurm

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// Options configure a Source.
type Options struct {
	// Proc is the proc filesystem's root ("/proc").
	Proc string
	// Hostname is this node as Slurm names it (its short name is matched).
	Hostname string
	// Scontrol runs `scontrol show job -d` within ctx; nil: scontrol is
	// not asked, and only GPUs with a process are attributed.
	Scontrol func(ctx context.Context) ([]byte, error)
	// Every is how often scontrol is asked again (30 s when zero);
	// Timeout bounds one run (5 s when zero).
	Every, Timeout time.Duration
}

// Source is a sampler.JobSource for a Slurm node.
type Source struct {
	o Options

	mu      sync.Mutex
	jobs    []Job     // scontrol's last answer
	asked   time.Time // when scontrol was last started
	running bool
}

// New returns a Source; it starts nothing until asked.
func New(o Options) *Source {
	if o.Every <= 0 {
		o.Every = 30 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Proc == "" {
		o.Proc = "/proc"
	}
	return &Source{o: o}
}

// ScontrolCommand runs the scontrol found on PATH, or is nil when there is
// none (a node without Slurm's client).
func ScontrolCommand() func(ctx context.Context) ([]byte, error) {
	path, err := exec.LookPath("scontrol")
	if err != nil {
		return nil
	}
	return func(ctx context.Context) ([]byte, error) {
		return exec.CommandContext(ctx, path, "show", "job", "-d").Output()
	}
}

// Allocations implements sampler.JobSource: scontrol's GRES indices for
// GPUs with or without a process, then each GPU process's own job (its
// environment where readable, else its cgroup), which wins.
func (s *Source) Allocations(now time.Time, snap *sampler.Snapshot) map[int]sampler.Alloc {
	out := map[int]sampler.Alloc{}
	users := map[string]string{}
	for _, j := range s.known(now) {
		if j.State != "RUNNING" {
			continue
		}
		users[j.ID] = j.User
		for _, i := range j.On(s.o.Hostname) {
			out[i] = sampler.Alloc{Job: j.ID, User: j.User}
		}
	}
	for gi := range snap.GPUs {
		g := &snap.GPUs[gi]
		for _, pid := range g.PIDs() {
			job, user := s.processJob(pid)
			if job == "" {
				continue
			}
			if user == "" {
				user = users[job]
			}
			if user == "" && snap.Host != nil && snap.Host.Procs[pid] != nil {
				user = snap.Host.Procs[pid].User
			}
			out[g.Index] = sampler.Alloc{Job: job, User: user}
			break
		}
	}
	return out
}

// processJob reads the job of pid: its environment (readable by its owner
// and root only), else its cgroup (readable by all).
func (s *Source) processJob(pid int) (job, user string) {
	dir := filepath.Join(s.o.Proc, strconv.Itoa(pid))
	if b, err := readBounded(filepath.Join(dir, "environ")); err == nil {
		if job, user = ParseEnviron(b); job != "" {
			return job, user
		}
	}
	if b, err := readBounded(filepath.Join(dir, "cgroup")); err == nil {
		return ParseCgroup(b), ""
	}
	return "", ""
}

// readBounded reads at most 256 KiB: an environment is smaller (ARG_MAX
// is usually 2 MiB for argv and env together, typical ones a few KiB).
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 256<<10))
}

// known returns scontrol's last answer, and starts a new run in the
// background when the last is older than Every: the tick never waits on
// the controller.
func (s *Source) known(now time.Time) []Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.o.Scontrol != nil && !s.running && (s.asked.IsZero() || now.Sub(s.asked) >= s.o.Every) {
		s.running, s.asked = true, now
		go s.ask()
	}
	return s.jobs
}

func (s *Source) ask() {
	ctx, cancel := context.WithTimeout(context.Background(), s.o.Timeout)
	defer cancel()
	b, err := s.o.Scontrol(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = false
	if err == nil {
		s.jobs = ParseJobs(b)
	}
}
