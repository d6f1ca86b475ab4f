package importer

import (
	"fmt"
	"strings"
	"testing"
)

// An oops whose faulting instruction is in an NVIDIA module, in the forms
// the kernel prints (Documentation/admin-guide/bug-hunting.rst: x86 "IP:"
// before 4.x, "RIP: 0010:func+off/len [module]" after, arm64 "pc : ...").
// Before, such a section was skipped as kernel lines without an Xid.
func TestKernelOopsInDriver(t *testing.T) {
	cases := []struct {
		name, in, where string // where: "" where no crash is read
		bus             string
	}{
		{"x86 5.x", "[ 2451.310812] BUG: kernel NULL pointer dereference, address: 0000000000000008\n" +
			"[ 2451.310822] #PF: supervisor read access in kernel mode\n" +
			"[ 2451.310831] Oops: 0000 [#1] PREEMPT SMP NOPTI\n" +
			"[ 2451.310840] CPU: 12 PID: 4120 Comm: python3 Tainted: P           OE     5.15.0-91-generic #101-Ubuntu\n" +
			"[ 2451.310860] RIP: 0010:os_acquire_spinlock+0x12/0x30 [nvidia]\n",
			"os_acquire_spinlock [nvidia]", ""},
		{"x86 before 4.x, journal", "May 02 10:00:01 gpu7 kernel: BUG: unable to handle kernel paging request at ffffc90001234000\n" +
			"May 02 10:00:01 gpu7 kernel: IP: [<ffffffffa0b1c2d3>] uvm_va_block_find+0x33/0x90 [nvidia_uvm]\n" +
			"May 02 10:00:01 gpu7 kernel: CPU: 3 PID: 812 Comm: cuda-app Tainted: P           O    3.10.0-957.el7.x86_64 #1\n",
			"uvm_va_block_find [nvidia_uvm]", ""},
		{"arm64", "[  612.004211] Unable to handle kernel NULL pointer dereference at virtual address 0000000000000010\n" +
			"[  612.004300] Internal error: Oops: 0000000096000004 [#1] PREEMPT SMP\n" +
			"[  612.004400] CPU: 71 PID: 9001 Comm: nvidia-persiste Tainted: P           OE      6.8.0-1008-nvidia-64k #8\n" +
			"[  612.004500] pc : _nv012345rm+0x40/0x120 [nvidia]\n",
			"_nv012345rm [nvidia]", ""},
		{"beside the GPU's Xid", "[ 100.0] NVRM: Xid (PCI:0000:3b:00): 13, pid=77, Graphics Exception\n" +
			"[ 101.0] general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP NOPTI\n" +
			"[ 101.1] RIP: 0010:nv_dma_unmap_pages+0x5c/0x90 [nvidia]\n",
			"nv_dma_unmap_pages [nvidia]", "0000:3b:00"},
		// A WARNING prints the same fault line for a driver that goes on.
		{"warning", "[  10.0] WARNING: CPU: 3 PID: 77 at kernel/dma/mapping.c:532 dma_alloc_attrs+0x10/0x20\n" +
			"[  10.1] RIP: 0010:nv_alloc_pages+0x10/0x20 [nvidia]\n", "", ""},
		// The oops is another module's; the NVIDIA frames below it are callers.
		{"another module", "[  20.0] BUG: kernel NULL pointer dereference, address: 0000000000000000\n" +
			"[  20.1] RIP: 0010:ext4_map_blocks+0x1a/0x300 [ext4]\n" +
			"[  20.2]  nv_open_device+0x12d/0x6d0 [nvidia]\n", "", ""},
	}
	for _, c := range cases {
		var k kernOops
		for i, l := range strings.Split(c.in, "\n") {
			k.add(l, i+1)
		}
		if k.where != c.where {
			t.Errorf("%s: read %q, want %q", c.name, k.where, c.where)
		}
		if c.where == "" {
			continue
		}
		snaps, ev := readPaste(t, c.in)
		g := snaps[0].GPUs
		if len(g) != 1 || !g[0].DriverOops || g[0].BusID != c.bus || g[0].Lost {
			t.Errorf("%s: GPUs %+v", c.name, g)
		}
		if s := strings.Join(ev.Sections(), "\n"); !strings.Contains(s, "kernel oops in the NVIDIA driver at "+c.where) {
			t.Errorf("%s: sections do not name the crash: %s", c.name, s)
		}
	}
	// A bug report's journal and dmesg copies of one oops are one crash.
	in := cases[0].in + "\nsome prose between the two copies\n\n" + cases[0].in
	if snaps, _ := readPaste(t, in); len(snaps[0].GPUs) != 1 {
		t.Errorf("two copies of one oops: GPUs %+v", snaps[0].GPUs)
	}
}

// BenchmarkPasteKernelLog: a day's kernel log of 100,000 lines, none an
// oops, with an Xid line every thousand: every line passes the oops check
// (kernoops.go), which is what this adds to a kernel section's reading.
func BenchmarkPasteKernelLog(b *testing.B) {
	var sb strings.Builder
	for i := range 100000 {
		if i%1000 == 0 {
			fmt.Fprintf(&sb, "[%6d.%06d] NVRM: Xid (PCI:0000:%02x:00): 13, pid=%d, name=python3, Graphics Exception\n", i/10, i%1000000, 0x17+i%8, 4000+i)
			continue
		}
		fmt.Fprintf(&sb, "[%6d.%06d] eth0: link up, 100Gbps, full-duplex, lpa 0x%04X, RIP flow %d\n", i/10, i%1000000, i%65536, i)
	}
	benchPaste(b, sb.String())
}
