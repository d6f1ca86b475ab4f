package importer

import (
	"fmt"
	"strings"
)

// nvidia-smi's "Unable to determine the device handle for GPU ...: Unknown
// Error" inside a virtual machine whose NVIDIA driver sees the hypervisor:
// drivers before R465 refused GeForce boards in a VM, and the guest works
// once the hypervisor is hidden from it (libvirt <kvm><hidden state='on'/>,
// QEMU -cpu kvm=off, hv_vendor_id). The GPU is not lost, so a paste that
// shows those settings or the guest looking for its hypervisor does not
// read the error as a lost GPU (sampler/importer/kernlog.go parseSMIErrors);
// it says why and what to change. "GPU is lost" is read as lost everywhere.
// Corpus: unable-handle-vm-hypervisor-visible-*.
var (
	hypervisorRE    = lazy(`(?i)<hidden\s+state=['"]on['"]|\bkvm\s*=\s*off\b|\bhv_vendor_id\b|\bgrep\s+(-\w+\s+)?hypervisor\b`)
	unknownHandleRE = lazy(`(?i)device handle for GPU.*Unknown Error`)
)

// hypervisorSeen is the first line of the paste that shows a guest hiding
// or looking for its hypervisor, "" when none does.
func hypervisorSeen(secs []section) string { return firstLineMatching(secs, hypervisorRE) }

// firstLineMatching is the paste's first line that re matches, trimmed;
// "" when none does.
func firstLineMatching(secs []section, re *lazyRE) string {
	for _, s := range secs {
		for _, l := range s.lines {
			if re.MatchString(l) {
				return strings.TrimSpace(l)
			}
		}
	}
	return ""
}

// guestUnreachable skips the device-handle error of such a guest; nil when
// the section is not that.
func guestUnreachable(sec *section, hint string) *part {
	if hint == "" {
		return nil
	}
	for i, l := range sec.lines {
		if unknownHandleRE.MatchString(l) {
			return newPart(sec).skip(fmt.Sprintf("line %d: nvidia-smi cannot reach the GPU of a virtual machine whose driver sees the hypervisor "+
				"(%q), not a lost GPU; hide the hypervisor from the guest (libvirt <kvm><hidden state='on'/>, QEMU -cpu kvm=off) "+
				"or use a GPU and driver supported in virtual machines", sec.first+i, hint))
		}
	}
	return nil
}
