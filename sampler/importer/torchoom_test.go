package importer

import "testing"

// PyTorch's out-of-memory message, in the format since 2.1 (processes
// named) and before it, is a reading of its GPU's memory.
func TestTorchOOMMessages(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	near := func(a, b float64) bool { return a-b < 1e6 && b-a < 1e6 }
	in := "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.40 GiB. GPU 0 has a total capacity of 44.53 GiB of which 1.29 GiB is free. Process 1856718 has 1.23 GiB memory in use. Process 1943448 has 41.99 GiB memory in use. Of the allocated memory 41.61 GiB is allocated by PyTorch.\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 {
		t.Fatalf("snaps %+v, err %v; want one GPU", snaps, err)
	}
	g := snaps[0].GPUs[0]
	if g.Index != 0 || !near(g.MemTotal.V, 44.53*gib) || !near(g.MemUsed.V, (44.53-1.29)*gib) || len(g.Procs) != 2 ||
		g.Procs[1].PID != 1943448 || !near(g.Procs[1].MemUsed.V, 41.99*gib) {
		t.Errorf("read %+v; want GPU 0, 43.24 of 44.53 GiB used, pids 1856718 and 1943448", g)
	}
	old := "RuntimeError: CUDA out of memory. Tried to allocate 216.00 MiB (GPU 3; 7.92 GiB total capacity; 69.17 MiB already allocated; 24.56 MiB free; 86.00 MiB reserved in total by PyTorch)\n"
	snaps, _, err = readString(old)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 {
		t.Fatalf("old format: snaps %+v, err %v; want one GPU", snaps, err)
	}
	if g := snaps[0].GPUs[0]; g.Index != 3 || !near(g.MemUsed.V, 7.92*gib-24.56*mib) || len(g.Procs) != 0 {
		t.Errorf("old format read %+v; want GPU 3, 24.56 MiB free of 7.92 GiB, no process", g)
	}
	if o := snaps[0].Node.SliceOOM; len(o) != 1 || !near(o[0].Own, 86*mib) {
		t.Errorf("old format refusal %+v; want PyTorch's own 86 MiB reserved", o)
	}
	for _, in := range []string{
		"RuntimeError: CUDA out of memory.\n", // no reading in it
		"GPU 0 has a total capacity of 8.00 GiB of which 9.00 GiB is free.\n",
	} {
		if snaps, _, _ := readString(in); len(snaps) > 0 && len(snaps[0].GPUs) > 0 {
			t.Errorf("%q read as a memory reading: %+v", in, snaps[0].GPUs)
		}
	}
}

// PyTorch 2.0 and 2.1 printed "total capacty of" (c10/cuda/CUDACachingAllocator.cpp
// until 2.2 fixed the spelling) with "this process has" instead of pids: the
// same reading, and a request above the free memory is a failed allocation.
func TestTorchOOMCapactySpelling(t *testing.T) {
	in := "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 1 has a total capacty of 10.75 GiB of which 120.50 MiB is free. Including non-PyTorch memory, this process has 10.63 GiB memory in use.\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || snaps[0].GPUs[0].Index != 1 {
		t.Fatalf("snaps %+v, err %v; want GPU 1 read", snaps, err)
	}
	if g := snaps[0].GPUs[0]; !g.MemTotal.OK || g.MemTotal.V < 10.7*(1<<30) || len(snaps[0].Node.SliceOOM) != 1 {
		t.Errorf("read %+v, refusals %+v; want 10.75 GiB total and the 512 MiB request refused", g, snaps[0].Node.SliceOOM)
	}
}

// vcuda-controller's refusal gives the container's usage, not its limit.
func TestVCUDAOOMLine(t *testing.T) {
	in := "src/hijack_call.c:575 CUDA_ERROR_OUT_OF_MEMORY: Total real used gpu memory 30645682176 already exit\nSegmentation fault\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].Node.SliceOOM) != 1 {
		t.Fatalf("snaps %+v, err %v; want one refused allocation", snaps, err)
	}
	if o := snaps[0].Node.SliceOOM[0]; o.Layer != "vcuda" || o.Want != 30645682176 || o.Limit != 0 {
		t.Errorf("read %+v; want vcuda, 30645682176 used, limit unknown", o)
	}
}

