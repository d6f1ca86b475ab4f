package importer

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler"
)

// readPaste reads in and returns the snapshots and the Evidence view.
func readPaste(t *testing.T, in string) ([]sampler.Snapshot, Evidence) {
	t.Helper()
	s, f, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
	if err != nil {
		t.Fatalf("NewStream: %v", err)
	}
	if f != Pasted {
		t.Fatalf("format %q, want %q", f, Pasted)
	}
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	return snaps, s.(Evidence)
}

// The 418 layout (two rows a GPU, no MIG M.), with a shell prompt and a
// markdown fence around it, CRLF line ends and an nvidia-smi error line
// for a GPU it cannot reach.
const table418 = "```\r\n$ nvidia-smi\r\n" +
	"Unable to determine the device handle for GPU0000:41:00.0: Unknown Error\r\n" +
	"Mon Jan  6 10:00:00 2020\r\n" +
	"+-----------------------------------------------------------------------------+\r\n" +
	"| NVIDIA-SMI 418.87.01    Driver Version: 418.87.01    CUDA Version: 10.1     |\r\n" +
	"|-------------------------------+----------------------+----------------------+\r\n" +
	"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\r\n" +
	"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\r\n" +
	"|===============================+======================+======================|\r\n" +
	"|   0  Tesla V100-SXM2...  On   | 00000000:00:1E.0 Off |                    2 |\r\n" +
	"| N/A   33C    P0    60W / 300W |  15800MiB / 16130MiB |     99%      Default |\r\n" +
	"+-------------------------------+----------------------+----------------------+\r\n" +
	"|   1  Tesla V100-SXM2...  On   | 00000000:00:1F.0 Off |                    0 |\r\n" +
	"| N/A   30C    P0    40W / 300W |   4000MiB / 16130MiB |      0%   E. Process |\r\n" +
	"+-------------------------------+----------------------+----------------------+\r\n" +
	"\r\n" +
	"+-----------------------------------------------------------------------------+\r\n" +
	"| Processes:                                                       GPU Memory |\r\n" +
	"|  GPU       PID   Type   Process name                             Usage      |\r\n" +
	"|=============================================================================|\r\n" +
	"|    0     12345      C   python train.py                            15790MiB |\r\n" +
	"|    1     12346      C   python                                      3990MiB |\r\n" +
	"+-----------------------------------------------------------------------------+\r\n" +
	"```\r\n"

func TestTable418WithErrorLineAndProcesses(t *testing.T) {
	snaps, ev := readPaste(t, table418)
	if len(snaps) != 1 {
		t.Fatalf("%d snapshots, want 1", len(snaps))
	}
	s := snaps[0]
	if s.Node.Driver != "418.87.01" || s.Node.CUDA != "10.1" || s.Time.Year() != 2020 {
		t.Errorf("node %+v at %v", s.Node, s.Time)
	}
	if len(s.GPUs) != 3 {
		t.Fatalf("%d GPUs, want 2 read and 1 lost", len(s.GPUs))
	}
	g0 := s.GPUs[0]
	if g0.Name != "Tesla V100-SXM2" || g0.Util.V != 99 || g0.Power.V != 60 || g0.PowerLimit.V != 300 ||
		g0.MemUsed.V != 15800<<20 || g0.ECCUncorrected.V != 2 || g0.Temp.V != 33 || g0.PState.V != 0 {
		t.Errorf("GPU 0 read as %+v", g0)
	}
	if len(g0.Procs) != 1 || g0.Procs[0].PID != 12345 || g0.Procs[0].Host.Name != "python train.py" || g0.Procs[0].MemUsed.V != 15790<<20 {
		t.Errorf("GPU 0 processes %+v", g0.Procs)
	}
	if s.GPUs[1].ComputeMode != "exclusive_process" {
		t.Errorf("GPU 1 compute mode %q", s.GPUs[1].ComputeMode)
	}
	lost := s.GPUs[2]
	if !lost.Lost || lost.BusID != "0000:41:00.0" || lost.Index != 2 {
		t.Errorf("unreachable GPU read as %+v", lost)
	}
	if w := ev.Where(0, "util"); !strings.Contains(w, "line 12") {
		t.Errorf("GPU 0 util located at %q, want line 12", w)
	}
	if w := ev.Where(2, "lost"); !strings.Contains(w, "line 3") {
		t.Errorf("lost GPU located at %q, want line 3", w)
	}
	secs := strings.Join(ev.Sections(), "\n")
	for _, want := range []string{"nvidia-smi error lines", "nvidia-smi table): read: driver 418.87.01, 2 GPUs", "skipped"} {
		if !strings.Contains(secs, want) {
			t.Errorf("sections do not say %q:\n%s", want, secs)
		}
	}
}

