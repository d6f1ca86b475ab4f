package importer

import (
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// A kernel oops inside the NVIDIA driver. The kernel names the faulting
// instruction's function and, in brackets, its module (the Linux kernel's
// Documentation/admin-guide/bug-hunting.rst); the forms of x86 before and
// after 4.x and of arm64:
//
//	BUG: unable to handle kernel NULL pointer dereference at 0000000000000340
//	IP: [<ffffffffc0740f8f>] _nv011740rm+0x1f/0x170 [nvidia]
//	RIP: 0010:[<ffffffffc0740f8f>]  [<ffffffffc0740f8f>] _nv011740rm+0x1f/0x170 [nvidia]
//	RIP: 0010:_nv011740rm+0x1f/0x170 [nvidia]
//	pc : _nv011740rm+0x1f/0x170 [nvidia]
//
// Only an oops counts (BUG, Oops, general protection fault): a WARNING
// prints the same RIP line for a driver that goes on working. The oops
// names no GPU; the driver that crashed serves none until a reboot.
var (
	oopsRE   = lazy(`\bBUG: (?:unable to handle|kernel NULL pointer dereference)|\bOops: [0-9a-f]{4,8} \[#\d+\]|\bUnable to handle kernel (?:NULL pointer|paging request)|\bgeneral protection fault\b`)
	oopsIPRE = lazy(`(?:\b[RE]?IP:?|\bpc :)\s+(?:[0-9a-f]{4}:)?(?:\[<[0-9a-f]+>\]\s*)*(?:([\w.]+)\+0x[0-9a-f]+/0x[0-9a-f]+ \[(nvidia\w*)\])?`)
)

// kernOops follows one kernel section: where is the driver's function
// that faulted ("_nv011740rm [nvidia]"), read at line.
type kernOops struct {
	open  bool // an oops header read, its fault line not yet
	where string
	line  int
}

// add reads l (at line no); true when the line is the oops's own.
func (k *kernOops) add(l string, no int) bool {
	if !k.open && !strings.Contains(l, "BUG: ") && !strings.Contains(l, "Oops: ") && !strings.Contains(l, "nable to handle") &&
		!strings.Contains(l, "protection fault") { // oopsRE's words: most kernel lines have none
		return false
	}
	if strings.Contains(l, "WARNING:") {
		k.open = false
		return false
	}
	if oopsRE.MatchString(l) {
		k.open = k.open || k.where == ""
		return true
	}
	if !k.open {
		return false
	}
	m := oopsIPRE.FindStringSubmatch(l)
	if m == nil {
		return false
	}
	// The first fault line after the header says whose code it was.
	k.open = false
	if m[2] != "" {
		k.where, k.line = m[1]+" ["+m[2]+"]", no
	}
	return true
}

// place puts the crash on the section's first GPU by PCI address, or on
// one GPU the log does not name (the driver's crash is the node's; one
// finding says it); the note of what was read. seen (parseKernel's) keeps
// a bug report's copies of one oops, in the journal and dmesg, to one.
func (k *kernOops) place(named []string, gpu func(string) *sampler.GPU, p *part, seen map[string]bool) string {
	if k.where == "" || seen["oops "+k.where] {
		return ""
	}
	seen["oops "+k.where] = true
	key := "driver oops"
	for i, b := range named {
		if i == 0 || b < key {
			key = b
		}
	}
	g := gpu(key)
	if len(named) == 0 {
		g.BusID = ""
	}
	g.DriverOops = true
	p.where(g.Index, "oops", k.line)
	return "a kernel oops in the NVIDIA driver at " + k.where + ": the driver serves no GPU until a reboot"
}