// The message is a failed allocation too: the request past the free
// memory, however much is free, is the card's limit reached (corpus
// b9-torch-oom-16gb-*); a request the free memory covered is not said to
// be one.
func TestTorchOOMFailedAllocation(t *testing.T) {
	const gib = 1 << 30
	in := "RuntimeError: CUDA out of memory. Tried to allocate 2.56 GiB (GPU 0; 15.90 GiB total capacity; 10.38 GiB already allocated; 1.83 GiB free; 2.99 GiB cached)\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].Node.SliceOOM) != 1 {
		t.Fatalf("snaps %+v, err %v; want one refused allocation", snaps, err)
	}
	o := snaps[0].Node.SliceOOM[0]
	if own := (10.38 + 2.99) * gib; o.Own-own > 1e6 || own-o.Own > 1e6 {
		t.Errorf("PyTorch's own %.0f bytes; want allocated and cached, %.0f", o.Own, own)
	}
	if want := (15.90 - 1.83 + 2.56) * gib; o.Layer != "pytorch" || o.Device != 0 || o.Want-want > 1e6 || want-o.Want > 1e6 || o.Limit != 15.90*gib {
		t.Errorf("read %+v; want pytorch on device 0, %.0f bytes wanted of the card's %.0f", o, want, 15.90*gib)
	}
	frag := "CUDA out of memory. Tried to allocate 8.13 GiB (GPU 0; 10.76 GiB total capacity; 643.57 MiB already allocated; 8.20 GiB free; 32.43 MiB cached)\n"
	if snaps, _, _ := readString(frag); len(snaps) != 1 || len(snaps[0].GPUs) != 1 || len(snaps[0].Node.SliceOOM) != 0 {
		t.Errorf("a request under the free memory: %+v; want the reading and no refused allocation", snaps)
	}
}

// The cudaMallocAsync backend's six-line message is the same reading:
// Device limit and Free are the card's total and free, Requested the
// refused allocation; spacing varies (a forum's paste collapses it), and a
// paste cut before the free line is no reading.
func TestTorchOOMAsyncAllocator(t *testing.T) {
	const gib, mib = 1 << 30, 1 << 20
	near := func(a, b float64) bool { return a-b < 1e6 && b-a < 1e6 }
	in := "torch.cuda.OutOfMemoryError: Allocation on device 1 would exceed allowed memory. (out of memory)\n" +
		"Currently allocated     : 21.55 GiB\nRequested               : 952.00 MiB\nDevice limit            : 24.00 GiB\n" +
		"Free (according to CUDA): 0 bytes\nPyTorch limit (set by user-supplied memory fraction)\n                        : 17179869184.00 GiB\n\nPrompt executed in 188.48 seconds\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].GPUs) != 1 || len(snaps[0].Node.SliceOOM) != 1 {
		t.Fatalf("snaps %+v, err %v; want one GPU and one refused allocation", snaps, err)
	}
	g, o := snaps[0].GPUs[0], snaps[0].Node.SliceOOM[0]
	if g.Index != 1 || g.MemTotal.V != 24*gib || g.MemUsed.V != 24*gib {
		t.Errorf("read %+v; want GPU 1, 24 of 24 GiB used", g)
	}
	if o.Layer != "pytorch" || o.Device != 1 || o.Want != 24*gib+952*mib || o.Limit != 24*gib || !near(o.Own, 21.55*gib) {
		t.Errorf("refusal %+v; want pytorch on device 1, 24 GiB + 952 MiB wanted of 24 GiB, 21.55 GiB PyTorch's own", o)
	}
	collapsed := "Allocation on device 0 would exceed allowed memory. (out of memory)\nCurrently allocated : 3.61 GiB\nRequested : 1.10 GiB\nDevice limit : 6.00 GiB\nFree (according to CUDA): 0 bytes\n"
	if snaps, _, _ := readString(collapsed); len(snaps) != 1 || len(snaps[0].GPUs) != 1 || snaps[0].GPUs[0].MemTotal.V != 6*gib {
		t.Errorf("collapsed spacing: %+v; want GPU 0 with 6 GiB", snaps)
	}
	cut := "Allocation on device 0 would exceed allowed memory. (out of memory)\nCurrently allocated     : 3.61 GiB\nRequested               : 1.10 GiB\n"
	if snaps, _, _ := readString(cut); len(snaps) > 0 && len(snaps[0].GPUs) > 0 {
		t.Errorf("cut before the device's size and free memory read as %+v; want no reading", snaps[0].GPUs)
	}
}