// The 590 layout with MIG: N/A util, the MIG devices block, and MIG
// processes with GI/CI columns.
func TestTableMIG590(t *testing.T) {
	snaps, _ := readPaste(t, readFile(t, "real/smi-table-h100-mig-590.48.01-nvgpuexporter-capture.txt"))
	g := snaps[0].GPUs
	if len(g) != 1 || !g[0].MIG || g[0].Util.OK || len(g[0].MIGDevices) != 4 || len(g[0].Procs) != 3 {
		t.Fatalf("read %+v", g)
	}
	if d := g[0].MIGDevices[0]; d.GPUInstance != 2 || d.MemUsed.V != 11091<<20 || len(d.Procs) != 3 {
		t.Errorf("MIG device 0 %+v", d)
	}
}

func TestTableUnknownErrorAndCut(t *testing.T) {
	in := "+-------------------------------+----------------------+----------------------+\n" +
		"|   0  GeForce RTX 208...  Off  | 00000000:01:00.0 Off |                  N/A |\n" +
		"| 30%   45C    P2   ERR! / 250W |   1000MiB / 11019MiB |     ERR!     Default |\n" +
		"+-------------------------------+----------------------+----------------------+\n" +
		"|   1  GeForce RTX 208...  Off  | 00000000:02:00.0 Off |                  N/A |\n" +
		"| 30%   45C    P2   120W / 250W |   1000MiB / 11019MiB |"
	snaps, _ := readPaste(t, in)
	g := snaps[0].GPUs
	if len(g) != 2 || g[0].Power.OK || g[0].PowerLimit.V != 250 || g[0].Util.OK || g[1].Power.V != 120 {
		t.Fatalf("read %+v", g)
	}
}

func TestProcessesBlockAlone(t *testing.T) {
	in := "+-----------------------------------------------------------------------------+\n" +
		"| Processes:                                                                  |\n" +
		"|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |\n" +
		"|        ID   ID                                                   Usage      |\n" +
		"|=============================================================================|\n" +
		"|    0   N/A  N/A      1234      C   python                           2000MiB |\n" +
		"|    3   N/A  N/A      1235      G   /usr/lib/xorg/Xorg                  4MiB |\n" +
		"+-----------------------------------------------------------------------------+\n"
	snaps, _ := readPaste(t, in)
	g := snaps[0].GPUs
	if len(g) != 2 || g[0].Index != 0 || g[1].Index != 3 || g[1].Procs[0].Type != "G" || g[0].Procs[0].PID != 1234 {
		t.Fatalf("read %+v", g)
	}
}

