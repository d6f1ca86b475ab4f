package importer

// The driver's probe refuses a GPU whose BAR the firmware or hypervisor
// left without an address window (docs/playbook/xid_error.md, Caveats):
//
//	NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:
//	NVRM: BAR0 is 0M @ 0x0 (PCI:0000:07:00.0)
//	NVRM: The NVIDIA probe routine failed for 2 device(s).
//
// The driver prints the second line, which names the GPU, only in this
// message.
var barLineRE = lazy(`NVRM: BAR\d is \d+M @ 0x[0-9A-Fa-f]+ \(PCI:([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])\)`)
