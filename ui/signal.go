package ui

import (
	"fmt"
	"syscall"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/gpuscope/gpuscope/sampler"
)

// pendingSignal is a signal the user asked for, waiting for confirmation.
type pendingSignal struct {
	pid       int
	user, cmd string
	start     time.Time // the process's start: a PID reused meanwhile differs
	sig       syscall.Signal
}

func signalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	}
	return sig.String()
}

// askSignal opens the confirmation for the selected process, or says in the
// footer why it will not: read-only, no process, PID 1, gpuscope itself,
// another user's process (unless root), or a PID from another namespace.
func (m Model) askSignal(sig syscall.Signal) Model {
	c := m.c
	if c.opts.ReadOnly {
		c.status = "read-only (--readonly): signals are off"
		return m
	}
	if c.opts.Kill == nil {
		c.status = "signals are off here: demo and replay PIDs are not this machine's processes"
		return m
	}
	if c.focus != focusProcs {
		c.status = "select a process first (tab to the process pane)"
		return m
	}
	r, ok := m.procs.selected()
	if !ok {
		c.status = "no process selected"
		return m
	}
	h := hostOf(&r)
	switch {
	case r.pid() == 1:
		c.status = "refused: PID 1 is the init process"
	case r.pid() == c.opts.SelfPID:
		c.status = "refused: that is gpuscope itself (press q to quit)"
	case r.p.Host == nil && r.child == nil:
		c.status = fmt.Sprintf("refused: PID %d is not visible in this PID namespace", r.pid())
	case h.User != c.opts.User && !c.opts.Root:
		c.status = fmt.Sprintf("refused: PID %d belongs to %s, not %s (only root may signal it)", r.pid(), orDash(h.User), orDash(c.opts.User))
	default:
		m.confirm = &pendingSignal{pid: r.pid(), user: h.User, cmd: commandLine(h), start: h.Start, sig: sig}
	}
	return m
}

// answerConfirm sends the signal on y alone and reports the outcome; any
// other key cancels. Not enter: k then enter (up, open) would kill a job.
func (m Model) answerConfirm(key string) Model {
	c, ps := m.c, m.confirm
	m.confirm = nil
	if key != "y" && key != "Y" {
		c.status = "cancelled: no signal sent"
		return m
	}
	if !stillSame(c, ps) {
		c.status = fmt.Sprintf("not sent: PID %d has exited (or its PID was reused) since you chose it", ps.pid)
		return m
	}
	if err := c.opts.Kill(ps.pid, ps.sig); err != nil {
		c.status = fmt.Sprintf("%s to PID %d failed: %v", signalName(ps.sig), ps.pid, err)
		return m
	}
	c.status = fmt.Sprintf("sent %s to PID %d (%s)", signalName(ps.sig), ps.pid, truncate(ps.cmd, 40))
	return m
}

// confirmView is the dialog naming the process the signal would hit.
func (m Model) confirmView(w, h int) string {
	st, ps := m.c.st, m.confirm
	lines := []string{
		st.Crit.Render(fmt.Sprintf("Send %s?", signalName(ps.sig))),
		"",
		fmt.Sprintf("PID %d  user %s", ps.pid, orDash(ps.user)),
		truncate(ps.cmd, max(10, w-8)),
		"",
		st.Key.Render("y") + " send   " + st.Key.Render("any other key") + " cancel",
	}
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	out := box.Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
	if lipgloss.Width(out) > w || lipgloss.Height(out) > h {
		return fitBlock(lines, w, h, false)
	}
	return place(out, w, h)
}

// commandLine is a process's command line, else its name.
func commandLine(h *sampler.Proc) string {
	if h.Cmdline != "" {
		return h.Cmdline
	}
	return orDash(h.Name)
}

// stillSame checks the newest snapshot: the PID must still be there with the
// start time it had when it was chosen, so a dialog left open while the job
// ended cannot signal whatever took its PID.
func stillSame(c *common, ps *pendingSignal) bool {
	if len(c.window) == 0 {
		return false
	}
	h := c.window[len(c.window)-1].Host
	if h == nil {
		return false
	}
	p, ok := h.Procs[ps.pid]
	return ok && p.Start.Equal(ps.start)
}
