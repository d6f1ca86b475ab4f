package importer

import (
	"strings"
	"testing"
)

// HAMi-core's refused allocation is read with the container's device
// number and the pod's limit; its start-up lines alone, and a quoted
// message that is not its log line, are not.
func TestHAMiCoreOOMLines(t *testing.T) {
	in := "[HAMI-core Msg(30:140387636202368:libvgpu.c:836)]: Initializing.....\n" +
		"[HAMI-core ERROR (pid:30 thread=140382094939712 allocator.c:53)]: Device 1 OOM 3171158016 / 3145728000\n" +
		"RuntimeError: CUDA error: unrecognized error code\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].Node.SliceOOM) != 1 {
		t.Fatalf("snaps %+v, err %v; want one refused allocation", snaps, err)
	}
	if o := snaps[0].Node.SliceOOM[0]; o.Device != 1 || o.Want != 3171158016 || o.Limit != 3145728000 || len(snaps[0].GPUs) != 0 {
		t.Errorf("read %+v with GPUs %v; want device 1, 3171158016 of 3145728000, no GPU of the node named", o, snaps[0].GPUs)
	}
	for _, in := range []string{
		"[HAMI-core Msg(30:140387636202368:libvgpu.c:836)]: Initializing.....\n[HAMI-core Msg(30:140387636202368:libvgpu.c:855)]: Initialized\n",
		"the log said Device 0 OOM 3171158016 / 3145728000 somewhere\n",
	} {
		if snaps, _, _ := readString(in); len(snaps) > 0 && len(snaps[0].Node.SliceOOM) > 0 {
			t.Errorf("%q read as a refused allocation", in)
		}
	}
}

// A "used" count past 2^63 bytes is HAMi-core's own counter gone below
// zero (corpus b6-hami-core-oom-wrapped-counter-*: the thread calls the
// OOM false), not a container over its limit: refused with that reason.
func TestHAMiCoreWrappedCounterRefused(t *testing.T) {
	in := "2. Applications fail with OOM errors: `[HAMI-core ERROR (pid:1 thread=140160828682240 allocator.c:53)]: " +
		"Device 0 OOM 18446744073707737660 / 24146608128`\n"
	snaps, _, err := readString(in)
	if len(snaps) > 0 && len(snaps[0].Node.SliceOOM) > 0 {
		t.Fatalf("read %+v as a refused allocation", snaps[0].Node.SliceOOM)
	}
	if err == nil || !strings.Contains(err.Error(), "counter") {
		t.Errorf("err %v; want a refusal naming HAMi-core's wrapped counter", err)
	}
}

// A used count past any GPU's memory is HAMi-core's counter gone below zero
// (corpus b7-hami-core-false-oom-*), not an allocation over the limit.
func TestHAMiCoreImpossibleUsageNotRead(t *testing.T) {
	in := "[HAMI-core ERROR (pid:1 thread=140160828682240 allocator.c:53)]: Device 0 OOM 18446744073707737660 / 24146608128\n"
	if snaps, _, _ := readString(in); len(snaps) > 0 && len(snaps[0].Node.SliceOOM) > 0 {
		t.Errorf("%q read as a refused allocation: %+v", in, snaps[0].Node.SliceOOM)
	}
}

// HAMi-core logs "cuMemoryAllocate failed res=N" when the driver refuses
// an allocation its own limit check let through (src/allocator/allocator.c,
// add_chunk): res=2, CUDA_ERROR_OUT_OF_MEMORY, is the card itself out of
// memory under the pod's slice, read with no limit and no byte count. Any
// other res is not an out-of-memory and is not read as one.
func TestHAMiCoreDriverOOMLine(t *testing.T) {
	in := "[HAMI-core ERROR (pid:12 thread=139912345678912 allocator.c:121)]: cuMemoryAllocate failed res=2\n"
	snaps, _, err := readString(in)
	if err != nil || len(snaps) != 1 || len(snaps[0].Node.SliceOOM) != 1 {
		t.Fatalf("snaps %+v, err %v; want one allocation the driver refused", snaps, err)
	}
	if o := snaps[0].Node.SliceOOM[0]; o.Layer != "hami_driver" || o.Want != 0 || o.Limit != 0 || len(snaps[0].GPUs) != 0 {
		t.Errorf("read %+v with GPUs %v; want layer hami_driver, no bytes, no GPU of the node named", o, snaps[0].GPUs)
	}
	for _, in := range []string{
		"[HAMI-core ERROR (pid:12 thread=139912345678912 allocator.c:121)]: cuMemoryAllocate failed res=1\n",
		"[HAMI-core ERROR (pid:12 thread=139912345678912 allocator.c:121)]: cuMemoryAllocate failed res=999\n",
		"[HAMI-core ERROR (pid:12 thread=139912345678912 allocator.c:121)]: cuMemoryAllocate failed res=20\n",
	} {
		if snaps, _, _ := readString(in); len(snaps) > 0 && len(snaps[0].Node.SliceOOM) > 0 {
			t.Errorf("%q read as an out-of-memory: %+v", in, snaps[0].Node.SliceOOM)
		}
	}
}
