package oneshot

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/gpuscope/gpuscope/sampler"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

func TestWrite(t *testing.T) {
	snap := sampler.Snapshot{
		Time: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC),
		Node: sampler.Node{Hostname: "gpu-node-17", Driver: "550.54.15", CUDA: "12.4", Source: "nvml"},
		GPUs: []sampler.GPU{
			{Index: 0, Name: "NVIDIA H200", Util: sampler.Some(97), SMActive: sampler.Some(81), MemUsed: sampler.Some(80 << 30),
				MemTotal: sampler.Some(140 << 30), Power: sampler.Some(612), PowerLimit: sampler.Some(700),
				ClockEvents: sampler.ClockEvents{Mask: sampler.ClockSwPowerCap, OK: true},
				Procs: []sampler.GPUProc{{PID: 4121, Type: "C", MemUsed: sampler.Some(79 << 30),
					Host: &sampler.Proc{User: "alice", Cmdline: "python train.py", Children: []int{1, 2}}}}},
			{Index: 1, Name: "NVIDIA H200", Lost: true},
		},
	}
	var b strings.Builder
	if err := Write(&b, snap); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"gpu-node-17  driver 550.54.15  CUDA 12.4  2 GPUs",
		"[0] H200           util  97%  sm  81%  tensor  n/a  mem 80.0GiB/140.0GiB",
		"THROTTLE sw_power_cap",
		"pid 4121    alice    C   mem 79.0GiB  util n/a  python train.py (+2 children)",
		"[1] H200           LOST",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestWriteNoDriver(t *testing.T) {
	snap := sampler.Snapshot{Node: sampler.Node{Hostname: "vm", Source: "nvml",
		GPUError: &sampler.SourceError{Tried: "libnvidia-ml.so.1", Err: "ERROR_LIBRARY_NOT_FOUND", Causes: []string{"no driver"}}}}
	var b strings.Builder
	_ = Write(&b, snap)
	if out := b.String(); !strings.Contains(out, "no GPU: libnvidia-ml.so.1: ERROR_LIBRARY_NOT_FOUND") || !strings.Contains(out, "gpuscope --demo") {
		t.Errorf("no-driver output:\n%s", out)
	}
}

func TestWriteMIG(t *testing.T) {
	snap := sampler.Snapshot{Node: sampler.Node{Source: "nvml"}, GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200", MIG: true,
		MIGDevices: []sampler.MIGDevice{{Index: 0, Profile: "3g.71gb", GPUInstance: 1, ComputeInstance: 0,
			MemUsed: sampler.Some(10 << 30), MemTotal: sampler.Some(70 << 30), SMActive: sampler.Some(42),
			Procs: []sampler.GPUProc{{PID: 7}}}}}}}
	var b strings.Builder
	_ = Write(&b, snap)
	for _, want := range []string{"MIG on: GPU-Util and per-process util are not available; 1 instance",
		"mig 0 3g.71gb   gi 1 ci 0  mem 10.0GiB/70.0GiB  sm 42%  tensor n/a  1 process"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
}

func TestWriteHealthFlags(t *testing.T) {
	g := sampler.GPU{Index: 0, Name: "NVIDIA H200", Util: sampler.Some(97),
		PCIeGen: sampler.Some(3), PCIeGenMax: sampler.Some(5), PCIeWidth: sampler.Some(16), PCIeWidthMax: sampler.Some(16),
		ECCUncorrected: sampler.Some(2), RemapPending: true, Xids: []sampler.Xid{{Code: 48}}}
	var b strings.Builder
	_ = Write(&b, sampler.Snapshot{GPUs: []sampler.GPU{g}})
	for _, want := range []string{"LINK Gen3 x16 of Gen5 x16", "ECC 2 uncorrected", "REMAP PENDING", "Xid 48"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
	g.Util = sampler.Some(0) // idle links downtrain on purpose
	b.Reset()
	_ = Write(&b, sampler.Snapshot{GPUs: []sampler.GPU{g}})
	if strings.Contains(b.String(), "LINK") {
		t.Errorf("an idle downtrained link flagged:\n%s", b.String())
	}
}

// TestWriteEscapesHostileStrings: a command line, user or host name with
// escape sequences is printed escaped (^[ for ESC), never sent raw.
func TestWriteEscapesHostileStrings(t *testing.T) {
	snap := sampler.Snapshot{
		Node: sampler.Node{Hostname: "node\x1b[2J"},
		GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200\a", Procs: []sampler.GPUProc{{PID: 1, Type: "C",
			Host: &sampler.Proc{User: "mal\x1b]0;x\a", Cmdline: "python \x1b]0;PWNED\a train.py \x1b[2J"}}}}},
		Problems: []string{"log: \x1b[31mred"},
	}
	var b strings.Builder
	if err := Write(&b, snap); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\a") {
		t.Errorf("control characters reach the terminal:\n%q", out)
	}
	if !strings.Contains(out, "python ^[]0;PWNED^G train.py ^[[2J") || !strings.Contains(out, "node^[[2J") {
		t.Errorf("hostile strings not shown escaped:\n%s", out)
	}
}

