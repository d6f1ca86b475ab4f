package ui

import "slices"

// page is a screen over the main panes. The dashboard keeps the open ones as
// a stack (lazygit's context stack): the top one takes the keys, is drawn,
// and names the footer's hints; closing it shows the one below. One order,
// kept here, instead of a flag per page tested in a different order by keys,
// view, mouse and footer.
type page int

const (
	pageMain     page = iota // the panes; the bottom of the stack, never pushed
	pageTopology             // t: the link matrix
	pageProc                 // enter on a process
	pageGPU                  // enter on a GPU, or 1-9
	pageFinding              // enter on a finding: its playbook page
	pageHelp                 // ?: the key map
	pageConfirm              // k/K: the y/n question before a signal
)

// pages is the stack of open pages, shared by the copies of a Model as the
// panes are.
type pages struct {
	stack []page
	// confirm is the signal pageConfirm asks about; set exactly while
	// pageConfirm is open (ask, answer).
	confirm *pendingSignal
}

// ask opens the y/n question for ps.
func (p *pages) ask(ps *pendingSignal) {
	p.confirm = ps
	p.open(pageConfirm)
}

// answer closes the question and returns what it asked about.
func (p *pages) answer() *pendingSignal {
	ps := p.confirm
	p.confirm = nil
	p.close(pageConfirm)
	return ps
}

// top is the page shown: the newest opened, or the main screen.
func (p *pages) top() page {
	if len(p.stack) == 0 {
		return pageMain
	}
	return p.stack[len(p.stack)-1]
}

// open puts pg on top; a page already open moves there rather than
// appearing twice.
func (p *pages) open(pg page) {
	if pg == pageMain {
		return
	}
	p.close(pg)
	p.stack = append(p.stack, pg)
}

// close removes pg wherever it is in the stack.
func (p *pages) close(pg page) {
	p.stack = slices.DeleteFunc(p.stack, func(x page) bool { return x == pg })
}

// isOpen says whether pg is anywhere in the stack (it refreshes on new
// data even under the help overlay).
func (p *pages) isOpen(pg page) bool { return slices.Contains(p.stack, pg) }

// toggle opens pg, or closes it when it is on top.
func (p *pages) toggle(pg page) {
	if p.top() == pg {
		p.close(pg)
		return
	}
	p.open(pg)
}