func TestQueryTextLoopAndSelections(t *testing.T) {
	block := func(ts, util, reasonsHead string) string {
		return "==============NVSMI LOG==============\n\nTimestamp                                 : " + ts + "\n" +
			"Driver Version                            : 535.104.05\nCUDA Version                              : 12.2\n\n" +
			"Attached GPUs                             : 1\nGPU 00000000:41:00.0\n" +
			"    Product Name                          : NVIDIA A100-SXM4-80GB\n" +
			"    [...]\n" +
			"    FB Memory Usage\n        Total                             : 81920 MiB\n        Used                              : 80000 MiB\n" +
			"    Utilization\n        Gpu                               : " + util + " %\n        Memory                            : 3 %\n" +
			"    " + reasonsHead + "\n        Idle                              : Not Active\n" +
			"        SW Power Cap                      : Active\n        HW Slowdown                       : Not Active\n" +
			"            HW Thermal Slowdown           : Not Active\n" +
			"    Clocks Event Reasons Counters\n        SW Power Capping                  : 123456 us\n" +
			"    Remapped Rows\n        Correctable Error                 : 0\n        Uncorrectable Error               : 1\n" +
			"        Pending                           : Yes\n        Remapping Failure Occurred        : No\n" +
			"    GPU Power Readings\n        Power Draw                        : 390.10 W\n        Current Power Limit               : 400.00 W\n" +
			"    MIG Devices\n        MIG Device\n            FB Memory Usage\n                Used              : 5 MiB\n"
	}
	in := block("Tue Jan  2 10:00:00 2024", "20", "Clocks Throttle Reasons") + "\n" +
		block("Tue Jan  2 10:00:05 2024", "90", "Clocks Event Reasons")
	snaps, ev := readPaste(t, in)
	if len(snaps) != 2 || !snaps[1].Time.After(snaps[0].Time) {
		t.Fatalf("%d snapshots, want a series of 2", len(snaps))
	}
	for i, s := range snaps {
		g := s.GPUs[0]
		if g.Name != "NVIDIA A100-SXM4-80GB" || g.MemUsed.V != 80000<<20 || !g.ClockEvents.Has(sampler.ClockSwPowerCap) ||
			g.ClockEvents.Has(sampler.ClockGpuIdle) || !g.RemapPending || g.Power.V != 390.1 || g.PowerLimit.V != 400 {
			t.Errorf("snapshot %d GPU read as %+v", i, g)
		}
	}
	if snaps[0].GPUs[0].Util.V != 20 || snaps[1].GPUs[0].Util.V != 90 {
		t.Errorf("util %v, %v", snaps[0].GPUs[0].Util, snaps[1].GPUs[0].Util)
	}
	if w := ev.Where(0, "remap_pending"); w == "" {
		t.Error("remap_pending not located")
	}
}

func TestTopoTabsANSIAndNICs(t *testing.T) {
	in := "\t\x1b[4mGPU0\tGPU1\tGPU2\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\n" +
		"GPU0\t X \tNV12\tSYS\tPIX\t0-31\t0\t\tN/A\n" +
		"GPU1\tNV12\t X \tSYS\tPXB\t0-31\t0\t\tN/A\n" +
		"GPU2\tSYS\tSYS\t X \tSYS\t32-63\t1\t\tN/A\n" +
		"NIC0\tPIX\tPXB\tSYS\t X \n\nLegend:\n\n  X    = Self\n  SYS  = Connection traversing PCIe\n\nNIC Legend:\n\n  NIC0: mlx5_0\n"
	snaps, _ := readPaste(t, in)
	s := snaps[0]
	if s.Topology == nil || len(s.Topology.Links) != 3 || s.Topology.Links[0][1] != "NV12" || s.Topology.Links[2][0] != "SYS" {
		t.Fatalf("topology %+v", s.Topology)
	}
	if s.GPUs[2].CPUAffinity != "32-63" || s.GPUs[2].NUMANode.V != 1 {
		t.Errorf("GPU 2 affinity %q numa %v", s.GPUs[2].CPUAffinity, s.GPUs[2].NUMANode)
	}
}

func TestKernelXidLines(t *testing.T) {
	in := "[ 100.1] NVRM: Xid (PCI:0000:41:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n" +
		"Mar 05 10:00:00 node kernel: NVRM: Xid (PCI:0000:07:00): 31, pid=1234, name=python, Ch 00000010\n" +
		"[ 101.0] NVRM: Xid (0000:07:00): 13, Graphics Exception\n" +
		"[ 102.0] nvidia-nvswitch0: SXid (PCI:0000:05:00.0): 20034, Fatal, Link 44 LTSSM Fault Up\n"
	snaps, _ := readPaste(t, in)
	g := snaps[0].GPUs
	if len(g) != 2 || g[0].BusID != "0000:07:00" || len(g[0].Xids) != 2 || g[0].Lost || !g[1].Lost || g[1].Xids[0].Code != 79 {
		t.Fatalf("read %+v", g)
	}
}

