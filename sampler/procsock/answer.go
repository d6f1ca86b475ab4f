package procsock

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// Answer is what the peer (a PID in the server's PID namespace, from
// SO_PEERCRED) may see of gpus: the processes whose cgroup is the peer's or
// below it, numbered in the peer's PID namespace. A process of its cgroup
// that its namespace does not number (a sibling namespace) is only counted
// in Hidden; everything else on the node is left out, unnamed.
func Answer(fs ProcFS, peer int, gpus []sampler.GPU) Response {
	r := Response{Version: Version}
	v, err := newViewer(fs, peer)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	for _, g := range gpus {
		v.add(&r, g.UUID, g.Procs)
		for _, m := range g.MIGDevices {
			v.add(&r, m.UUID, m.Procs)
		}
	}
	return r
}

// viewer is one peer's view: its cgroup, its PID namespace and how deep
// that namespace is below the server's.
type viewer struct {
	fs     ProcFS
	cgroup cgroupKey
	depth  int
	ns     NS
	seen   map[int]int // host PID → the peer's PID, or 0: not the peer's
}

func newViewer(fs ProcFS, peer int) (*viewer, error) {
	text, err := fs.Cgroup(peer)
	if err != nil {
		return nil, fmt.Errorf("reading your cgroup: %w", err)
	}
	cg, err := parseCgroup(text)
	if err != nil {
		return nil, err
	}
	if cg.path == "/" {
		return nil, errors.New("you are in the root cgroup: no container to answer for (run gpuscope on the host itself)")
	}
	nspid, err := fs.NSpid(peer)
	if err != nil {
		return nil, fmt.Errorf("reading your PID namespace: %w", err)
	}
	ns, err := fs.PIDNamespace(peer, 0)
	if err != nil {
		return nil, fmt.Errorf("reading your PID namespace: %w", err)
	}
	return &viewer{fs: fs, cgroup: cg, depth: len(nspid) - 1, ns: ns, seen: map[int]int{}}, nil
}

func (v *viewer) add(r *Response, device string, procs []sampler.GPUProc) {
	for _, p := range procs {
		pid, known := v.seen[p.PID]
		if !known {
			var hidden bool
			pid, hidden = v.pidOf(p.PID)
			v.seen[p.PID] = pid
			if hidden {
				r.Hidden++
			}
		}
		if pid == 0 {
			continue
		}
		r.Procs = append(r.Procs, Proc{Device: device, PID: pid, Type: p.Type, MemUsed: p.MemUsed, SMUtil: p.SMUtil, MemUtil: p.MemUtil})
	}
}

// pidOf is host's PID in the peer's namespace, or 0; hidden is set for a
// process of the peer's cgroup that its namespace does not number.
func (v *viewer) pidOf(host int) (pid int, hidden bool) {
	text, err := v.fs.Cgroup(host)
	if err != nil {
		return 0, false // exited, or not ours to read
	}
	cg, err := parseCgroup(text)
	if err != nil || !cg.under(v.cgroup) {
		return 0, false
	}
	nspid, err := v.fs.NSpid(host)
	if err != nil || len(nspid) <= v.depth {
		return 0, err == nil
	}
	// nspid[depth] is a PID in the peer's namespace only if the process's
	// namespace is the peer's or below it: the ancestor at that depth must
	// be the peer's own.
	ns, err := v.fs.PIDNamespace(host, len(nspid)-1-v.depth)
	if err != nil || ns != v.ns {
		return 0, true
	}
	return nspid[v.depth], false
}

// cgroupKey is a process's place in the hierarchy the server compares:
// the memory controller's under cgroup v1 (as docker and the kubelet
// place containers), the unified one on a cgroup v2 host.
type cgroupKey struct {
	v1   bool
	path string
}

// parseCgroup reads /proc/PID/cgroup ("id:controllers:path" lines). A
// hybrid host's unified line ("0::/") says nothing of containers, so the
// memory line wins wherever there is one.
func parseCgroup(text string) (cgroupKey, error) {
	var unified string
	var haveUnified, v1 bool
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		id, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		controllers, path, ok := strings.Cut(rest, ":")
		if !ok || !strings.HasPrefix(path, "/") {
			continue
		}
		switch {
		case id == "0" && controllers == "":
			unified, haveUnified = path, true
		case slices.Contains(strings.Split(controllers, ","), "memory"):
			return cgroupKey{v1: true, path: path}, nil
		case !strings.HasPrefix(controllers, "name="):
			v1 = true
		}
	}
	if haveUnified && !v1 {
		return cgroupKey{path: unified}, nil
	}
	return cgroupKey{}, errors.New("no cgroup v2 and no v1 memory hierarchy in /proc/PID/cgroup: cannot tell containers apart")
}

// under reports k at or below parent, in the same hierarchy.
func (k cgroupKey) under(parent cgroupKey) bool {
	if k.v1 != parent.v1 {
		return false
	}
	return k.path == parent.path || strings.HasPrefix(k.path, strings.TrimSuffix(parent.path, "/")+"/")
}