// Bugs found in use: plurals agree with their numbers, and a user name
// longer than its column is cut so the columns after it stay in place.
func TestWritePluralsAndLongUser(t *testing.T) {
	snap := sampler.Snapshot{
		GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200", MIG: true,
			MIGDevices: []sampler.MIGDevice{{Index: 0, Profile: "1g.18gb", Procs: []sampler.GPUProc{{PID: 1}}}},
			Procs: []sampler.GPUProc{
				{PID: 4121, Type: "C", Host: &sampler.Proc{User: "alice", Cmdline: "python a.py", Children: []int{1}}},
				{PID: 4122, Type: "C", Host: &sampler.Proc{User: "averyveryverylongusername", Cmdline: "python b.py"}},
			}}},
	}
	var b strings.Builder
	if err := Write(&b, snap); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"1 instance\n", "1 process\n", "python a.py (+1 child)"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	var cols []int
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "pid 412") {
			cols = append(cols, utf8.RuneCountInString(l[:strings.Index(l, " C   mem")]))
		}
	}
	if len(cols) != 2 || cols[0] != cols[1] {
		t.Errorf("the type column moves with the user name (%v):\n%s", cols, out)
	}
}

// A process in a pod says which, one in another container its short id,
// as the dashboard's process pane does.
func TestWriteContainers(t *testing.T) {
	snap := sampler.Snapshot{
		GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200", Procs: []sampler.GPUProc{
			{PID: 1, Type: "C", Host: &sampler.Proc{User: "svc", Cmdline: "vllm serve", Container: "3f9a1c2b7d4e",
				Pod: sampler.Pod{Namespace: "inference", Name: "vllm-0", Container: "vllm"}}},
			{PID: 2, Type: "C", Host: &sampler.Proc{User: "carol", Cmdline: "jupyter-lab", Container: "9c1e5a7b3d2f"}},
			{PID: 3, Type: "C", Host: &sampler.Proc{User: "bob", Cmdline: "python train.py"}},
		}}},
	}
	var b strings.Builder
	if err := Write(&b, snap); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"[inference/vllm-0/vllm] vllm serve", "[9c1e5a7b3d2f] jupyter-lab", "util n/a  python train.py"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