// A poster who masks the PCI address ("Xid (PCI:...)") still shows an Xid:
// it is read on one GPU whose address is unknown, not skipped.
func TestKernelXidMaskedAddress(t *testing.T) {
	in := "kernel: NVRM: Xid (PCI:...): 145, RLW_RXPIPE Nonfatal XC0 i0 Link 11 (...)\n" +
		"kernel: NVRM: Xid (PCI:...): 137, RLW_RXPIPE interrupt hit on link 11 on GPU0: PRIV Error\n" +
		"[ 5.0] NVRM: Xid (PCI:xxxx:xx:xx): 79, pid=1, GPU has fallen off the bus.\n"
	snaps, ev := readPaste(t, in)
	g := snaps[0].GPUs
	if len(g) != 1 || g[0].BusID != "" || len(g[0].Xids) != 3 || g[0].Xids[0].Code != 145 || g[0].Xids[2].Code != 79 || !g[0].Lost {
		t.Fatalf("read %+v", g)
	}
	if !strings.Contains(strings.Join(ev.Sections(), "\n"), "PCI address masked") {
		t.Errorf("sections do not say the address was masked: %v", ev.Sections())
	}
}

// Several outputs in one paste (a table, topo -m, then dmon) merge into one
// picture: the dmon series is the timeline, the table and topology fill in
// names, limits and links.
func TestSeveralOutputsMerge(t *testing.T) {
	topo := "        GPU0    GPU1    CPU Affinity    NUMA Affinity\nGPU0     X      PHB     0-11    0\nGPU1    PHB      X      0-11    0\n"
	dmon := "# gpu   pwr gtemp    sm   mem\n# Idx     W     C     %     %\n    0    60    33    99    40\n    1    40    30     0     0\n" +
		"    0    61    33    98    40\n    1    40    30     0     0\n    0    60    33    97    40\n    1    40    30     0     0\n"
	in := table418 + "\nuser@host:~$ nvidia-smi topo -m\n" + topo + "\nSome prose between outputs.\n$ nvidia-smi dmon\n" + dmon
	snaps, ev := readPaste(t, in)
	if len(snaps) != 3 {
		t.Fatalf("%d snapshots, want dmon's 3", len(snaps))
	}
	last := snaps[2]
	if last.Topology == nil || last.GPUs[0].Name != "Tesla V100-SXM2" || last.GPUs[0].PowerLimit.V != 300 || last.GPUs[0].Util.V != 97 {
		t.Errorf("merged GPU 0 %+v topo %v", last.GPUs[0], last.Topology)
	}
	if len(last.GPUs[0].Procs) != 1 {
		t.Errorf("processes from the table not merged: %+v", last.GPUs[0].Procs)
	}
	if !last.GPUs[2].Lost || snaps[0].GPUs[2].Lost {
		t.Error("the lost GPU should be an event on the last snapshot only")
	}
	if n := len(ev.Sections()); n < 6 {
		t.Errorf("%d section lines, want one per section:\n%s", n, strings.Join(ev.Sections(), "\n"))
	}
}

func TestOpenAllReadsFilesAsOneNode(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "table.txt"), filepath.Join(dir, "dmesg.txt")
	os.WriteFile(a, []byte(table418), 0o644)
	os.WriteFile(b, []byte("[ 1.0] NVRM: Xid (PCI:0000:00:1f): 48, pid=1, name=x, DBE\n"), 0o644)
	s, err := OpenAll([]string{a, b}, Options{Start: fixedStart})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.GPUs) != 3 || len(snap.GPUs[1].Xids) != 1 || snap.GPUs[1].Xids[0].Code != 48 {
		t.Fatalf("GPU 1 (bus 1F) should carry the Xid 48 of the second file: %+v", snap.GPUs)
	}
	if w := s.(Evidence).Where(1, "xids"); !strings.Contains(w, "dmesg.txt") {
		t.Errorf("Xid located at %q, want the second file", w)
	}
}

func TestNoneOfTheFormatsNamesWhatWasSeen(t *testing.T) {
	_, _, err := NewStream(strings.NewReader("hello\nthis is prose\n"), "notes.txt", Options{Start: fixedStart})
	if err == nil || !strings.Contains(err.Error(), "not a log gpuscope can read") || !strings.Contains(err.Error(), "other text") ||
		strings.Count(err.Error(), "\n") > 0 {
		t.Fatalf("err %v; want one line naming what was recognised", err)
	}
}

