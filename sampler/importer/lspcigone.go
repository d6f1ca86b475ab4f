package importer

import (
	"fmt"
	"strings"

	"github.com/gpuscope/gpuscope/sampler"
)

// lspci prints each function's revision as read from its PCI config space.
// A device that has dropped off the bus answers every config read with all
// ones, so its revision prints as "(rev ff)" (beside functions of the same
// card that do answer); on an NVIDIA VGA, 3D or display controller that is
// the GPU itself not responding, what the driver calls fallen off the bus
// (Xid 79, [nvidia-xid]). Only such lines are claimed: lspci of GPUs that
// answer says nothing about their health and stays other text.
//
//	5e:00.0 3D controller: NVIDIA Corporation GA100 [A100 PCIe 40GB] (rev ff)
//	0000:b1:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090] [10de:2684] (rev ff)
var lspciGoneRE = lazy(`^\s*((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]) ` +
	`(?:VGA compatible|3D|Display) controller(?: \[03[0-9a-f]{2}\])?: NVIDIA Corporation .*\(rev ff\)\s*$`)

const kindLspciGone = "lspci, a GPU not responding"

func isLspciGoneLine(s string) bool {
	return strings.Contains(s, "(rev ff)") && lspciGoneRE.MatchString(s)
}

// parseLspciGone reads each line as a GPU lost at its address.
func parseLspciGone(sec *section) *part {
	p := newPart(sec)
	snap := sampler.Snapshot{}
	var at []string
	for i, l := range sec.lines {
		m := lspciGoneRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		g := sampler.GPU{Index: provisionalIndex(len(snap.GPUs)), BusID: m[1], Lost: true}
		snap.GPUs = append(snap.GPUs, g)
		p.where(g.Index, "lost", sec.first+i)
		at = append(at, m[1])
	}
	p.snaps = []sampler.Snapshot{snap}
	p.note(fmt.Sprintf("the GPU at %s reads (rev ff): its config space answers all ones, the device is not responding",
		strings.Join(at, ", ")))
	return p
}
