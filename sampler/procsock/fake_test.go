package procsock

import (
	"errors"
	"slices"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// fakeFS is a node's /proc as the server's PID namespace sees it.
type fakeFS struct {
	cgroup map[int]string
	nspid  map[int][]int
	ns     map[int][]NS // own namespace first, then each parent
}

var errGone = errors.New("no such process")

func (f fakeFS) Cgroup(pid int) (string, error) {
	if c, ok := f.cgroup[pid]; ok {
		return c, nil
	}
	return "", errGone
}

func (f fakeFS) NSpid(pid int) ([]int, error) {
	if p, ok := f.nspid[pid]; ok {
		return p, nil
	}
	return nil, errGone
}

func (f fakeFS) PIDNamespace(pid, up int) (NS, error) {
	if up < len(f.ns[pid]) {
		return f.ns[pid][up], nil
	}
	return NS{}, errGone
}

func v1(path string) string { return "5:devices:" + path + "\n4:memory:" + path + "\n0::/\n" }

var (
	hostNS   = NS{1, 100}
	boxNS    = NS{1, 200} // the peer's container
	nestedNS = NS{1, 300} // a namespace inside it
	otherNS  = NS{1, 400} // a sibling in the same cgroup
)

// node: the peer (host PID 500) in container /docker/box, PID 1 there.
func node() fakeFS {
	return fakeFS{
		cgroup: map[int]string{
			500: v1("/docker/box"), 501: v1("/docker/box"), 502: v1("/docker/box/inner"),
			503: v1("/docker/boxer"), 504: v1("/docker/other"), 505: v1("/docker/box"), 506: v1("/"),
		},
		nspid: map[int][]int{500: {500, 1}, 501: {501, 7}, 502: {502, 9, 1}, 503: {503, 1}, 504: {504, 1}, 505: {505, 3}, 506: {506}},
		ns: map[int][]NS{
			500: {boxNS, hostNS}, 501: {boxNS, hostNS}, 502: {nestedNS, boxNS, hostNS},
			503: {NS{1, 500}, hostNS}, 504: {NS{1, 600}, hostNS}, 505: {otherNS, hostNS}, 506: {hostNS},
		},
	}
}

func procs(pids ...int) []sampler.GPUProc {
	var out []sampler.GPUProc
	for _, p := range pids {
		out = append(out, sampler.GPUProc{PID: p, Type: "C", MemUsed: sampler.Some(float64(p) * 1e6), SMUtil: sampler.Some(40)})
	}
	return out
}

func TestAnswerOnlyThePeersCgroupInItsPIDs(t *testing.T) {
	gpus := []sampler.GPU{
		{UUID: "GPU-a", Procs: procs(501, 503, 504, 506, 999)},
		{UUID: "GPU-b", MIG: true, MIGDevices: []sampler.MIGDevice{{UUID: "MIG-b1", Procs: procs(502, 505)}}},
	}
	r := Answer(node(), 500, gpus)
	if r.Error != "" || r.Version != Version {
		t.Fatalf("answer %+v", r)
	}
	want := []Proc{
		{Device: "GPU-a", PID: 7, Type: "C", MemUsed: sampler.Some(501e6), SMUtil: sampler.Some(40)},
		{Device: "MIG-b1", PID: 9, Type: "C", MemUsed: sampler.Some(502e6), SMUtil: sampler.Some(40)},
	}
	if !slices.Equal(r.Procs, want) {
		t.Errorf("procs %+v, want %+v (the prefix /docker/boxer, other containers, the host and a sibling namespace left out)", r.Procs, want)
	}
	if r.Hidden != 1 {
		t.Errorf("hidden %d, want 1 (505: the peer's cgroup, another PID namespace)", r.Hidden)
	}
}

func TestAnswerRefusesWhatItCannotScope(t *testing.T) {
	fs := node()
	fs.cgroup[600] = "0::/\n" // a peer at the root: the host itself
	fs.cgroup[601] = "3:cpu:/docker/x\n0::/\n"
	fs.nspid[600], fs.ns[600] = []int{600}, []NS{hostNS}
	for _, peer := range []int{600, 601, 777} {
		if r := Answer(fs, peer, []sampler.GPU{{UUID: "GPU-a", Procs: procs(501)}}); r.Error == "" || len(r.Procs) > 0 {
			t.Errorf("peer %d: %+v, want a refusal and no process", peer, r)
		}
	}
}

func TestParseCgroup(t *testing.T) {
	for _, c := range []struct {
		text string
		want cgroupKey
		ok   bool
	}{
		{"0::/system.slice/docker-ab.scope\n", cgroupKey{path: "/system.slice/docker-ab.scope"}, true},
		{"1:name=systemd:/x\n0::/kubepods/pod1/c1\n", cgroupKey{path: "/kubepods/pod1/c1"}, true},
		{v1("/docker/box"), cgroupKey{v1: true, path: "/docker/box"}, true},
		{"9:name=systemd:/\n8:pids:/\n4:cpuset,memory:/a\n0::/\n", cgroupKey{v1: true, path: "/a"}, true},
		{"8:pids:/a\n0::/\n", cgroupKey{}, false}, // hybrid without memory: "0::/" says nothing
		{"", cgroupKey{}, false},
		{"garbage", cgroupKey{}, false},
	} {
		got, err := parseCgroup(c.text)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseCgroup(%q) = %+v, %v; want %+v ok=%v", c.text, got, err, c.want, c.ok)
		}
	}
	if (cgroupKey{path: "/a/b"}).under(cgroupKey{v1: true, path: "/a"}) {
		t.Error("a v2 path is under a v1 one")
	}
}

func TestParseNSpid(t *testing.T) {
	got, err := parseNSpid([]byte("Name:\tsleep\nPid:\t42\nNSpid:\t42\t7\t1\nPPid:\t1\n"))
	if err != nil || !slices.Equal(got, []int{42, 7, 1}) {
		t.Errorf("got %v %v", got, err)
	}
	for _, bad := range []string{"Pid:\t1\n", "NSpid:\t\n", "NSpid:\tx\n", "NSpid:\t0\n"} {
		if _, err := parseNSpid([]byte(bad)); err == nil {
			t.Errorf("parseNSpid(%q): no error", bad)
		}
	}
}