func TestCSVWithoutIdentityByPosition(t *testing.T) {
	in := "timestamp, name, utilization.gpu [%], memory.used [MiB]\n" +
		"2024/01/02 10:00:00.000, A, 10 %, 100 MiB\n2024/01/02 10:00:00.000, B, 90 %, 200 MiB\n" +
		"2024/01/02 10:00:01.000, A, 11 %, 100 MiB\n2024/01/02 10:00:01.000, B, 91 %, 200 MiB\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != 2 || len(snaps[1].GPUs) != 2 || snaps[1].GPUs[1].Util.V != 91 || snaps[1].GPUs[1].Index != 1 {
		t.Fatalf("read %+v", snaps)
	}
}

func TestCSVEveryLineCommented(t *testing.T) {
	in := "# index, utilization.gpu [%], memory.used [MiB], memory.total [MiB]\n# 0, 50 %, 100 MiB, 1000 MiB\n# 1, 0 %, 10 MiB, 1000 MiB\n"
	snaps, _ := readPaste(t, in)
	if len(snaps) != 1 || len(snaps[0].GPUs) != 2 || snaps[0].GPUs[0].Util.V != 50 {
		t.Fatalf("read %+v", snaps)
	}
}

func readFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An nvidia-bug-report.log.gz as nvidia-bug-report.sh writes it: sections
// separated by underscores, the kernel messages from several logs (the
// same Xid twice), dmesg, then nvidia-smi --query.
func TestBugReportGzip(t *testing.T) {
	sep := "____________________________________________\n\n"
	xid := "NVRM: Xid (PCI:0000:41:00): 48, pid=1234, name=python, An uncorrectable double bit error (DBE) has been detected\n"
	q := readFile(t, "real/smi-q-h100-590.48.01-nvgpuexporter-capture.txt")
	bus := tblBusRE.FindString(q)
	q = strings.Replace(q, bus, "00000000:41:00.0", -1)
	var b strings.Builder
	b.WriteString(sep + "Start of NVIDIA bug report log file.  Please include this file, along\nwith a detailed description of your problem, when reporting a graphics\ndriver bug via the NVIDIA Linux forum.\n\n")
	b.WriteString("nvidia-bug-report.sh Version: 34097148\n\nDate: Tue Jul 14 08:12:53 UTC 2026\nuname: Linux node 6.8.0-45-generic\n\n")
	for i := 0; i < 12; i++ {
		b.WriteString(sep + fmt.Sprintf("/proc/other%d\n\nsome unrelated text %d\n\n", i, i))
	}
	b.WriteString(sep + "Scanning kernel log files for NVIDIA kernel messages:\n\n  journalctl -b -0:\nJul 14 08:00:00 node kernel: [  100.000001] " + xid)
	b.WriteString(sep + "dmesg:\n\n[  100.000001] " + xid + "[  101.5] nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver\n\n")
	b.WriteString(sep + "/usr/bin/nvidia-smi --query\n\n" + q + "\n" + sep + "End of NVIDIA bug report log file.\n")
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(b.String()))
	w.Close()
	s, f, err := NewStream(&gz, "nvidia-bug-report.log.gz", Options{Start: fixedStart})
	if err != nil || f != Pasted {
		t.Fatalf("format %q, err %v", f, err)
	}
	snap, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.GPUs) != 1 || snap.GPUs[0].Name != "NVIDIA H100 80GB HBM3" || len(snap.GPUs[0].Xids) != 1 {
		t.Fatalf("read %d GPUs; GPU 0 %q with Xids %v (want the Xid once, on the -q GPU at 41:00)", len(snap.GPUs), snap.GPUs[0].Name, snap.GPUs[0].Xids)
	}
	secs := s.(Evidence).Sections()
	if all := strings.Join(secs, "\n"); len(secs) > 10 || !strings.Contains(all, "1 repeated message counted once") {
		t.Errorf("%d section lines, want few, and the dmesg copy of the Xid named as a repeat:\n%s", len(secs), all)
	}
}

