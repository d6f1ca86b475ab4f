package ui

import (
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler"
)

// headerPane is the top line: where we are, what we read, how often, and
// whether the data is live.
type headerPane struct {
	cached
	c *common
	// shows is what of the newest snapshot the line shows (onData).
	shows headerData
}

// headerData is what the header shows of a snapshot: its second, the node's
// names and the GPU count. At --interval 100ms ten snapshots a second show
// the same line (docs/benchmarks.md, "The dashboard at 100 ms").
type headerData struct {
	sec                  int64
	loc                  *time.Location
	host, driver, cuda   string
	gpus                 int
	recording, wallClock bool
}

// onData redraws the line when s shows other than the snapshot before it.
// What keys change (pause, interval, recording) redraws it where they do.
func (p *headerPane) onData(s *sampler.Snapshot) {
	d := headerData{sec: s.Time.Unix(), loc: s.Time.Location(), host: s.Node.Hostname, driver: s.Node.Driver,
		cuda: s.Node.CUDA, gpus: len(s.GPUs), recording: p.c.recording, wallClock: s.Time.IsZero()}
	if d != p.shows || d.wallClock {
		p.shows = d
		p.invalidate()
	}
}

// problemHold is how long the footer keeps a problem line after it was
// last said: long enough to read one that is said once.
const problemHold = 20 * time.Second

func (p *headerPane) View() string { return p.view(p.render) }

func (p *headerPane) render() []string {
	c, st := p.c, p.c.st
	right := p.badge() + " " + c.now().Format("15:04:05")
	if c.recording {
		right = p.c.st.BadgeCrit.Render(" ● "+c.word("header.rec")+" ") + " " + right
	}
	// Parts by importance; the least important are dropped first when the
	// line is short (driver and CUDA versions before the GPU count).
	type part struct {
		text string
		rank int // lower is kept longer
	}
	parts := []part{{st.Header.Render("gpuscope"), 0}}
	if s := c.latest(); s != nil {
		n := s.Node
		if n.Hostname != "" {
			parts = append(parts, part{n.Hostname, 1})
		}
		if n.Driver != "" {
			parts = append(parts, part{c.word("header.driver") + " " + n.Driver, 4})
		}
		if n.CUDA != "" {
			parts = append(parts, part{"CUDA " + n.CUDA, 3})
		}
		parts = append(parts, part{c.gpuCountText(len(s.GPUs)), 2})
	}
	parts = append(parts, part{c.say("header.every", map[string]any{"Interval": fmtInterval(c.interval)}), 2})
	room := p.w - cellWidth(right) - 1
	sep := st.Muted.Render(" · ")
	var left string
	for drop := 5; drop >= 0; drop-- {
		var kept []string
		for _, pt := range parts {
			if pt.rank < drop {
				kept = append(kept, pt.text)
			}
		}
		left = strings.Join(kept, sep)
		if cellWidth(left) <= room {
			break
		}
	}
	left = truncate(left, max(0, room))
	gap := max(1, p.w-cellWidth(left)-cellWidth(right))
	return []string{left + strings.Repeat(" ", gap) + right}
}

// gpuCountText is "no GPUs", "1 GPU", "8 GPUs" in the dashboard's language.
func (c *common) gpuCountText(n int) string {
	if n == 0 {
		return c.word("gpus.none")
	}
	// Kept for the count in force: the GPU pane says it on every frame and
	// the plural is a template (ten times a second at --interval 100ms).
	if c.gpuCountSaid.n != n || c.gpuCountSaid.text == "" {
		c.gpuCountSaid.n, c.gpuCountSaid.text = n, c.count("gpus.count", n)
	}
	return c.gpuCountSaid.text
}

// badge is LIVE (green), DEMO (yellow) or REPLAY (blue), followed by
// PAUSED while paused: the source stays named, so a paused demo is never
// taken for a paused live node.
func (p *headerPane) badge() string {
	if p.c.paused {
		return p.sourceBadge() + " " + p.c.st.BadgeWarn.Render(" "+p.c.word("header.paused")+" ")
	}
	return p.sourceBadge()
}

