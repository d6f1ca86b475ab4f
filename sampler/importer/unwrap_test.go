package importer

import (
	"fmt"
	"strings"
	"testing"
)

// wordWrap breaks s at its last space within n columns, as a chat or mail
// client of that width shows it and copies it.
func wordWrap(s string, n int) string {
	var out []string
	for len(s) > n {
		cut := strings.LastIndexByte(s[:n+1], ' ')
		if cut <= 0 {
			cut = n
		}
		out = append(out, strings.TrimRight(s[:cut], " "))
		s = strings.TrimLeft(s[cut:], " ")
	}
	return strings.Join(append(out, s), "\n")
}

// cutAt cuts s every n columns, as a terminal of that width copies it.
func cutAt(s string, n int) string {
	var out []string
	for len(s) > n {
		out, s = append(out, s[:n]), s[n:]
	}
	return strings.Join(append(out, s), "\n")
}

// A Talos kernel line puts 66 columns of its own before "NVRM:", so a
// chat of 80 columns leaves the Xid's code on the next line.
func TestUnwrapKernelXid(t *testing.T) {
	const xid = "192.168.11.119: kern: warning: [2026-04-22T21:30:51.494604223Z]: NVRM: Xid (PCI:0000:0b:00): 119, " +
		"pid=11431, name=gpu-feature-dis, Timeout after 45s of waiting for RPC response from GPU3 GSP!"
	for _, in := range []string{wordWrap(xid, 80), cutAt(xid, 80), wordWrap(xid, 120)} {
		snaps, _ := readPaste(t, in+"\n")
		if g := snaps[0].GPUs; len(g) != 1 || len(g[0].Xids) != 1 || g[0].Xids[0].Code != 119 {
			t.Errorf("%q: read %+v; want Xid 119 on 0000:0b:00", in, g)
		}
	}
}

// CUDA's "busy or unavailable" and PyTorch's out-of-memory message are
// longer than a chat's width; their readers want the words at their end.
func TestUnwrapCUDAMessages(t *testing.T) {
	const busy = "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCTensorRandom.cu line=25 error=46 : all CUDA-capable devices are busy or unavailable"
	const oom = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.40 GiB. GPU 0 has a total capacity of 44.53 GiB " +
		"of which 1.29 GiB is free. Process 1856718 has 1.23 GiB memory in use. Process 1943448 has 41.99 GiB memory in use."
	for _, wrap := range []func(string, int) string{wordWrap, cutAt} {
		for _, width := range []int{80, 120} {
			snaps, _, err := readString("> " + strings.ReplaceAll(wrap(busy, width), "\n", "\n> ") + "\n")
			if err != nil || len(snaps) != 1 || !strings.HasPrefix(snaps[0].Node.CUDAError, "46: ") {
				t.Errorf("busy at %d: %+v, %v; want CUDA error 46", width, snaps, err)
			}
			snaps, _, err = readString("Traceback (most recent call last):\n" + wrap(oom, width) + "\n")
			if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || len(snaps[0].GPUs[0].Procs) != 2 {
				t.Errorf("out of memory at %d: %+v, %v; want GPU 0 with its two processes", width, snaps, err)
			}
		}
	}
}

// Lines that only look cut stay apart: a whole Xid line before the next
// kernel line, a sentence after a short line, an indented frame.
func TestUnwrapLeavesWholeLines(t *testing.T) {
	ls := []string{
		"[  100.100000] NVRM: Xid (PCI:0000:41:00): 79, pid=0, GPU has fallen off the bus and is",
		"[  100.200000] NVRM: GPU 0000:41:00.0: GPU has fallen off the bus.",
		"RuntimeError: CUDA error: all CUDA-capable devices are busy",
		"or unavailable, says the log.",
		"THCudaCheck FAIL file=/pytorch/aten/src/THC/THCTensorRandom.cu line=25 error=46 : all",
		"  CUDA-capable devices are busy or unavailable",
	}
	want := append([]string(nil), ls...)
	unwrapMessages(ls, nil)
	for i := range ls {
		if ls[i] != want[i] {
			t.Errorf("line %d: %q, want it as it was: %q", i+1, ls[i], want[i])
		}
	}
}

// BenchmarkPasteNearWrapped: the unwrapper's worst paste, 100,000 lines
// that each look cut at 80 columns before a CUDA message and are none:
// every line is tried (docs/benchmarks.md, "Pasted text copied, not changed").
func BenchmarkPasteNearWrapped(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(table418)
	for i := range 100000 {
		l := fmt.Sprintf("step %06d: CUDA kernel launch took longer than expected on the device 0, retrying", i)
		sb.WriteString(l[:80] + "\n")
	}
	benchPaste(b, sb.String())
}

// A kernel line's tail cut by a wrap is no line of its own: the GSP
// timeout banner stays in one kernel run with the Xid line that names its
// GPU, as unwrapped (corpus dmesg-ctime-xid119-*).
func TestUnwrapKernelTail(t *testing.T) {
	const in = "[Sun Apr 26 23:12:26 2026] NVRM: _kgspLogXid119: ********************************* GSP Timeout **********************************\n" +
		"[Sun Apr 26 23:12:26 2026] NVRM: Xid (PCI:0001:6c:00): 119, pid=10200, name=NvmlTaskRunner, Timeout after 45s of waiting for RPC response from GPU5 GSP!\n"
	want, _ := readPaste(t, in)
	for _, width := range []int{80, 120} {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
			b.WriteString(wordWrap(l, width) + "\n")
		}
		got, _ := readPaste(t, b.String())
		if len(got[0].GPUs) != len(want[0].GPUs) {
			t.Errorf("wrapped at %d: %d GPUs, want %d as unwrapped", width, len(got[0].GPUs), len(want[0].GPUs))
		}
	}
}