// Shapes seen in public pastes: a table commented out with "# " in a
// shell block; a notebook's output indented by four spaces with a laptop's
// "N/A" power limit, WDDM and C+G processes whose memory is N/A.
func TestTableVariantsFromPastes(t *testing.T) {
	commented := "```bash\n# Check the GPU\nnvidia-smi\n# +------------------------------------------+\n" +
		"# | NVIDIA-SMI 546.30      Driver Version: 546.30       CUDA Version: 12.3     |\n" +
		"# | GPU  Name                     TCC/WDDM  | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"# |   0  NVIDIA GeForce RTX 3070 ...  WDDM  | 00000000:01:00.0  On |                  N/A |\n# +----------+\n```\n"
	snaps, ev := readPaste(t, commented)
	if g := snaps[0].GPUs; len(g) != 1 || g[0].Name != "NVIDIA GeForce RTX 3070" || g[0].BusID != "00000000:01:00.0" {
		t.Errorf("commented table read as %+v", g)
	}
	if strings.Contains(strings.Join(ev.Sections(), "\n"), "dmon") {
		t.Errorf("a comment mentioning the GPU was taken for a dmon header: %v", ev.Sections())
	}
	indented := "    Wed Jan 11 17:54:04 2023\n" +
		"    +-----------------------------------------------------------------------------+\n" +
		"    | NVIDIA-SMI 512.78       Driver Version: 512.78       CUDA Version: 11.6     |\n" +
		"    | GPU  Name            TCC/WDDM | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n" +
		"    |===============================+======================+======================|\n" +
		"    |   0  NVIDIA GeForce ... WDDM  | 00000000:01:00.0  On |                  N/A |\n" +
		"    | N/A   64C    P0    37W /  N/A |   3320MiB /  8192MiB |      1%      Default |\n" +
		"    +-------------------------------+----------------------+----------------------+\n" +
		"    | Processes:                                                                  |\n" +
		"    |    0   N/A  N/A      1144    C+G   ...b3d8bbwe\\HxOutlook.exe       N/A      |\n" +
		"    |    0       572    C+G   Insufficient Permissions                   N/A      |\n"
	snaps, _ = readPaste(t, indented)
	g := snaps[0].GPUs[0]
	if g.Power.V != 37 || g.PowerLimit.OK || g.Util.V != 1 || len(g.Procs) != 2 || g.Procs[1].PID != 572 || g.Procs[0].MemUsed.OK {
		t.Errorf("indented table read as %+v", g)
	}
}

// nvidia-smi -L names the GPUs; rows printed with --format=csv,noheader
// read with the fields the pasted command line names.
func TestListAndNoheaderRowsFromTheCommandLine(t *testing.T) {
	in := "$ nvidia-smi -L\nGPU 0: NVIDIA L4 (UUID: GPU-aaaa)\nGPU 1: NVIDIA L4 (UUID: GPU-bbbb)\n\n" +
		"$ nvidia-smi --query-gpu=index,utilization.gpu,memory.used,power.draw --format=csv,noheader,nounits -l 1\n" +
		"0, 90, 20000, 70\n1, 0, 10, 16\n0, 91, 20000, 71\n1, 0, 10, 16\n"
	snaps, ev := readPaste(t, in)
	if len(snaps) != 2 || len(snaps[1].GPUs) != 2 || snaps[1].GPUs[0].Util.V != 91 || snaps[1].GPUs[0].Power.V != 71 ||
		snaps[1].GPUs[1].Name != "NVIDIA L4" || snaps[1].GPUs[1].UUID != "GPU-bbbb" {
		t.Fatalf("read %+v", snaps)
	}
	if w := ev.Where(0, "util"); !strings.Contains(w, "nvidia-smi-csv") {
		t.Errorf("util located at %q, want the CSV section", w)
	}
}

// Newer drivers print "HW Slowdown" as a heading over its two causes; the
// counters block repeats the names with accumulated microseconds.
func TestQueryReasonsNestedAndCounters(t *testing.T) {
	in := "GPU 00000000:01:00.0\n    Product Name                          : NVIDIA GeForce RTX 3090\n" +
		"    Clocks Event Reasons\n        SW Power Cap                 : Not Active\n        HW Slowdown\n" +
		"            HW Thermal Slowdown      : Active\n        SW Thermal Slowdown          : Not Active\n" +
		"    Clocks Event Reasons Counters\n        SW Power Capping             : 644864106 us\n        SW Thermal Slowdown          : 644864106 us\n"
	snaps, _ := readPaste(t, in)
	ce := snaps[0].GPUs[0].ClockEvents
	if !ce.OK || !ce.Has(sampler.ClockHwThermal) || ce.Has(sampler.ClockSwThermal|sampler.ClockSwPowerCap) {
		t.Fatalf("reasons %+v (%v)", ce, ce.Names())
	}
}