func (p *headerPane) sourceBadge() string {
	c, st := p.c, p.c.st
	b := c.opts.Badge
	if b == "" {
		b = "LIVE"
	}
	switch {
	case c.sourceClosed:
		return st.BadgeInfo.Render(" " + c.badgeText(b) + " " + c.word("header.ended") + " ")
	case strings.HasPrefix(b, "LIVE"):
		return st.BadgeOK.Render(" " + c.badgeText(b) + " ")
	case strings.HasPrefix(b, "DEMO"):
		return st.BadgeWarn.Render(" " + c.badgeText(b) + " ")
	default:
		return st.BadgeInfo.Render(" " + c.badgeText(b) + " ")
	}
}

// badgeText is the source badge in the dashboard's language: its first
// word (LIVE, DEMO, REPLAY) translated, what follows (the scenario, the
// file) as it is.
func (c *common) badgeText(b string) string {
	first, rest, _ := strings.Cut(b, " ")
	w := c.wordOr("badge."+strings.ToLower(first), first)
	if rest == "" {
		return w
	}
	return w + " " + rest
}

// footer is the key hints, or the newest source problem as a one-line warning.
func (m Model) footer() string {
	st, w := m.c.st, m.w
	hints := m.c.hints.main
	switch m.pages.top() {
	case pageMain, pageHelp:
		if m.noGPU() {
			hints = m.c.hints.noGPU
		}
	case pageFinding, pageProc:
		hints = m.c.hints.detail
	case pageGPU:
		hints = m.c.hints.gpuDetail
	case pageTopology:
		hints = m.c.hints.topology
	case pageConfirm:
		hints = m.c.hints.confirm
	}
	if m.c.status != "" {
		return truncate(st.Warn.Render("» ")+m.c.status, w)
	}
	// A replay that seeks back past the problem does not show it.
	if age := m.c.now().Sub(m.c.problemAt); m.c.problem != "" && age >= 0 && age < problemHold {
		msg := m.c.problem
		if n := m.c.problemMore; n > 0 {
			msg += m.c.say("footer.more", map[string]any{"N": n})
		}
		help := "  " + st.Key.Render("?") + " " + m.c.word("hint.help")
		return truncate(st.Warn.Render("⚠ "+truncate(msg, max(1, w-10))), max(0, w-cellWidth(help))) + help
	}
	return m.fitHints(hints, w)
}

// fitHints writes the (key, what) pairs in w columns. Where they do not
// fit, hints are dropped from the end of the middle, never the way out:
// "? help" and "q quit" stay, so at 80 columns a new user still sees how to
// learn the keys and how to leave.
func (m Model) fitHints(hints []string, w int) string {
	// The hints and the styles are the run's (env), so a width fits them
	// the same way every frame: at --interval 100ms this was redone ten
	// times a second (docs/benchmarks.md, "The dashboard at 100 ms").
	d := m.c.hintsDrawn
	if d != nil && d.w == w && len(hints) > 0 && len(d.hints) == len(hints) && &d.hints[0] == &hints[0] {
		return d.out
	}
	out := m.fitHintsAfresh(hints, w)
	m.c.hintsDrawn = &drawnHints{hints: hints, w: w, out: out}
	return out
}

// drawnHints is one fitting of the footer's hints (fitHints).
type drawnHints struct {
	hints []string
	w     int
	out   string
}

func (m Model) fitHintsAfresh(hints []string, w int) string {
	st := m.c.st
	pinned := map[string]bool{m.c.word("hint.help"): true, m.c.word("hint.quit"): true}
	keep := make([]bool, len(hints)/2)
	for i := range keep {
		keep[i] = true
	}
	render := func() string {
		var b strings.Builder
		dropped := false
		for i, k := range keep {
			if !k {
				dropped = true
				continue
			}
			if b.Len() > 0 {
				b.WriteString(" ")
			}
			if dropped && pinned[hints[2*i+1]] {
				b.WriteString(st.Muted.Render("…") + " ")
				dropped = false
			}
			b.WriteString(st.Key.Render(hints[2*i]) + " " + st.Muted.Render(hints[2*i+1]))
		}
		return b.String()
	}
	out := render()
	for i := len(keep) - 1; i >= 0 && cellWidth(out) > w; i-- {
		if !pinned[hints[2*i+1]] {
			keep[i] = false
			out = render()
		}
	}
	return truncate(out, w)
}
