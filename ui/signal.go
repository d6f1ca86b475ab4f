package ui

import (
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
		c.status = c.word("signal.readonly")
		return m
	}
	if c.opts.Kill == nil {
		c.status = c.word("signal.off_here")
		return m
	}
	if c.focus != focusProcs {
		c.status = c.word("signal.select_first")
		return m
	}
	r, ok := m.procs.selected()
	if !ok {
		c.status = c.word("signal.none_selected")
		return m
	}
	h := hostOf(&r)
	switch {
	case r.pid() == 1:
		c.status = c.word("signal.refused_init")
	case r.pid() == c.opts.SelfPID:
		c.status = c.word("signal.refused_self")
	case r.p.Host == nil && r.child == nil:
		c.status = c.say("signal.refused_namespace", map[string]any{"PID": r.pid()})
	case h.User != c.opts.User && !c.opts.Root:
		c.status = c.say("signal.refused_user", map[string]any{"PID": r.pid(), "Owner": orDash(h.User), "User": orDash(c.opts.User)})
	default:
		m.pages.ask(&pendingSignal{pid: r.pid(), user: h.User, cmd: commandLine(h), start: h.Start, sig: sig})
	}
	return m
}

// answerConfirm sends the signal on y alone and reports the outcome; any
// other key cancels. Not enter: k then enter (up, open) would kill a job.
func (m Model) answerConfirm(key string) Model {
	c, ps := m.c, m.pages.answer()
	if key != "y" && key != "Y" {
		c.status = c.word("signal.cancelled")
		return m
	}
	if !stillSame(c, ps) {
		c.status = c.say("signal.gone", map[string]any{"PID": ps.pid})
		return m
	}
	if err := c.opts.Kill(ps.pid, ps.sig); err != nil {
		c.status = c.say("signal.failed", map[string]any{"Signal": signalName(ps.sig), "PID": ps.pid, "Err": err.Error()})
		return m
	}
	c.status = c.say("signal.sent", map[string]any{"Signal": signalName(ps.sig), "PID": ps.pid, "Cmd": truncate(ps.cmd, 40)})
	return m
}

// confirmView is the dialog naming the process the signal would hit.
func (m Model) confirmView(w, h int) string {
	c, ps := m.c, m.pages.confirm
	st := c.st
	lines := []string{
		st.Crit.Render(c.say("signal.ask", map[string]any{"Signal": signalName(ps.sig)})),
		"",
		c.say("signal.who", map[string]any{"PID": ps.pid, "User": orDash(ps.user)}),
		truncate(ps.cmd, max(10, w-8)),
		"",
		st.Key.Render("y") + " " + c.word("signal.send") + "   " + st.Key.Render(c.word("signal.other_key")) + " " + c.word("signal.cancel"),
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
