package ui

import (
	"github.com/gpuscope/gpuscope/sampler"
)

// containerWidth is the CONTAINER column: a Deployment's pod name
// (<name>-<10-char hash>-<5 chars>) with a short container name, or a
// 12-digit container id.
const containerWidth = 32

// minCommandWidth is what COMMAND keeps before optional columns are shown:
// "python train.py --config cfg/x.yaml (+8)" reads whole, and the 80- and
// 120-column layouts stay as they were.
const minCommandWidth = 40

// layoutColumns shows the optional columns while COMMAND keeps
// minCommandWidth cells, and sets what COMMAND gets. CONTAINER shows only
// on a node where some process runs in a container: a column of dashes
// would take the command's room on every bare-metal node.
func (p *procPane) layoutColumns() {
	inContainers := anyInContainer(p.c.latest())
	user := -1
	for i := range p.cols {
		if p.cols[i].name == "USER" {
			user, p.cols[i].width = i, minUserWidth
		}
	}
	p.cmdWidth = p.w - 2 // after the cursor column and the fixed columns
	for i := range p.cols {
		if c := &p.cols[i]; c.width > 0 && !c.optional {
			p.cmdWidth -= c.width + 1
		}
	}
	for i := range p.cols {
		if c := &p.cols[i]; c.optional {
			c.hidden = !inContainers || p.cmdWidth-(c.width+1) < minCommandWidth
			if !c.hidden {
				p.cmdWidth -= c.width + 1
			}
		}
	}
	// USER widens to the longest name listed, from what COMMAND has beyond
	// minCommandWidth: "svc-inference" whole where the row has room.
	if user >= 0 {
		extra := min(p.longestUser(), maxUserWidth) - minUserWidth
		extra = max(0, min(extra, p.cmdWidth-minCommandWidth))
		p.cols[user].width += extra
		p.cmdWidth -= extra
	}
}

// The USER column: 8 cells (ps's) at least, widened up to maxUserWidth.
const minUserWidth, maxUserWidth = 8, 24

// longestUser is the widest user name among the rows, in cells.
func (p *procPane) longestUser() int {
	w := 0
	for i := range p.rows {
		w = max(w, cellWidth(hostOf(&p.rows[i]).User))
	}
	return w
}

func anyInContainer(s *sampler.Snapshot) bool {
	if s == nil {
		return false
	}
	for _, g := range s.GPUs {
		for _, p := range g.Procs {
			if h := p.Host; h != nil && (h.Container != "" || h.Pod.Name != "") {
				return true
			}
		}
	}
	return false
}

// idBeforeCommand: with CONTAINER hidden, the short id goes in front of
// the command, where COMMAND has room for both (at 80 columns it would
// leave a few letters of the command).
func (p *procPane) idBeforeCommand() bool {
	for _, c := range p.cols {
		if c.name == "CONTAINER" && !c.hidden {
			return false
		}
	}
	return p.cmdWidth >= minCommandWidth
}

// containerCell names where a process runs: "pod/container" where the
// kubelet named its pod (the pod name cut, the container name kept), else
// the short container id from its cgroup, else "-" (on the host).
func containerCell(h *sampler.Proc, w int) string {
	switch {
	case h.Pod.Name != "" && h.Pod.Container != "":
		c := truncate(h.Pod.Container, max(1, w/3))
		return truncate(h.Pod.Name, max(1, w-cellWidth(c)-1)) + "/" + c
	case h.Pod.Name != "":
		return truncate(h.Pod.Name, w)
	case h.Container != "":
		return h.Container[:min(shortContainerID, len(h.Container))]
	}
	return "-"
}

// shortContainerID is docker ps's and crictl ps's short id.
const shortContainerID = 12

// containerText is what the filter matches: namespace, pod, container
// name, container id and pod UID.
func containerText(h *sampler.Proc) string {
	return h.Pod.Namespace + "/" + h.Pod.Name + "/" + h.Pod.Container + " " + h.Container + " " + h.PodUID
}