// --once in Chinese: the words change, the figures, units, PIDs and
// commands do not; English is what Write always printed.
func TestWriteChinese(t *testing.T) {
	snap := sampler.Snapshot{
		Node: sampler.Node{Hostname: "gpu-node-17", Driver: "550.54.15", CUDA: "12.4", Source: "nvml"},
		GPUs: []sampler.GPU{
			{Index: 0, Name: "NVIDIA H200", Util: sampler.Some(97), SMActive: sampler.Some(81), MemUsed: sampler.Some(80 << 30),
				MemTotal: sampler.Some(140 << 30), ClockEvents: sampler.ClockEvents{Mask: sampler.ClockSwPowerCap, OK: true},
				ECCUncorrected: sampler.Some(2), RemapPending: true,
				Procs: []sampler.GPUProc{{PID: 4121, Type: "C", MemUsed: sampler.Some(79 << 30),
					Host: &sampler.Proc{User: "alice", Cmdline: "python train.py", Children: []int{1, 2}}}}},
			{Index: 1, Name: "NVIDIA H200", Lost: true},
		},
		Host:     &sampler.Host{CPU: sampler.Some(24), IOWait: sampler.Some(1), Load1: sampler.Some(3), MemUsed: sampler.Some(1 << 30), MemTotal: sampler.Some(2 << 30)},
		Problems: []string{"nvml: slow"},
	}
	var zh, en, en2 strings.Builder
	if err := WriteLang(&zh, snap, i18n.For("zh_CN.UTF-8")); err != nil {
		t.Fatal(err)
	}
	out := zh.String()
	for _, want := range []string{
		"gpu-node-17  驱动 550.54.15  CUDA 12.4  2 张 GPU",
		"[0] H200           利用率  97%  SM  81%  Tensor  n/a  显存 80.0GiB/140.0GiB",
		"PCIe 收 n/a 发 n/a  降频 sw_power_cap  ECC 2 个不可纠正错误  行重映射待生效",
		"PID 4121    alice    C   显存 79.0GiB  利用率 n/a  python train.py （+2 个子进程）",
		"[1] H200           丢失",
		"主机  CPU 24%  IO 等待 1%  负载 3.0  内存 1.0GiB/2.0GiB",
		"问题：nvml: slow",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	for _, english := range []string{"driver", "util", "THROTTLE", "children", "LOST", "host", "iowait"} {
		if strings.Contains(out, english) {
			t.Errorf("English %q left in the Chinese --once:\n%s", english, out)
		}
	}
	_ = Write(&en, snap)
	_ = WriteLang(&en2, snap, i18n.For("en"))
	if en.String() != en2.String() || !strings.Contains(en.String(), "util  97%") {
		t.Errorf("English --once changed:\n%s", en.String())
	}
}

// TestWriteWholeCommandLines: --once is pasted, not fitted to a terminal:
// a long command line and a long user name print whole, and a CJK user
// name keeps the columns aligned in cells.
func TestWriteWholeCommandLines(t *testing.T) {
	cmd := "/opt/conda/bin/python -m ipykernel_launcher -f /home/carol/.local/share/jupyter/runtime/kernel-36247189-0b7c-4a5e-9d4f-3c2b1a0f9e8d.json"
	snap := sampler.Snapshot{GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200", Procs: []sampler.GPUProc{
		{PID: 4121, Type: "C", Host: &sampler.Proc{User: "svc-inference", Cmdline: cmd}},
		{PID: 4122, Type: "C", Host: &sampler.Proc{User: "张伟", Cmdline: "python b.py"}},
	}}}}
	var b strings.Builder
	if err := Write(&b, snap); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{cmd + "\n", " svc-inference "} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	var cols []int
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, " C   mem"); i > 0 {
			cols = append(cols, ansi.StringWidth(l[:i]))
		}
	}
	if len(cols) != 2 || cols[0] != cols[1] {
		t.Errorf("the type column moves with a CJK user name (cells %v):\n%s", cols, out)
	}
}

// Processes the host's gpuscope named (serve --proc-socket) are said to be
// this container's own, with the socket, in both languages.
func TestWriteSaysWhereProcessesCameFrom(t *testing.T) {
	snap := sampler.Snapshot{Node: sampler.Node{ProcsFrom: "/run/gpuscope/procs.sock"},
		GPUs: []sampler.GPU{{Index: 0, Name: "NVIDIA H200", Procs: []sampler.GPUProc{{PID: 1, Type: "C"}}}}}
	for lang, want := range map[string]string{
		"en": "processes: this container's own, from the host's gpuscope at /run/gpuscope/procs.sock\n",
		"zh": "进程：本容器自己的，来自宿主机 gpuscope 的 /run/gpuscope/procs.sock\n",
	} {
		var b strings.Builder
		if err := WriteLang(&b, snap, i18n.For(lang)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s: no %q in:\n%s", lang, want, b.String())
		}
	}
	var b strings.Builder
	_ = WriteLang(&b, sampler.Snapshot{}, i18n.For("en"))
	if strings.Contains(b.String(), "processes:") {
		t.Errorf("said with NVML's own list:\n%s", b.String())
	}
}
