package importer

import "testing"

// The driver's refusal of a GPU whose BAR got no address window, as the
// open module's probe prints it (two NVRM lines per GPU, then the probe's
// count), in dmesg and in a journal: each GPU it names is marked. Other
// NVRM lines naming a GPU are not taken.
func TestKernelBARUnassignedMarksGPUs(t *testing.T) {
	const dmesg = "[    5.210001] NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\n" +
		"               NVRM: BAR1 is 0M @ 0x0 (PCI:0000:41:00.0)\n" +
		"[    5.210950] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"
	const journal = "Apr 11 08:01:02 pve kernel: NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\n" +
		"Apr 11 08:01:02 pve kernel: NVRM: BAR0 is 0M @ 0x0 (PCI:0000:01:00.0)\n" +
		"Apr 11 08:01:02 pve kernel: NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\n" +
		"Apr 11 08:01:02 pve kernel: NVRM: BAR0 is 0M @ 0x0 (PCI:0000:02:00.0)\n"
	for name, c := range map[string]struct {
		in   string
		gpus int
	}{"dmesg": {dmesg, 1}, "journal": {journal, 2}} {
		snaps, _ := readPaste(t, c.in)
		g := snaps[0].GPUs
		if len(g) != c.gpus {
			t.Fatalf("%s: %d GPUs, want %d", name, len(g), c.gpus)
		}
		for _, x := range g {
			if !x.Lost || !x.BARUnassigned || x.BusID == "" {
				t.Errorf("%s: %+v, want lost with its BAR unassigned", name, x)
			}
		}
	}
	if _, _, err := readString("[    5.2] NVRM: GPU 0000:41:00.0: RmInitAdapter succeeded\n"); err == nil {
		t.Error("another NVRM line was read")
	}
}