// A run the section finder takes for XML but detection does not (no
// <nvidia_smi_log> element in it) is read by the XML reader and skipped; it
// used to go back to the paste reader, which found the same run again,
// until the stack overflowed (found by FuzzPaste).
func TestSectionNotSentBackToThePasteReader(t *testing.T) {
	in := "<!DOCTYPE nvidia_smi_log SYSTEM \"nvsmi_device_v11.dtd\">\n<gpu id=\"1\"><x>1</x></gpu>\n"
	_, _, err := NewStream(strings.NewReader(in), "paste", Options{Start: fixedStart})
	if err == nil || !strings.Contains(err.Error(), "not a log gpuscope can read") {
		t.Fatalf("err %v", err)
	}
}

// An issue template's answers: nvidia-smi -L joined on one line, and the
// device-handle error quoted inside a sentence. Four GPUs are named and
// the one at 0B:00 is lost.
func TestPasteJoinedListAndQuotedHandleError(t *testing.T) {
	in := "GPU 0: NVIDIA GeForce RTX 2080 Ti (UUID: GPU-a) GPU 1: NVIDIA GeForce RTX 2080 Ti (UUID: GPU-b) " +
		"GPU 2: NVIDIA GeForce RTX 2080 Ti (UUID: GPU-c) GPU 3: NVIDIA GeForce RTX 2080 Ti (UUID: GPU-d)\n\n" +
		"### Describe the bug\n\n" +
		"Sometimes GPU 1 falls off the bus, and nvidia-smi outputs the following error: Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error.\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	gs := snaps[len(snaps)-1].GPUs
	named, lost := 0, -1
	for _, g := range gs {
		if g.UUID != "" {
			named++
		}
		if g.Lost && strings.Contains(g.BusID, "0B:00") {
			lost = g.Index
		}
	}
	// The sentence names GPU 1: the lost GPU is one of the four listed,
	// not a fifth (the listing gives no bus id to match it by).
	if len(gs) != 4 || named != 4 || lost != 1 {
		t.Errorf("%d GPUs, %d named, lost at 0B:00 is GPU %d; want 4, 4 and GPU 1: %+v", len(gs), named, lost, gs)
	}
}

// The listing skipped the GPU it could not reach and the device-handle
// error comes apart from it (here after the author's words): the
// listing's one gap is that GPU, so the node has four GPUs, not five.
func TestPasteListGapIsTheLostGPU(t *testing.T) {
	in := "$ nvidia-smi -L\nGPU 0: Tesla V100-SXM2-16GB (UUID: GPU-a)\n" +
		"GPU 2: Tesla V100-SXM2-16GB (UUID: GPU-c)\nGPU 3: Tesla V100-SXM2-16GB (UUID: GPU-d)\n\n" +
		"One of them is missing and nvidia-smi says:\n\n" +
		"Unable to determine the device handle for GPU 0000:3B:00.0: Unknown Error\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	gs := snaps[len(snaps)-1].GPUs
	lost := -1
	for _, g := range gs {
		if g.Lost {
			lost = g.Index
		}
	}
	if len(gs) != 4 || lost != 1 {
		t.Errorf("%d GPUs, lost GPU %d; want 4 with GPU 1 lost: %+v", len(gs), lost, gs)
	}
}

// A -q block cut out with grep -A starts at column 0: still -q, as GPU 0.
func TestPasteQueryBlockAtColumnZero(t *testing.T) {
	in := "```\nFabric\n    State                             : Completed\n    Status                            : Insufficient Resources\n    CliqueId                          : 0\n```\n"
	snaps, _, err := readString(in)
	if err != nil {
		t.Fatal(err)
	}
	gs := snaps[len(snaps)-1].GPUs
	if len(gs) != 1 || gs[0].FabricState != "Completed" || gs[0].FabricStatus != "Insufficient Resources" {
		t.Errorf("got %+v", gs)
	}
}
